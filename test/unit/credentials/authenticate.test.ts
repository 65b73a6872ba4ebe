import FormData from 'form-data';
import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { CloudStorageBearerApi } from '../../../credentials/CloudStorageBearerApi.credentials';
import { CloudStorageDavApi } from '../../../credentials/CloudStorageDavApi.credentials';
import { CloudStoragePasswordApi } from '../../../credentials/CloudStoragePasswordApi.credentials';
import { CloudStorageTokenApi } from '../../../credentials/CloudStorageTokenApi.credentials';
import { MODE_MARKER_HEADER } from '../../../nodes/shared/transport';

const token = {
	baseUrl: 'https://api.example.com',
	webUrl: 'https://www.example.com',
	user: 'demo',
	accessToken: 'tok-123',
	sessionId: 'sess-9',
};
const password = {
	baseUrl: 'https://api.example.com',
	webUrl: 'https://www.example.com',
	user: 'demo',
	password: 'pw',
	sessionId: 'sess-9',
};
const basic = `Basic ${Buffer.from('demo:pw').toString('base64')}`;

function request(extra: Partial<IHttpRequestOptions> = {}): IHttpRequestOptions {
	return {
		url: 'https://api.example.com/api_v2/get_file_info',
		method: 'POST',
		headers: { [MODE_MARKER_HEADER]: 'fields' },
		...extra,
	};
}

describe('token credential', () => {
	const credential = new CloudStorageTokenApi();

	it('adds user and token to a form body and removes the mode marker', async () => {
		const out = await credential.authenticate(
			token,
			request({ body: new URLSearchParams({ file_hash: 'h' }) }),
		);
		expect((out.body as URLSearchParams).toString()).toBe(
			'file_hash=h&user=demo&user_access_token=tok-123',
		);
		expect(out.headers).toEqual({});
		expect(out.url).not.toContain('tok-123');
	});

	it('adds the fields to a multipart body', async () => {
		const form = new FormData();
		form.append('folder_hash', 'f');
		const out = await credential.authenticate(token, request({ body: form }));
		const text = (out.body as FormData).getBuffer().toString();
		expect(text).toContain('name="user_access_token"');
		expect(text).toContain('tok-123');
	});

	it('uses the session cookie for session requests and for GET, never the query string', async () => {
		const session = await credential.authenticate(
			token,
			request({ headers: { [MODE_MARKER_HEADER]: 'session' }, body: new URLSearchParams() }),
		);
		expect(session.headers).toEqual({ Cookie: 'PHPSESSID=sess-9' });
		expect((session.body as URLSearchParams).toString()).toBe('');
		const get = await credential.authenticate(token, request({ method: 'GET', body: undefined }));
		expect(get.headers).toEqual({ Cookie: 'PHPSESSID=sess-9' });
		expect(get.qs).toBeUndefined();
	});

	it('refuses plain http outside localhost', async () => {
		await expect(
			credential.authenticate(token, request({ url: 'http://api.example.com/api_v2/x' })),
		).rejects.toThrow(/https/);
		await expect(
			credential.authenticate(token, request({ url: 'http://127.0.0.1:5680/api_v2/x', body: {} })),
		).resolves.toBeDefined();
	});
});

describe('password credential', () => {
	const credential = new CloudStoragePasswordApi();

	it('sends HTTP Basic, never the password in body or URL', async () => {
		const out = await credential.authenticate(
			password,
			request({ body: new URLSearchParams({ a: '1' }) }),
		);
		expect(out.headers).toEqual({ Authorization: basic });
		expect((out.body as URLSearchParams).toString()).toBe('a=1');
	});

	it('uses the session cookie for session requests', async () => {
		const out = await credential.authenticate(
			password,
			request({ headers: { [MODE_MARKER_HEADER]: 'session' } }),
		);
		expect(out.headers).toEqual({ Cookie: 'PHPSESSID=sess-9' });
	});
});

