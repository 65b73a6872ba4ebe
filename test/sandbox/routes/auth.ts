import { empty, json, text } from '../http/reply.ts';
import { flag, type SandboxRequest } from '../http/request.ts';
import type { Ctx, Route } from '../router.ts';
import type { Account } from '../types.ts';

/** The spec's Account data table. */
export function userData(ctx: Ctx, account: Account) {
	const root = ctx.store.rootOf(account);
	return {
		ID: account.id,
		UserName: account.username,
		Email: account.email,
		first_name: account.firstName,
		last_name: account.lastName,
		avatar_path: `${ctx.webUrl}/avatars/${account.id}.png`,
		profile_background: null,
		root_upload_hash: root.hash,
		root_upload_key: root.editKey,
		root_add_key: root.uploadKey,
		mobile_camera_upload_hash: null,
		current_location_country_code: ctx.config.countryCode,
		file_size_limit: account.fileSizeLimit,
		queue_size_limit: account.queueSizeLimit,
	} as Record<string, unknown>;
}

function maskEmail(email: string): string {
	const [local, domain] = email.split('@');
	return `${local.slice(0, 1)}***@${domain}`;
}

const sessionCookie = (sessionId: string) => `PHPSESSID=${sessionId}; path=/; HttpOnly`;

/** A session for the caller: the one it authenticated with, or a new one. */
function sessionFor(ctx: Ctx): { account: Account; sessionId: string } | undefined {
	if (ctx.auth.kind !== 'ok') return undefined;
	return {
		account: ctx.auth.account,
		sessionId: ctx.auth.sessionId ?? ctx.sessions.create(ctx.auth.account.id),
	};
}

/**
 * Wrong or missing credentials are a failed authentication, which the spec answers with 401 (Authentication
 * rule 5); the body is still the authenticator's object. A correct password of a 2FA account is not a
 * failure: 200 with Success false and no session, until the IP is confirmed.
 */
function authenticateUser(req: SandboxRequest, ctx: Ctx) {
	const { auth } = ctx;
	if (auth.kind === 'twofa') {
		return json({
			Success: false,
			Message: `Two-factor confirmation required: a confirmation link was e-mailed to ${maskEmail(auth.account.email)}. Open it from the same IP address, then log in again.`,
		});
	}
	const granted = sessionFor(ctx);
	if (!granted) {
		return json(
			{
				Success: false,
				Message: auth.kind === 'none' ? 'Authentication required' : 'Incorrect login',
			},
			401,
		);
	}
	const data = userData(ctx, granted.account);
	if (flag(req.fields.get('get_user_access_token')))
		data.user_access_token = ctx.store.mintToken(granted.account);
	return json({ Success: true, Message: 'OK', SessionID: granted.sessionId, UserData: data }, 200, {
		'Set-Cookie': sessionCookie(granted.sessionId),
	});
}

/** Plain-text cookie string; a 2FA account without a confirmed IP gets the same failure text (no session). */
function login(_req: SandboxRequest, ctx: Ctx) {
	const granted = sessionFor(ctx);
	if (!granted) return text('error: incorrect login', 401);
	const { account, sessionId } = granted;
	const root = ctx.store.rootOf(account);
	const parts = [
		`PHPSESSID=${sessionId}`,
		`user=${account.username}`,
		`hash=${account.userHash}`,
		`ID=${account.id}`,
		`email=${account.email}`,
		`root_upload_hash=${root.hash}`,
		`root_upload_key=${root.editKey}`,
	];
	return text(parts.join('; '), 200, { 'Set-Cookie': sessionCookie(sessionId) });
}

/**
 * The session check object. Any successful authentication counts (the session it used, or a new one for
 * other methods); an unknown or expired session is a failed authentication: 401 with Success false.
 */
function validateSession(_req: SandboxRequest, ctx: Ctx) {
	const granted = sessionFor(ctx);
	if (!granted) {
		const message = ctx.auth.kind === 'none' ? 'No session' : 'Session expired or invalid';
		return json({ Success: false, Message: message, SessionID: null }, 401);
	}
	return json({
		Success: true,
		Message: 'Session is valid',
		SessionID: granted.sessionId,
	});
}

const scriptName = (req: SandboxRequest) => req.pathname.slice('/api/'.length, -'.php'.length);

export const authRoutes: Route[] = [
	{
		api: 'auth',
		methods: ['GET', 'POST'],
		path: '/api/authenticate_user.php',
		body: 'form',
		action: scriptName,
		handle: authenticateUser,
	},
	{
		api: 'auth',
		methods: ['GET', 'POST'],
		path: '/api/login.php',
		body: 'form',
		action: scriptName,
		handle: login,
	},
	{
		api: 'auth',
		// Documented as GET only; other methods are answered here (405) rather than by the V1 catch-all.
		methods: '*',
		path: '/api/validate_session.php',
		body: 'form',
		action: scriptName,
		handle: (req, ctx) => (req.method === 'GET' ? validateSession(req, ctx) : empty(405)),
	},
];
