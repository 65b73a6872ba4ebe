import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountSeed } from '../accounts.ts';
import { patchConfig } from '../config.ts';
import { type FaultRule, type RandomFaults, validateRandom } from '../faults.ts';
import { json, empty, sendReply, type Reply } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import type { Services } from '../router.ts';
import type { AccountPatch, BulkOptions } from '../store.ts';
import { sqlDateTime } from '../ids.ts';
import { stateSummary } from '../state.ts';
import { dmsControl } from '../dms/control.ts';
import { mcpControl } from '../mcp/control.ts';

export const CONTROL_PREFIX = '/__sandbox/';

type Body = Record<string, unknown>;
type ControlHandler = (body: Body, services: Services, req: SandboxRequest) => Reply;

function accountView(services: Services, username: string) {
	return stateSummary(services.store).accounts.find((account) => account.username === username);
}

/** Test switches, never mixed with API routes: not logged, not subject to faults. */
function controlTable(reset: () => void): Record<string, ControlHandler> {
	return {
		...dmsControl,
		...mcpControl,
		'GET faults': (_b, s) => json({ rules: s.faults.list(), random: s.faults.randomState() }),
		'POST faults': (body, s) => {
			// Validate everything before changing anything, so a 400 leaves the faults as they were.
			const rules = (body.rules ?? []) as FaultRule[];
			if (body.random !== undefined && body.random !== null)
				validateRandom(body.random as RandomFaults);
			const list = s.faults.add(rules);
			if (body.random !== undefined) s.faults.setRandom(body.random as RandomFaults | null);
			return json({ rules: list, random: s.faults.randomState() });
		},
		'DELETE faults': (_b, s) => (s.faults.clear(), json({ rules: [], random: null })),
		'POST reset': () => (reset(), json({ ok: true })),
		'POST expire-sessions': (_b, s) => json({ expired: s.sessions.expireAll() }),
		'GET state': (_b, s) => json(stateSummary(s.store)),
		'GET requests': (_b, s) => json({ requests: s.requests.list() }),
		'DELETE requests': (_b, s) => (s.requests.clear(), json({ requests: [] })),
		'GET config': (_b, s) => json(s.config),
		'POST config': (body, s) => (patchConfig(s.config, body), json(s.config)),
		'POST accounts': (body, s) => {
			const account = s.store.createAccount(body as unknown as AccountSeed);
			return json(accountView(s, account.username));
		},
		'PATCH accounts': (body, s) => {
			const { user, ...patch } = body as { user: string } & AccountPatch;
			const account = s.store.updateAccount(user, patch);
			return json(accountView(s, account.username));
		},
		/** `{user, folders, filesPerFolder, parentHash?, folderPrefix?, filePrefix?, accessType?}` without HTTP round-trips. */
		'POST bulk': (body, s) => {
			const account = s.store.accountByLogin(String(body.user ?? ''));
			if (!account) throw new Error('no such account');
			const parent =
				body.parentHash === undefined ? undefined : s.store.folder(String(body.parentHash));
			if (body.parentHash !== undefined && parent?.ownerId !== account.id)
				throw new Error('no such parent folder');
			const created = s.store.bulkCreate(account, {
				...(body as unknown as BulkOptions),
				parent,
			});
			return json({
				folders: created.folders.map((folder) => ({
					hash: folder.hash,
					name: folder.name,
				})),
				files: created.files.length,
			});
		},
		/** Adds a signature record `{file_hash, signer_name?, signing_timestamp?}` as if someone had signed. */
		'POST signatures': (body, s) => {
			const file = s.store.file(String(body.file_hash ?? ''));
			if (!file) throw new Error('no such file');
			const record = {
				fileId: file.id,
				file_hash: file.hash,
				signing_timestamp: String(body.signing_timestamp ?? sqlDateTime(s.store.unix())),
				signer_name: String(body.signer_name ?? 'Sandbox Signer'),
			};
			s.store.esign.signatures.push(record);
			return json(record);
		},
		'GET outbox': (_b, s) => json({ outbox: s.store.esign.outbox }),
		/** Stands for opening the e-mailed 2FA link from `ip` (default: the caller's address). */
		'POST confirm-2fa': (body, s, req) => {
			const account = s.store.accountByLogin(String(body.user ?? ''));
			if (!account) throw new Error('no such account');
			account.confirmedIps.add(String(body.ip ?? req.ip));
			return json({ confirmedIps: [...account.confirmedIps] });
		},
	};
}

async function readJson(incoming: IncomingMessage): Promise<Body> {
	const chunks: Buffer[] = [];
	for await (const chunk of incoming) chunks.push(chunk as Buffer);
	const raw = Buffer.concat(chunks).toString('utf8').trim();
	return raw ? (JSON.parse(raw) as Body) : {};
}

export function controlHandler(services: Services, reset: () => void) {
	const table = controlTable(reset);
	return async (
		incoming: IncomingMessage,
		res: ServerResponse,
		req: SandboxRequest,
	): Promise<void> => {
		const name = req.pathname.slice(CONTROL_PREFIX.length).replace(/\/$/, '');
		const handler = table[`${req.method} ${name}`];
		let reply: Reply;
		if (!handler) {
			incoming.resume();
			reply = empty(404);
		} else {
			try {
				reply = handler(await readJson(incoming), services, req);
			} catch (error) {
				reply = json({ error: (error as Error).message }, 400);
			}
		}
		await sendReply(res, reply);
	};
}
