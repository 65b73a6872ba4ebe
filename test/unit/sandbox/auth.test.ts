import { DEMO_ACCOUNT, TWOFA_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import { boot, control, DEMO_TOKEN, expectEmpty, upload, v2, readJson } from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const PASSWORD = { user: DEMO_ACCOUNT.email, pass: DEMO_ACCOUNT.password };
const basic = (user: string, pass: string) => ({
	Authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
});

async function authenticate(fields: Record<string, string>, headers: Record<string, string> = {}) {
	const response = await fetch(`${sandbox.baseUrl}/api/authenticate_user.php`, {
		method: 'POST',
		body: new URLSearchParams(fields),
		headers,
	});
	return { response, body: (await readJson(response)) as Record<string, any> };
}

describe('central authenticator on V2', () => {
	it.each([
		['user + pass (e-mail)', PASSWORD, {}],
		['user + pass (username)', { user: 'demo', pass: DEMO_ACCOUNT.password }, {}],
		['user + user_access_token', DEMO_TOKEN, {}],
		['HTTP Basic', {}, basic('demo', DEMO_ACCOUNT.password)],
	])('accepts %s', async (_name, fields, headers) => {
		const response = await v2(sandbox, 'create_folder', { ...fields, folder_name: 'x' }, headers);
		expect(response.status).toBe(200);
	});

	it('accepts a session as cookie, PHPSESSID parameter and SessionID parameter', async () => {
		const { body } = await authenticate(DEMO_TOKEN);
		const sid = body.SessionID as string;
		expect(sid).toMatch(/^[a-z0-9]{26}$/);
		expect((await v2(sandbox, 'create_folder', {}, { Cookie: `PHPSESSID=${sid}` })).status).toBe(
			200,
		);
		expect((await v2(sandbox, 'create_folder', { PHPSESSID: sid })).status).toBe(200);
		expect((await v2(sandbox, 'create_folder', { SessionID: sid })).status).toBe(200);
	});

	it.each([
		['nothing', {}, {}],
		['a wrong password', { user: 'demo', pass: 'nope' }, {}],
		['a wrong token', { user: 'demo', user_access_token: 'nope' }, {}],
		["another user's token", { user: 'free', user_access_token: DEMO_ACCOUNT.token }, {}],
		['wrong Basic', {}, basic('demo', 'nope')],
		['an unknown session', { PHPSESSID: 'abc' }, {}],
		['third-party sign-in', { google_token: 't', google_email: 'demo@example.com' }, {}],
	])('answers 401 with an empty JSON body for %s', async (_name, fields, headers) => {
		await expectEmpty(await v2(sandbox, 'create_folder', fields, headers), 401);
	});

	it('reads credentials from a multipart body even after the file part', async () => {
		const folder = await readJson(v2(sandbox, 'create_folder', DEMO_TOKEN));
		const response = await upload(
			sandbox,
			'a.txt',
			'hello',
			{ folder_hash: folder.folder_hash },
			PASSWORD,
		);
		expect(response.status).toBe(200);
	});

	it('refuses a JSON body with 400 (V2 does not decode JSON)', async () => {
		const response = await fetch(`${sandbox.baseUrl}/api_v2/create_folder`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(DEMO_TOKEN),
		});
		await expectEmpty(response, 400);
	});

	it('accepts the action as a parameter on /api_v2/ and refuses GET', async () => {
		const viaField = await fetch(`${sandbox.baseUrl}/api_v2/`, {
			method: 'POST',
			body: new URLSearchParams({ ...DEMO_TOKEN, action: 'create_folder', folder_name: 'f' }),
		});
		expect(await readJson(viaField)).toMatchObject({ folder_name: 'f' });
		await expectEmpty(await fetch(`${sandbox.baseUrl}/api_v2/create_folder`), 405);
		await expectEmpty(await v2(sandbox, 'no_such_action', DEMO_TOKEN), 400);
	});

	it('expires sessions on demand', async () => {
		const { body } = await authenticate(PASSWORD);
		expect((await v2(sandbox, 'create_folder', { PHPSESSID: body.SessionID })).status).toBe(200);
		const expired = await readJson(control(sandbox, 'POST', 'expire-sessions'));
		expect(expired.expired).toBeGreaterThanOrEqual(1);
		await expectEmpty(await v2(sandbox, 'create_folder', { PHPSESSID: body.SessionID }), 401);
	});

	it('expires sessions after the configured idle time', async () => {
		let now = Date.now();
		const timed = await boot({ now: () => now, config: { sessionTtlMs: 1000 } });
		try {
			const sid = (
				await readJson(
					fetch(`${timed.baseUrl}/api/authenticate_user.php?user=demo&pass=demo-password`),
				)
			).SessionID;
			now += 999;
			expect((await v2(timed, 'create_folder', { PHPSESSID: sid })).status).toBe(200);
			now += 1000;
			expect((await v2(timed, 'create_folder', { PHPSESSID: sid })).status).toBe(401);
		} finally {
			await timed.close();
		}
	});
});

