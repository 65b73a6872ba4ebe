import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { type ApiRequest, displayUrl, formBody, joinUrl, jsonBody, rawBody } from '../transport';
import { TWO_FACTOR_FIX } from './session';

export type TestedCredential =
	| 'cloudStorageTokenApi'
	| 'cloudStoragePasswordApi'
	| 'cloudStorageBearerApi'
	| 'cloudStorageDavApi';

/** What a credential's Test concluded from an answer the transport handed back (status < 300 or accepted). */
export type Verdict =
	| { ok: string }
	/** `address`: the answer says the URL is not the interface's address (a hint about its path may follow). */
	| { failed: string; fix: string; address?: true }
	/** Not the expected JSON: worded by the transport (`unexpectedBodyError`). */
	| { unexpected: 'an HTML page' | 'plain text' };

export interface Answer {
	status: number;
	contentType: string;
	text: string;
	/** The Location header of a redirect. */
	location?: string;
}

/** The statuses of a redirect: handed back by the transport (never followed) and reported by `redirected`. */
export const REDIRECTS = [301, 302, 303, 307, 308];

/**
 * A redirect, reported and never followed: the credential would travel to the new address. When the target ends
 * with the path the Test asked for, the address to set is the target without it.
 */
function redirected(answer: Answer, url: string, field: string, asked: string): Verdict {
	let target: URL | undefined;
	try {
		target = answer.location ? new URL(answer.location, url) : undefined;
	} catch {
		target = undefined;
	}
	const shown = target ? displayUrl(target.href) : undefined;
	const suggested =
		shown && shown.endsWith(asked) ? shown.slice(0, shown.length - asked.length) || shown : shown;
	return {
		failed: `The server at ${displayUrl(url)} answered with a redirect${target ? ` to ${target.host}` : ''} (${answer.status})`,
		fix: `The Test follows no redirect, so the credential never reaches another address.${
			suggested
				? ` If ${target!.host} is the right server, set ${field} to ${suggested}.`
				: ` Set ${field} to the address the server redirects to.`
		}`,
	};
}

/** One credential's Test: the single request it sends (to the configured URL only) and how it reads the answer. */
export interface CredentialCheck {
	/** The form field that holds the URL the Test calls, as the form names it, and its key in the data. */
	urlField: string;
	urlKey: 'baseUrl' | 'davUrl';
	/** Whether the interface answers at the root of its address (the service's APIs), so a path is suspect. */
	apiAtRoot: boolean;
	/** What the field should hold, as a hint says it. */
	address: string;
	request(data: ICredentialDataDecryptedObject): ApiRequest;
	verdict(answer: Answer, url: string): Verdict;
}

const looksLikeHtml = ({ contentType, text }: Answer) =>
	/html/i.test(contentType) || /^\s*</.test(text);

const notJson = (answer: Answer): Verdict => ({
	unexpected: looksLikeHtml(answer) ? 'an HTML page' : 'plain text',
});

