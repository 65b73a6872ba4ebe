import type { SandboxRequest } from './http/request.ts';
import type { Sessions } from './sessions.ts';
import type { Store } from './store.ts';
import type { Account } from './types.ts';

export type AuthMethod =
	| 'password'
	| 'basic'
	| 'token'
	| 'session-param'
	| 'session-cookie'
	| 'third-party'
	| 'several';

export type AuthOutcome =
	| { kind: 'none' }
	| { kind: 'ok'; method: AuthMethod; account: Account; sessionId?: string }
	| { kind: 'failed'; method: AuthMethod }
	/** Correct password of a 2FA account whose IP is not confirmed yet: no session. */
	| { kind: 'twofa'; method: AuthMethod; account: Account };

/** Every field that carries a credential; never logged, and flagged when it shows up in a URL. */
export const CREDENTIAL_FIELDS = [
	'pass',
	'user_access_token',
	'PHPSESSID',
	'SessionID',
	'google_token',
	'apple_code',
];

/** The authentication methods a request carries (a Bearer header is not one of the storage's methods). */
export function methodsPresent(req: SandboxRequest): AuthMethod[] {
	const has = (name: string) => req.fields.has(name);
	const methods: AuthMethod[] = [];
	if (has('user') && has('pass')) methods.push('password');
	if (has('user') && has('user_access_token')) methods.push('token');
	if (has('PHPSESSID') || has('SessionID')) methods.push('session-param');
	if (/^Basic\s/i.test(req.headers.authorization ?? '')) methods.push('basic');
	if (req.cookies.PHPSESSID) methods.push('session-cookie');
	if (has('google_token') || has('apple_code')) methods.push('third-party');
	return methods;
}

/**
 * The central authenticator shared by V2 and V1. The documents say "provide exactly one" method: a
 * request carrying several is refused as a failed authentication (401), whatever each would give.
 */
export function authenticate(req: SandboxRequest, store: Store, sessions: Sessions): AuthOutcome {
	if (methodsPresent(req).length > 1) return { kind: 'failed', method: 'several' };
	const field = (name: string) => req.fields.get(name) ?? undefined;
	const user = field('user');
	if (user !== undefined && field('pass') !== undefined)
		return byPassword(req, store, 'password', user, field('pass')!);
	if (user !== undefined && field('user_access_token') !== undefined) {
		const account = store.accountByLogin(user);
		const token = field('user_access_token')!;
		return account && token && account.tokens.includes(token)
			? { kind: 'ok', method: 'token', account }
			: { kind: 'failed', method: 'token' };
	}
	const sessionParam = field('PHPSESSID') ?? field('SessionID');
	if (sessionParam !== undefined) return bySession(store, sessions, 'session-param', sessionParam);
	const basic = parseBasic(req.headers.authorization);
	if (basic) return byPassword(req, store, 'basic', basic.user, basic.pass);
	if (req.headers.authorization) return { kind: 'failed', method: 'basic' };
	if (req.cookies.PHPSESSID)
		return bySession(store, sessions, 'session-cookie', req.cookies.PHPSESSID);
	// Third-party sign-in cannot be verified offline: the sandbox refuses it like a bad credential.
	if (field('google_token') !== undefined || field('apple_code') !== undefined)
		return { kind: 'failed', method: 'third-party' };
	return { kind: 'none' };
}

function byPassword(
	req: SandboxRequest,
	store: Store,
	method: AuthMethod,
	user: string,
	pass: string,
): AuthOutcome {
	const account = store.accountByLogin(user);
	if (!account || account.password !== pass) return { kind: 'failed', method };
	if (account.requires2fa && !account.confirmedIps.has(req.ip))
		return { kind: 'twofa', method, account };
	return { kind: 'ok', method, account };
}

function bySession(
	store: Store,
	sessions: Sessions,
	method: AuthMethod,
	sessionId: string,
): AuthOutcome {
	const accountId = sessions.accountId(sessionId);
	const account = accountId === undefined ? undefined : store.accounts.get(accountId);
	return account ? { kind: 'ok', method, account, sessionId } : { kind: 'failed', method };
}

function parseBasic(header: string | undefined): { user: string; pass: string } | undefined {
	const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
	if (!match) return undefined;
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	return colon < 0 ? undefined : { user: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}

export function callerOf(outcome: AuthOutcome): Account | undefined {
	return outcome.kind === 'ok' ? outcome.account : undefined;
}
