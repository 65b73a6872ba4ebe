// The proxy URLs n8n users can set, on every path the pack sends through. An https:// proxy (TLS to the proxy)
// carries calls, writes, uploads and downloads through n8n's helper as through undici. A proxy n8n's requests
// cannot go through (socks://, socks5://, …: n8n's proxy agents would speak HTTP to it) or a proxy URL that does not
// parse is refused before any request, naming the setting and what is supported; nothing goes around it directly.
// n8n's helper here is its real request helper, which applies n8n's proxy rule per request as n8n 2.41 does.
import { httpRequest } from '@n8n/backend-network/testing';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, createReadStream } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
	createServer as createNetServer,
	type AddressInfo,
	type Server as NetServer,
	type Socket,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import tls from 'node:tls';
import type { IExecuteFunctions } from 'n8n-workflow';

import { outcomeOf } from '../../../nodes/shared/errors/outcome';
import { downloadFile } from '../../../nodes/shared/storage/download';
import { apiRequest } from '../../../nodes/shared/transport/request';
import { fileBody, formBody, type ApiRequest } from '../../../nodes/shared/transport/request-types';
import { startProxy, type ProxyFixture } from './proxy-fixture';

const certificate = readFileSync(join(__dirname, 'fixtures/loopback-cert.pem'), 'utf8');
const key = readFileSync(join(__dirname, 'fixtures/loopback-key.pem'));
const defaults = tls.getCACertificates('default');
const folder = mkdtempSync(join(tmpdir(), 'proxy-kinds-'));
const uploadPath = join(folder, 'up.bin');

const VARIABLES = [
	'HTTP_PROXY',
	'HTTPS_PROXY',
	'ALL_PROXY',
	'NO_PROXY',
	'npm_config_http_proxy',
	'npm_config_https_proxy',
	'npm_config_proxy',
	'npm_config_no_proxy',
	'N8N_SSRF_PROTECTION_ENABLED',
	'CLOUD_STORAGE_KEEP_ALIVE',
	'CLOUD_STORAGE_WORKER_TRANSFERS',
	'N8N_DEFAULT_BINARY_DATA_MODE',
].flatMap((name) => [name, name.toLowerCase()]);
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

/** The service: https on loopback (the certificate trusted here), counting the requests that reached it. */
let service: Server;
let base = '';
const reached: string[] = [];
/** Stands where a socks proxy would listen: counts the connections made to it. */
let socks: NetServer;
let socksPort = 0;
let socksConnections = 0;
let proxy: ProxyFixture;

beforeAll(async () => {
	tls.setDefaultCACertificates([...defaults, certificate]);
	writeFileSync(uploadPath, Buffer.alloc(64 * 1024, 7));
	service = createHttpsServer(
		{ cert: certificate, key },
		(req: IncomingMessage, res: ServerResponse) => {
			req.resume();
			req.on('end', () => {
				reached.push(`${req.method} ${req.url}`);
				if (req.url?.includes('download'))
					return void res
						.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 5 })
						.end('hello');
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			});
		},
	);
	await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
	base = `https://localhost:${(service.address() as AddressInfo).port}`;
	socks = createNetServer((socket: Socket) => {
		socksConnections++;
		socket.destroy();
	});
	await new Promise<void>((resolve) => socks.listen(0, '127.0.0.1', resolve));
	socksPort = (socks.address() as AddressInfo).port;
	proxy = await startProxy({ cert: certificate, key });
});
afterAll(async () => {
	tls.setDefaultCACertificates(defaults);
	await proxy.close();
	service.closeAllConnections();
	await new Promise((resolve) => service.close(resolve));
	await new Promise((resolve) => socks.close(resolve));
	rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
	for (const name of VARIABLES) delete process.env[name];
	reached.length = 0;
	socksConnections = 0;
	proxy.reset();
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved))
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
});

/** n8n's helpers: its real request helper, and a store that keeps what it is given in memory. */
function context(): IExecuteFunctions {
	return {
		getNode: () => ({
			name: 'Cloud Storage',
			type: 'cloudStorage',
			typeVersion: 1,
			parameters: {},
		}),
		getNodeParameter: (_name: string, _item: number, fallback: unknown) => fallback,
		getInputData: () => [{ json: {} }],
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequest: async (options: never) => await httpRequest(options),
			prepareBinaryData: async (data: Readable, fileName: string, mimeType: string) => {
				const bytes = Buffer.concat(await data.toArray()).length;
				return { data: '', fileName, mimeType, bytes };
			},
		},
	} as unknown as IExecuteFunctions;
}

const call = (write: boolean): ApiRequest => ({
	api: 'v2',
	url: `${base}/api_v2/${write ? 'rename_file' : 'get_file_info'}`,
	method: 'POST',
	body: formBody({ file_hash: 'H4sh', ...(write ? { name: 'b.txt' } : {}) }),
	write: write ? {} : undefined,
	itemIndex: 0,
	retry: { maxAttempts: 1 },
});

