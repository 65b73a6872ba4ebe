/**
 * The session login (a credential's pre-authentication) names what the Base URL answered: a wrong path, a web
 * page or a redirect, with the address to set; it asks n8n's helper to follow no redirect.
 */
import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { obtainSession } from '../../../nodes/shared/auth/session';

function helper(statusCode: number, body: unknown, sent: IHttpRequestOptions[] = []) {
	return {
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				sent.push(options);
				return { statusCode, body };
			},
		},
	} as unknown as IHttpRequestHelper;
}

const login = async (statusCode: number, body: unknown, sent?: IHttpRequestOptions[]) =>
	await obtainSession(helper(statusCode, body, sent), 'https://api.example.com', () => undefined);

it('follows no redirect, and says so when the Base URL redirects', async () => {
	const sent: IHttpRequestOptions[] = [];
	await expect(login(302, '', sent)).rejects.toThrow(
		/login at https:\/\/api\.example\.com\/api\/authenticate_user\.php answered with a redirect \(302\).*Set the Base URL/,
	);
	expect(sent[0]).toMatchObject({ disableFollowRedirect: true });
});

it('names a wrong path without "authenticator" or "try again later"', async () => {
	const error = (await login(404, 'Not Found').catch((e: Error) => e)) as Error;
	expect(error.message).toMatch(
		/answered 404\. The Base URL is not the service's API address: set it to/,
	);
	expect(error.message).not.toMatch(/authenticator|try again later/i);
});

it('names a web page where JSON was expected', async () => {
	await expect(login(200, Buffer.from('<!doctype html><html></html>'))).rejects.toThrow(
		/answered with an HTML page where JSON was expected\. The Base URL is not the service's API address/,
	);
});

it('tells a server failure from a wrong address', async () => {
	await expect(login(503, '')).rejects.toThrow(
		/failed \(503\): the service has a problem\. Try again later/,
	);
});

it('returns the session of a successful login', async () => {
	await expect(login(200, JSON.stringify({ Success: true, SessionID: 's1' }))).resolves.toEqual({
		sessionId: 's1',
	});
});
