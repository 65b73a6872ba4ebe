import type { SandboxRequest } from '../http/request.ts';
import type { Store } from '../store.ts';
import type { Account } from '../types.ts';

export type BearerOutcome =
	| { kind: 'none' }
	| { kind: 'ok'; account: Account; token: string }
	| { kind: 'failed' };

/**
 * `Authorization: Bearer <user_id>:<token>` (AI API and private MCP tools), checked against the
 * account's access tokens, the same ones the storage API accepts as `user_access_token`.
 */
export function bearerOf(req: SandboxRequest, store: Store): BearerOutcome {
	const header = req.headers.authorization;
	if (!header) return { kind: 'none' };
	const match = /^Bearer\s+(\d+):(\S+)$/i.exec(header.trim());
	if (!match) return { kind: 'failed' };
	const account = store.accounts.get(Number(match[1]));
	return account && account.tokens.includes(match[2])
		? { kind: 'ok', account, token: match[2] }
		: { kind: 'failed' };
}
