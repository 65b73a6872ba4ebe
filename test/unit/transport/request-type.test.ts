// The one request type (`ApiRequest`, undici's `{ url, method, headers, body }` with named parts): the compiler
// refuses a contradictory request (checked by `tsc -p tsconfig.test.json`: each `@ts-expect-error` below must
// meet an error), and the routing reads only the request's own parts.

import {
	fileBody,
	formBody,
	jsonBody,
	rawBody,
	type ApiRequest,
	type Credential,
	type FileUpload,
} from '../../../nodes/shared/transport/request-types';
import { pathFor } from '../../../nodes/shared/transport/routing';

const URL = 'https://storage.example/api_v2/get_file_info';

const upload = (path?: string): FileUpload => ({
	fields: { folder_hash: 'F' },
	field: 'file',
	fileName: 'a.txt',
	source: {
		fileName: 'a.txt',
		mimeType: 'text/plain',
		size: 1,
		open: async () => Buffer.from('a'),
		path,
	},
});

describe('the request type refuses what contradicts itself', () => {
	it('compiles only consistent requests', () => {
		const refused: unknown[] = [
			// @ts-expect-error A reconcile belongs to a write: there is no separate flag to disagree with.
			{ api: 'v2', url: URL, method: 'POST', reconcile: async () => undefined },
			// @ts-expect-error The uncertain-write advice exists only on a write.
			{ api: 'v2', url: URL, method: 'POST', hint: 'look first' },
			// @ts-expect-error One body: a string is not a body kind, the caller names it (`rawBody`).
			{ api: 'v2', url: URL, method: 'POST', body: 'text' },
			// @ts-expect-error A streamed answer is not read into memory, so it has no cap.
			{ api: 'v2', url: URL, method: 'POST', answer: { as: 'stream', maxBytes: 1 } },
			// @ts-expect-error An auth mode without a credential means nothing.
			{ api: 'v2', url: URL, method: 'POST', mode: 'session' },
			// @ts-expect-error "Anonymous" is no credential type: an anonymous request has no credential, so no mode.
			{ api: 'v1', url: URL, method: 'GET', credential: { type: 'anonymous', mode: 'session' } },
			// @ts-expect-error The old optional body fields are gone.
			{ api: 'v2', url: URL, method: 'POST', form: { a: 1 } },
		] satisfies ApiRequest[];
		const accepted: ApiRequest[] = [
			{ api: 'v2', url: URL, method: 'POST', body: formBody({ file_hash: 'H' }) },
			{
				api: 'v1',
				url: URL,
				method: 'POST',
				credential: { type: 'cloudStorageTokenApi' },
				body: fileBody(upload()),
				answer: { as: 'text' },
				write: { uncertainStatuses: [494], reconcile: async () => undefined },
			},
		];
		expect(refused).toHaveLength(7);
		expect(accepted).toHaveLength(2);
	});

	it('builds each body kind as the union the paths read', () => {
		expect(formBody({ a: 1 })).toEqual({ kind: 'form', fields: { a: 1 } });
		expect(jsonBody({ a: 1 })).toEqual({ kind: 'json', value: { a: 1 } });
		expect(rawBody('<x/>')).toEqual({ kind: 'raw', bytes: '<x/>' });
		const file = upload('/tmp/a.txt');
		expect(fileBody(file)).toEqual({ kind: 'file', upload: file });
	});
});

describe('pathFor reads the request', () => {
	const saved = { ...process.env };
	beforeEach(() => {
		for (const name of Object.keys(process.env))
			if (/^(CLOUD_STORAGE_|N8N_SSRF|N8N_DEFAULT_BINARY|EXECUTIONS_MODE)|_proxy$/i.test(name))
				delete process.env[name];
	});
	afterAll(() => {
		process.env = saved;
	});

	const base: ApiRequest = { api: 'v2', url: URL, method: 'POST', body: formBody({ a: 1 }) };
	const token = { type: 'cloudStorageTokenApi' as const };

	it.each<[string, ApiRequest, string]>([
		['a call with a credential', { ...base, credential: token }, 'undici'],
		['an anonymous call', base, 'undici'],
		['a session call', { ...base, credential: { ...token, mode: 'session' } }, 'helper'],
		['a streamed answer', { ...base, credential: token, answer: { as: 'stream' } }, 'helper'],
		[
			'a download into the store',
			{ ...base, credential: token, answer: { as: 'store' } },
			'own socket',
		],
		['an upload from disk', { ...base, body: fileBody(upload('/tmp/a.txt')) }, 'own socket'],
		['an upload without a file on disk', { ...base, body: fileBody(upload()) }, 'helper'],
		[
			'a download into the store with a credential the transport cannot apply',
			// A type outside the pack's reaches the transport only past the compiler (a cast): n8n's helper then.
			{
				...base,
				credential: { type: 'otherApi' } as unknown as Credential,
				answer: { as: 'store' },
			},
			'helper',
		],
	])('%s', (_name, request, path) => {
		expect(pathFor(request)).toBe(path);
	});
});