const upload = (onDisk: boolean): ApiRequest => ({
	api: 'v2',
	url: `${base}/api_v2/upload_file`,
	method: 'POST',
	write: {},
	itemIndex: 0,
	retry: { maxAttempts: 1 },
	body: fileBody({
		fields: { folder_hash: 'F' },
		field: 'file',
		fileName: 'up.bin',
		source: {
			fileName: 'up.bin',
			mimeType: 'application/octet-stream',
			size: 64 * 1024,
			open: async () => createReadStream(uploadPath),
			// Without a path on disk the upload goes through n8n's helper, as in n8n's database mode.
			path: onDisk ? uploadPath : undefined,
		},
	}),
	answer: { as: 'text' },
});

/** Every way a request of the pack goes: calls on undici or n8n's helper, uploads and downloads. */
const paths: Array<[string, Record<string, string>, () => Promise<unknown>]> = [
	['a read call (undici)', {}, async () => await apiRequest(context(), call(false))],
	['a write call (undici)', {}, async () => await apiRequest(context(), call(true))],
	[
		"a read call (n8n's helper)",
		{ CLOUD_STORAGE_KEEP_ALIVE: 'false' },
		async () => await apiRequest(context(), call(false)),
	],
	[
		"a write call (n8n's helper)",
		{ CLOUD_STORAGE_KEEP_ALIVE: 'false' },
		async () => await apiRequest(context(), call(true)),
	],
	['an upload of a file on disk', {}, async () => await apiRequest(context(), upload(true))],
	['an upload from the store', {}, async () => await apiRequest(context(), upload(false))],
	[
		'a download',
		{},
		async () =>
			await downloadFile(context(), { baseUrl: base, webUrl: base }, 'H4sh', { fileName: 'f.bin' }),
	],
];

describe('an https:// proxy (TLS to the proxy)', () => {
	it.each(paths)('%s goes through it to the service', async (_path, env, send) => {
		Object.assign(process.env, env, { HTTPS_PROXY: proxy.url });
		await send();
		expect(proxy.tunnels.map((tunnel) => tunnel.target)).toContain(new URL(base).host);
		expect(reached).toHaveLength(1);
	});

	// The own socket speaks no proxy: a download asked for on it goes through n8n's helper, never around the proxy.
	it('a download asked for on the own socket goes through it too', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		await downloadFile(context(), { baseUrl: base, webUrl: base }, 'H4sh', {
			fileName: 'f.bin',
			via: 'main thread',
		});
		expect(proxy.tunnels.map((tunnel) => tunnel.target)).toEqual([new URL(base).host]);
		expect(reached).toHaveLength(1);
	});
});

describe('a proxy n8n’s requests cannot go through', () => {
	it.each(paths)(
		'%s is refused before any request, naming the setting and what is supported',
		async (_path, env, send) => {
			for (const [variable, scheme] of [
				['HTTPS_PROXY', 'socks5'],
				['ALL_PROXY', 'socks'],
				['https_proxy', 'socks5h'],
				['all_proxy', 'socks4'],
			]) {
				for (const name of VARIABLES) delete process.env[name];
				Object.assign(process.env, env, {
					[variable]: `${scheme}://n8n:s3cret@127.0.0.1:${socksPort}`,
				});
				const error = (await send().catch((caught: Error) => caught)) as Error & {
					description?: string;
					kind?: string;
				};
				expect(error).toBeInstanceOf(Error);
				expect(error.message).toBe(
					`The proxy in ${variable} (${scheme}://127.0.0.1:${socksPort}) is not an http:// or https:// proxy, which is all n8n's requests go through`,
				);
				expect(error.description).toBe(
					`Set ${variable} in n8n's environment to an http://host:port or https://host:port proxy (user name and password as http://user:password@host:port), or list localhost in NO_PROXY to reach the service directly, then restart n8n. Nothing was sent.`,
				);
				expect(error.kind).toBe('input');
				expect(JSON.stringify({ ...error, message: error.message })).not.toMatch(/s3cret/);
				if (_path.includes('write') || _path.includes('upload'))
					expect(outcomeOf(error)).toBe('not-applied');
			}
			expect(socksConnections).toBe(0);
			expect(reached).toEqual([]);
		},
	);

	it('a proxy URL that does not parse is refused, without repeating it', async () => {
		process.env.HTTPS_PROXY = 'http://n8n:s3cret@[proxy';
		const error = (await apiRequest(context(), call(false)).catch(
			(caught: Error) => caught,
		)) as Error & {
			description?: string;
		};
		expect(error.message).toBe('The proxy URL in HTTPS_PROXY is not a valid URL');
		expect(error.description).toMatch(
			/^Set HTTPS_PROXY in n8n's environment to an http:\/\/host:port/,
		);
		expect(`${error.message} ${error.description}`).not.toMatch(/s3cret/);
		expect(reached).toEqual([]);
	});

	it('a host NO_PROXY lists is reached directly: no proxy is in its way', async () => {
		Object.assign(process.env, {
			HTTPS_PROXY: `socks5://127.0.0.1:${socksPort}`,
			NO_PROXY: 'localhost',
		});
		await apiRequest(context(), call(false));
		expect(reached).toHaveLength(1);
		expect(socksConnections).toBe(0);
	});
});