function parsed(text: string): Record<string, unknown> | undefined {
	try {
		const value = JSON.parse(text) as unknown;
		return typeof value === 'object' && value !== null
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

const API_ADDRESS_FIX =
	"The Base URL is not the service's API address: set it to the address the API answers at (for example https://api.example.com), not a web page's address and without a path such as /api.";

function wrongPath(url: string, status: number, what: string): Verdict {
	return {
		failed: `Nothing at ${displayUrl(url)} answers as ${what} (${status})`,
		fix: API_ADDRESS_FIX,
		address: true,
	};
}

function storageCheck(
	credentialType: 'cloudStorageTokenApi' | 'cloudStoragePasswordApi',
	secret: string,
): CredentialCheck {
	const refused: Verdict = {
		failed: `The service refused the login: wrong user or ${secret.toLowerCase()}`,
		fix: `Check User and ${secret} in this credential.`,
	};
	/** A 401 with a text or a page, where the service answers an empty body (or JSON): another server's login. */
	const refusedElsewhere = (answer: Answer, url: string): Verdict => ({
		failed: `The server at ${displayUrl(url)} refused the login (401), but not as the service does: it answered with ${looksLikeHtml(answer) ? 'a web page' : 'plain text'}`,
		fix: `Check Base URL first: it must be the service's API address (for example https://api.example.com), not the DAV URL, a web page or a proxy's login. If it is, check User and ${secret}.`,
		address: true,
	});
	return {
		urlField: 'Base URL',
		urlKey: 'baseUrl',
		apiAtRoot: true,
		address: "the API's address",
		// The login the sessions come from: it checks the user and the secret and changes nothing.
		request: (data) => ({
			api: 'v2',
			url: joinUrl(String(data.baseUrl ?? ''), 'api/authenticate_user.php'),
			method: 'POST',
			credential: { type: credentialType, mode: 'fields' },
			body: formBody({}),
			answer: { as: 'text', accept: [...REDIRECTS, 401, 403, 404, 405] },
		}),
		verdict(answer, url) {
			if (REDIRECTS.includes(answer.status))
				return redirected(answer, url, 'Base URL', '/api/authenticate_user.php');
			if (answer.status === 401)
				return answer.text.trim() && !parsed(answer.text) ? refusedElsewhere(answer, url) : refused;
			if (answer.status === 403)
				return {
					failed: 'The service refused this account access (403)',
					fix: "The account may be locked or limited to some IP addresses: check it in the service's web interface, or use another account.",
				};
			if (answer.status === 404 || answer.status === 405)
				return wrongPath(url, answer.status, "the service's login");
			const body = parsed(answer.text);
			if (!body) return notJson(answer);
			if (typeof body.Success !== 'boolean')
				return wrongPath(url, answer.status, "the service's login");
			const message = typeof body.Message === 'string' ? body.Message : '';
			if (/two.?factor|2fa|confirm/i.test(message) || (body.Success && !body.SessionID))
				return {
					failed: 'The account requires two-factor confirmation',
					fix: TWO_FACTOR_FIX,
				};
			if (!body.Success) return refused;
			return { ok: `The service accepted the user and the ${secret.toLowerCase()}` };
		},
	};
}

const MCP_VERSION = '2026-07-28';

/** A private tool needs the bearer token, so a wrong token fails here rather than in a workflow. */
const bearerCheck: CredentialCheck = {
	urlField: 'Base URL',
	urlKey: 'baseUrl',
	apiAtRoot: true,
	address: "the API's address",
	request: (data) => ({
		api: 'mcp',
		url: joinUrl(String(data.baseUrl ?? ''), 'api/mcp'),
		method: 'POST',
		credential: { type: 'cloudStorageBearerApi' },
		// The per-request revision needs no handshake, so one request tests the token.
		headers: {
			Accept: 'application/json, text/event-stream',
			'MCP-Protocol-Version': MCP_VERSION,
			'Mcp-Method': 'tools/call',
			'Mcp-Name': 'storage_get_root_folder',
		},
		body: jsonBody({
			jsonrpc: '2.0',
			id: 1,
			method: 'tools/call',
			params: {
				name: 'storage_get_root_folder',
				arguments: {},
				_meta: {
					'io.modelcontextprotocol/protocolVersion': MCP_VERSION,
					'io.modelcontextprotocol/clientCapabilities': {},
					'io.modelcontextprotocol/clientInfo': {
						name: 'n8n-nodes-cloud-storage',
						version: '0.1.0',
					},
				},
			},
		}),
		answer: { as: 'text', accept: [...REDIRECTS, 401, 403, 404, 405] },
	}),
	verdict(answer, url) {
		if (REDIRECTS.includes(answer.status)) return redirected(answer, url, 'Base URL', '/api/mcp');
		if (answer.status === 401 || answer.status === 403)
			return {
				failed: `The service refused the User ID and API Token (${answer.status})`,
				fix: "Check both: the User ID is the account's numeric id, the API Token a user access token of type API or ALL of that account.",
			};
		if (answer.status === 404 || answer.status === 405)
			return wrongPath(url, answer.status, "the service's MCP endpoint");
		// A streamed answer carries the JSON-RPC message in its data lines.
		const text = /event-stream/i.test(answer.contentType)
			? answer.text
					.split(/\r?\n/)
					.filter((line) => line.startsWith('data:'))
					.map((line) => line.slice(5))
					.join('')
			: answer.text;
		const body = parsed(text);
		if (!body) return notJson(answer);
		const error = body.error as { message?: unknown } | undefined;
		if (error)
			return {
				failed: `The service's MCP endpoint refused the test call: ${String(error.message ?? 'no reason given').slice(0, 200)}`,
				fix: 'Check the User ID and the API Token (a user access token of type API or ALL).',
			};
		if (body.result === undefined)
			return wrongPath(url, answer.status, "the service's MCP endpoint");
		return { ok: 'The service accepted the User ID and the API Token' };
	},
};

const PROPFIND =
	'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>';

const davCheck: CredentialCheck = {
	urlField: 'DAV URL',
	urlKey: 'davUrl',
	// A DAV server may live under any path (/dav/, /remote.php/dav/).
	apiAtRoot: false,
	address: "the CalDAV/CardDAV server's address",
	request: (data) => ({
		api: 'dav',
		url: String(data.davUrl ?? ''),
		method: 'PROPFIND',
		credential: { type: 'cloudStorageDavApi' },
		headers: { Depth: '0', 'Content-Type': 'application/xml; charset=utf-8' },
		body: rawBody(PROPFIND),
		// What a server that does not speak DAV answers to PROPFIND.
		answer: { as: 'text', accept: [...REDIRECTS, 400, 401, 403, 404, 405, 406, 415, 501] },
	}),
	verdict(answer, url) {
		if (REDIRECTS.includes(answer.status)) return redirected(answer, url, 'DAV URL', '');
		if (answer.status === 401)
			return {
				failed: 'The server refused the user name and password (401)',
				fix: 'Check Username and Password or Access Token in this credential.',
			};
		if (answer.status === 403) {
			const { origin, pathname } = new URL(url);
			// Servers also refuse a path outside the account's own (Radicale answers 403 there).
			const below =
				pathname.replace(/\/+$/, '') === ''
					? ''
					: ` Or the DAV URL points below the server's root, where this account may not look: try ${origin}/.`;
			return {
				failed: 'The server refused this account access (403)',
				fix: `The account may lack calendar and address-book access, or (two-factor accounts) the service wants the n8n host's IP address confirmed: open the e-mailed link from the n8n host's network.${below}`,
			};
		}
		if (answer.status === 207 && /<([\w-]+:)?multistatus[\s>]/.test(answer.text))
			return { ok: 'The server accepted the user name and password and speaks CalDAV/CardDAV' };
		const page = looksLikeHtml(answer) ? ' with a web page' : '';
		return {
			failed: `${displayUrl(url)} is not a CalDAV/CardDAV server: it answered a DAV request (PROPFIND) with ${answer.status}${page}`,
			fix: "Set DAV URL to the root of the CalDAV/CardDAV server (for example https://dav.example.com/), not to a web page or the storage API's address.",
			address: true,
		};
	},
};

export const CREDENTIAL_CHECKS: Record<TestedCredential, CredentialCheck> = {
	cloudStorageTokenApi: storageCheck('cloudStorageTokenApi', 'User Access Token'),
	cloudStoragePasswordApi: storageCheck('cloudStoragePasswordApi', 'Password'),
	cloudStorageBearerApi: bearerCheck,
	cloudStorageDavApi: davCheck,
};