describe('api/authenticate_user.php', () => {
	it('returns Success, SessionID, UserData and a session cookie', async () => {
		const { response, body } = await authenticate(PASSWORD);
		expect(response.status).toBe(200);
		expect(response.headers.get('set-cookie')).toContain(`PHPSESSID=${body.SessionID}`);
		expect(body).toMatchObject({ Success: true, SessionID: expect.any(String) });
		expect(Object.keys(body.UserData).sort()).toEqual(
			[
				'ID',
				'UserName',
				'Email',
				'first_name',
				'last_name',
				'avatar_path',
				'profile_background',
				'root_upload_hash',
				'root_upload_key',
				'root_add_key',
				'mobile_camera_upload_hash',
				'current_location_country_code',
				'file_size_limit',
				'queue_size_limit',
			].sort(),
		);
		expect(body.UserData).toMatchObject({
			ID: 1001,
			UserName: 'demo',
			root_upload_hash: DEMO_ACCOUNT.rootHash,
		});
	});

	it('mints a working token with get_user_access_token', async () => {
		const { body } = await authenticate({ ...PASSWORD, get_user_access_token: '1' });
		const token = body.UserData.user_access_token as string;
		expect(token).toMatch(/^[0-9a-f]{32}$/);
		expect(
			(await v2(sandbox, 'create_folder', { user: 'demo', user_access_token: token })).status,
		).toBe(200);
	});

	it('answers wrong credentials with 401 and Success false', async () => {
		const { response, body } = await authenticate({ user: 'demo', pass: 'wrong' });
		expect(response.status).toBe(401);
		expect(body).toEqual({ Success: false, Message: expect.any(String) });
	});

	it('gives a 2FA account no session for a password login until its IP is confirmed', async () => {
		const password = { user: 'twofa', pass: TWOFA_ACCOUNT.password };
		const { response, body } = await authenticate(password);
		expect(response.status).toBe(200);
		expect(body.Success).toBe(false);
		expect(body.Message).toMatch(/e-mail/i);
		expect(body.Message).toMatch(/same IP/i);
		expect(body.SessionID).toBeUndefined();
		await expectEmpty(await v2(sandbox, 'create_folder', password), 401);
		await expectEmpty(
			await v2(sandbox, 'create_folder', {}, basic('twofa', TWOFA_ACCOUNT.password)),
			401,
		);
		// The token login skips the 2FA demand.
		expect(
			(
				await v2(sandbox, 'create_folder', {
					user: 'twofa',
					user_access_token: TWOFA_ACCOUNT.token,
				})
			).status,
		).toBe(200);
		await control(sandbox, 'POST', 'confirm-2fa', { user: 'twofa' });
		expect((await authenticate(password)).body.Success).toBe(true);
	});
});

describe('api/login.php', () => {
	it('returns the plain-text cookie string', async () => {
		const response = await fetch(`${sandbox.baseUrl}/api/login.php`, {
			method: 'POST',
			body: new URLSearchParams({ user: 'demo', pass: DEMO_ACCOUNT.password }),
		});
		expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
		const text = await response.text();
		expect(text).toMatch(
			/^PHPSESSID=[a-z0-9]{26}; user=demo; hash=\w+; ID=1001; email=demo@example.com; /,
		);
		expect(text).toContain(`root_upload_hash=${DEMO_ACCOUNT.rootHash}`);
		const sid = /PHPSESSID=(\w+)/.exec(text)![1];
		expect((await v2(sandbox, 'create_folder', { PHPSESSID: sid })).status).toBe(200);
	});

	it('answers a failed login with the documented text', async () => {
		const response = await fetch(`${sandbox.baseUrl}/api/login.php?user=demo&pass=wrong`);
		expect(response.status).toBe(401);
		expect(await response.text()).toBe('error: incorrect login');
	});
});

describe('exactly one authentication method', () => {
	it.each([
		['token and password', { ...DEMO_TOKEN, pass: DEMO_ACCOUNT.password }, {}],
		['token fields and HTTP Basic', DEMO_TOKEN, basic('demo', DEMO_ACCOUNT.password)],
		['password fields and a session cookie', PASSWORD, { Cookie: 'PHPSESSID=whatever' }],
	])('refuses %s in one request (401), even when each is valid', async (_name, fields, headers) => {
		await expectEmpty(
			await v2(sandbox, 'create_folder', { ...fields, folder_name: 'x' }, headers),
			401,
		);
	});

	it('refuses a valid session parameter together with a valid token', async () => {
		const { body } = await authenticate(DEMO_TOKEN);
		await expectEmpty(
			await v2(sandbox, 'create_folder', {
				...DEMO_TOKEN,
				PHPSESSID: body.SessionID,
				folder_name: 'x',
			}),
			401,
		);
		expect(
			(await v2(sandbox, 'create_folder', { PHPSESSID: body.SessionID, folder_name: 'x' })).status,
		).toBe(200);
	});
});
