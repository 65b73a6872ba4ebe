import { Readable } from 'node:stream';
import { NodeApiError } from 'n8n-workflow';

import {
	readCapped,
	ResponseTooLargeError,
	toUrlEncoded,
} from '../../../nodes/shared/transport/body';
import { classifyFailure } from '../../../nodes/shared/transport/failures';
import { unreachableError } from '../../../nodes/shared/transport/errors';
import { toNodeError } from '../../../nodes/shared/node/node-error';
import {
	backoffDelay,
	DEFAULT_RETRY,
	parseRetryAfter,
	retrySecondsInText,
} from '../../../nodes/shared/transport/retry';
import { explainStatus } from '../../../nodes/shared/transport/status-messages';
import { displayUrl, insecureUrlProblem, joinUrl } from '../../../nodes/shared/transport';
import { fileLink, folderLink, parseLink } from '../../../nodes/shared/storage/links';

describe('URLs', () => {
	it.each([
		'https://api.example.com',
		'http://localhost:5680',
		'http://127.0.0.1:1',
		'http://[::1]:80/x',
	])('accepts %s', (url) => expect(insecureUrlProblem(url)).toBeUndefined());

	it('refuses plain http outside loopback, naming the fix', () => {
		expect(insecureUrlProblem('http://api.example.com')).toMatch(/Use an https:\/\/ URL/);
		expect(insecureUrlProblem('ftp://x')).toMatch(/Unsupported URL scheme/);
		expect(insecureUrlProblem('not a url')).toMatch(/not a valid URL/);
	});

	it('shows URLs without query strings or user info', () => {
		expect(displayUrl('https://u:p@api.example.com/a?token=secret')).toBe(
			'https://api.example.com/a',
		);
		expect(joinUrl('https://a/b/', '/api_v2/x')).toBe('https://a/b/api_v2/x');
	});
});

describe('links', () => {
	const hashFromLink = (value: string, kind: 'folder' | 'file') => {
		const parsed = parseLink(value, kind);
		return parsed && 'hash' in parsed ? parsed.hash : undefined;
	};

	it('builds and parses folder and file links of any web host', () => {
		expect(folderLink('https://web.example.com/', 'a_B-9')).toBe('https://web.example.com/u/a_B-9');
		expect(fileLink('https://web.example.com', 'x')).toBe('https://web.example.com/f/x');
		expect(hashFromLink('https://de.web.example.com/u/AbC123xyz', 'folder')).toBe('AbC123xyz');
		expect(hashFromLink('https://web.example.com/f/q9?x=1', 'file')).toBe('q9');
		expect(hashFromLink('https://web.example.com/f/q9', 'folder')).toBeUndefined();
	});

	it('keeps hashes of any length whole', () => {
		const long = 'a'.repeat(97);
		expect(hashFromLink(`https://w/u/${long}`, 'folder')).toBe(long);
		expect(hashFromLink('https://w/u/z', 'folder')).toBe('z');
	});
});

describe('form bodies', () => {
	it('leaves out undefined, sends booleans as 1/0 and arrays PHP-style', () => {
		const params = toUrlEncoded({ a: 'x', b: undefined, c: true, d: false, e: ['1', '2'], f: 3 });
		expect(params.toString()).toBe('a=x&c=1&d=0&e%5B%5D=1&e%5B%5D=2&f=3');
	});

	it('refuses a response above the cap', async () => {
		await expect(
			readCapped(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), 15),
		).rejects.toBeInstanceOf(ResponseTooLargeError);
		expect((await readCapped(Readable.from([Buffer.from('ok')]), 15)).toString()).toBe('ok');
	});
});

describe('retry timing', () => {
	it('honours Retry-After as seconds or a date', () => {
		expect(parseRetryAfter('3')).toBe(3000);
		expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
		expect(parseRetryAfter(undefined)).toBeUndefined();
		expect(
			retrySecondsInText('{"error":{"message":"Rate limit exceeded, retry after 7 seconds"}}'),
		).toBe(7000);
	});

	it('backs off exponentially with jitter, capped', () => {
		const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
		expect(backoffDelay(policy, 1, undefined, () => 0)).toBe(50);
		expect(backoffDelay(policy, 3, undefined, () => 1)).toBe(400);
		expect(backoffDelay(policy, 10, undefined, () => 1)).toBe(1000);
		expect(backoffDelay(policy, 1, 5000)).toBe(1000);
	});
});

