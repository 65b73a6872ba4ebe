import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { displayUrl, joinUrl } from '../urls';
import { addressHint, requestUrlProblem } from './url-field';

interface AuthenticatorAnswer {
	Success?: boolean;
	Message?: string;
	SessionID?: string;
}

export const TWO_FACTOR_FIX =
	'The service e-mailed a confirmation link. Open it from the network of the n8n host (the confirmation is bound to that IP address) and run again, or use a Token credential, which is not asked for a second factor.';
const TWO_FACTOR_HINT = `The account requires two-factor confirmation: ${TWO_FACTOR_FIX.replace(/^The/, 'the')}`;

/**
 * Logins under way, per decrypted credential object. n8n hands one node run's requests the same object, and
 * calls the credential's pre-authentication for each request refused with 401: requests in flight together
 * (Parallel Requests) that all found the session expired share one login. Each logging in would cost a login
 * apiece and, where the service keeps only an account's newest session (the documents do not say), end the
 * sessions the others had just been given.
 */
const loginsUnderWay = new WeakMap<object, Promise<{ sessionId: string }>>();

/**
 * Obtains a session id from the central authenticator; the search endpoint and GET-only legacy scripts
 * accept only sessions, and a session keeps secrets out of query strings. `credentials` (the object n8n
 * passes to the pre-authentication) lets concurrent calls for it share one login.
 */
export async function obtainSession(
	helper: IHttpRequestHelper,
	baseUrl: string,
	authenticate: (request: IHttpRequestOptions) => void,
	credentials?: object,
): Promise<{ sessionId: string }> {
	if (!credentials) return await login(helper, baseUrl, authenticate);
	const underWay = loginsUnderWay.get(credentials);
	if (underWay) return await underWay;
	const started = login(helper, baseUrl, authenticate);
	loginsUnderWay.set(credentials, started);
	try {
		return await started;
	} finally {
		loginsUnderWay.delete(credentials);
	}
}

async function login(
	helper: IHttpRequestHelper,
	baseUrl: string,
	authenticate: (request: IHttpRequestOptions) => void,
): Promise<{ sessionId: string }> {
	const url = joinUrl(baseUrl, 'api/authenticate_user.php');
	const problem = requestUrlProblem(url);
	if (problem) throw new Error(problem);
	const request: IHttpRequestOptions = {
		url,
		method: 'POST',
		body: new URLSearchParams(),
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: 60_000,
	};
	authenticate(request);
	const response = (await helper.helpers.httpRequest(request)) as {
		statusCode: number;
		body: unknown;
	};
	const answer = parseAnswer(response.body);
	if (response.statusCode === 401 || answer?.Success === false) {
		const message = answer?.Message ?? '';
		if (/two.?factor|2fa|confirm/i.test(message)) throw new Error(TWO_FACTOR_HINT);
		throw new Error(
			'Wrong user name or secret: the service refused the login. Check the credential.',
		);
	}
	const status = response.statusCode;
	if (status >= 300 && status < 400)
		throw new Error(
			`The service's login at ${displayUrl(url)} answered with a redirect (${status}), which is not followed so that the credential never reaches another address. Set the Base URL to the service's API address.`,
		);
	if (status >= 500)
		throw new Error(
			`The service's login at ${displayUrl(url)} failed (${status}): the service has a problem. Try again later; if it keeps failing, ask the service's operator.`,
		);
	if (status >= 400 || !answer || !answer.Success) {
		const what =
			status >= 400
				? `answered ${status}`
				: answer
					? 'answered JSON that is not a login answer'
					: `answered with ${looksLikeHtml(response.body) ? 'an HTML page' : 'plain text'} where JSON was expected`;
		const hint = addressHint('Base URL', baseUrl, true);
		throw new Error(
			`The service's login at ${displayUrl(url)} ${what}. The Base URL is not the service's API address: set it to the address the API answers at (for example https://api.example.com), not a web page's address.${hint ? ` ${hint}` : ''}`,
		);
	}
	if (!answer.SessionID) throw new Error(TWO_FACTOR_HINT);
	return { sessionId: answer.SessionID };
}

function looksLikeHtml(body: unknown): boolean {
	const text = Buffer.isBuffer(body) ? body.toString('utf8', 0, 512) : String(body ?? '');
	return /^\s*</.test(text);
}

function parseAnswer(body: unknown): AuthenticatorAnswer | undefined {
	const text = Buffer.isBuffer(body)
		? body.toString('utf8')
		: typeof body === 'string'
			? body
			: undefined;
	if (text === undefined)
		return typeof body === 'object' && body !== null ? (body as AuthenticatorAnswer) : undefined;
	try {
		return JSON.parse(text) as AuthenticatorAnswer;
	} catch {
		if (/error:\s*incorrect login/i.test(text))
			return { Success: false, Message: 'incorrect login' };
		return undefined;
	}
}