describe('session pre-authentication', () => {
	function helper(
		statusCode: number,
		body: unknown,
		seen: IHttpRequestOptions[] = [],
	): IHttpRequestHelper {
		return {
			helpers: {
				httpRequest: async (options: IHttpRequestOptions) => {
					seen.push(options);
					return { statusCode, body };
				},
			},
		} as unknown as IHttpRequestHelper;
	}

	it('obtains a session with the token in the POST body', async () => {
		const seen: IHttpRequestOptions[] = [];
		const result = await new CloudStorageTokenApi().preAuthentication.call(
			helper(200, { Success: true, SessionID: 'abc' }, seen),
			token,
		);
		expect(result).toEqual({ sessionId: 'abc' });
		expect(seen[0].url).toBe('https://api.example.com/api/authenticate_user.php');
		expect((seen[0].body as URLSearchParams).get('user_access_token')).toBe('tok-123');
		expect(seen[0].qs).toBeUndefined();
	});

	it('explains the two-factor confirmation when no session is granted', async () => {
		const twoFactor = helper(200, {
			Success: false,
			Message: 'Please confirm the login from the e-mailed link (2FA)',
		});
		await expect(
			new CloudStoragePasswordApi().preAuthentication.call(twoFactor, password),
		).rejects.toThrow(/e-mailed a confirmation link.*Token credential/s);
		const noSession = helper(200, { Success: true });
		await expect(
			new CloudStoragePasswordApi().preAuthentication.call(noSession, password),
		).rejects.toThrow(/two-factor/);
	});

	it('says wrong credentials plainly, without echoing them', async () => {
		const wrong = helper(200, 'error: incorrect login');
		const error = await new CloudStoragePasswordApi().preAuthentication
			.call(wrong, password)
			.catch((e: Error) => e);
		expect((error as Error).message).toMatch(/Wrong user name or secret/);
		expect((error as Error).message).not.toContain('pw');
	});

	it('shares one login among concurrent calls for the same credential object, not across objects or after it', async () => {
		const seen: IHttpRequestOptions[] = [];
		const login = helper(200, { Success: true, SessionID: 'abc' }, seen);
		const credential = new CloudStorageTokenApi();
		const run = { ...token };
		const together = await Promise.all([
			credential.preAuthentication.call(login, run),
			credential.preAuthentication.call(login, run),
			credential.preAuthentication.call(login, run),
		]);
		expect(together).toEqual([{ sessionId: 'abc' }, { sessionId: 'abc' }, { sessionId: 'abc' }]);
		expect(seen).toHaveLength(1);
		await credential.preAuthentication.call(login, { ...token });
		await credential.preAuthentication.call(login, run);
		expect(seen).toHaveLength(3);
	});

	it('lets every caller of a shared login see its failure, and the next call try again', async () => {
		const credential = new CloudStoragePasswordApi();
		const run = { ...password };
		const wrong = helper(200, 'error: incorrect login');
		const outcomes = await Promise.allSettled([
			credential.preAuthentication.call(wrong, run),
			credential.preAuthentication.call(wrong, run),
		]);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
		const seen: IHttpRequestOptions[] = [];
		await expect(
			credential.preAuthentication.call(helper(200, { Success: true, SessionID: 'x' }, seen), run),
		).resolves.toEqual({ sessionId: 'x' });
		expect(seen).toHaveLength(1);
	});

	it('refuses an http Base URL before sending anything', async () => {
		const seen: IHttpRequestOptions[] = [];
		await expect(
			new CloudStorageTokenApi().preAuthentication.call(helper(200, {}, seen), {
				...token,
				baseUrl: 'http://api.example.com',
			}),
		).rejects.toThrow(/https/);
		expect(seen).toHaveLength(0);
	});
});

describe('bearer and DAV credentials', () => {
	it('bearer sends <user_id>:<token>', async () => {
		const out = await new CloudStorageBearerApi().authenticate(
			{ userId: '1001', apiToken: 't' },
			request(),
		);
		expect(out.headers).toEqual({ Authorization: 'Bearer 1001:t' });
	});

	it('DAV sends HTTP Basic', async () => {
		const dav = new CloudStorageDavApi();
		const out = await dav.authenticate(
			{ username: 'demo', password: 'pw' },
			request({ url: 'https://dav.example.com/' }),
		);
		expect(out.headers).toEqual({ Authorization: basic });
	});
});