describe('failure classification', () => {
	it('finds the network code down the cause chain', () => {
		expect(classifyFailure({ cause: { code: 'ECONNRESET' } }).kind).toBe('dropped');
		expect(classifyFailure({ cause: { cause: { code: 'ECONNREFUSED' } } }).kind).toBe(
			'unreachable',
		);
		expect(
			classifyFailure({ message: 'timeout of 10ms exceeded', code: 'ECONNABORTED' }).kind,
		).toBe('timeout');
		expect(classifyFailure({ httpCode: '401' })).toEqual({
			kind: 'http',
			code: '401',
			status: 401,
		});
		expect(classifyFailure(new Error('boom')).kind).toBe('other');
	});
});

describe('status explanations', () => {
	it.each([400, 401, 403, 404, 405, 409, 429, 490, 491, 492, 493, 494, 500, 503])(
		'explains storage status %i',
		(status) => {
			const { cause, fix } = explainStatus('v2', status);
			expect(cause).toContain(String(status));
			expect(fix.length).toBeGreaterThan(10);
		},
	);

	it('says 405 can mean missing, not permitted or no access', () => {
		expect(explainStatus('v2', 405).fix).toMatch(/does not exist.*not permitted.*no access/s);
	});

	it('explains per interface', () => {
		expect(explainStatus('dms', 401).fix).toMatch(/Token credential/);
		expect(explainStatus('dav', 412).cause).toMatch(/changed on the server/);
		expect(explainStatus('mcp', 400).fix).toMatch(/2026-07-28/);
		// The node always POSTs: a 405 means the address, not the method, is wrong.
		expect(explainStatus('mcp', 405).fix).toMatch(/Base URL/);
		expect(explainStatus('v2', 418).cause).toMatch(/418/);
	});

	it('sends a 404 to the URL first: the contract answers missing items with 405', () => {
		expect(explainStatus('v2', 404).fix).toMatch(/^Check the Base URL/);
		for (const kind of ['v2', 'search', 'dms', 'mcp', 'ai', 'dav'] as const) {
			const { cause, fix } = explainStatus(
				kind,
				404,
				'<!DOCTYPE html><html><body>Cannot POST /mcp</body></html>',
			);
			expect(cause).toMatch(/web page/);
			expect(fix).toMatch(/Check the URL in the credential/);
			expect(fix).not.toMatch(/hash|key/);
		}
		// A DAV server's own XML error body is no web page.
		expect(explainStatus('dav', 404, '<?xml version="1.0"?><d:error xmlns:d="DAV:"/>').cause).toBe(
			'Not found (404)',
		);
	});

	it('names 2FA/IP confirmation for a DAV 403 only among other causes', () => {
		const { fix } = explainStatus('dav', 403);
		expect(fix).toMatch(/^Check that the account may read or write/);
		expect(fix).toMatch(/Some servers also refuse.*two-factor/s);
	});
});

describe('an unreachable service is named with its host', () => {
	const node = {
		id: '1',
		name: 'Cloud Storage',
		type: 'n8n-nodes-cloud-storage.cloudStorage',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
	};
	// n8n's NodeApiError swaps a message containing a common code for a generic text without the host.
	it.each([
		'ECONNREFUSED',
		'ENOTFOUND',
		'EAI_AGAIN',
		'EHOSTUNREACH',
		'ETIMEDOUT',
		'ECONNRESET',
		'EOTHER',
	])('%s', (code) => {
		const packError = unreachableError({ api: 'v2', itemIndex: 3 }, 'storage.example:443', code);
		expect(packError.code).toBe('CS_UNREACHABLE');
		// Worded below the node layer as a PackError, and still whole once n8n's error is made of it.
		const error = toNodeError(node, packError) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/^Could not reach storage\.example:443: /);
		expect(error.description).toContain(`(${code})`);
		expect(error.context.itemIndex).toBe(3);
	});
});
