// Proxies as n8n 2.41 honours them (proxy-from-env's rule behind its global proxy agents), on every path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { IExecuteFunctions } from 'n8n-workflow';

import { proxyFor, proxySettingFor, proxySpoken } from '../../../nodes/shared/transport/proxy';
import { keptAlivePath, transferPath } from '../../../nodes/shared/transport/binary-mode';
import { downloadFile } from '../../../nodes/shared/storage/download';

describe('which proxy a request goes through (proxyFor)', () => {
	const proxy = 'http://proxy.example:3128';
	it.each<[string, Record<string, string>, string, string | undefined]>([
		['ALL_PROXY alone, http', { ALL_PROXY: proxy }, 'http://api.example/x', proxy],
		['ALL_PROXY alone, https', { all_proxy: proxy }, 'https://api.example/x', proxy],
		[
			'the scheme’s own first',
			{ HTTPS_PROXY: 'http://s:1', ALL_PROXY: proxy },
			'https://a.example',
			'http://s:1',
		],
		['HTTP_PROXY not for https', { HTTP_PROXY: proxy }, 'https://api.example/x', undefined],
		[
			'lower case before upper',
			{ https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:1' },
			'https://a.example',
			'http://low:1',
		],
		[
			'a proxy without scheme',
			{ HTTPS_PROXY: 'proxy.example:3128' },
			'https://a.example',
			'https://proxy.example:3128',
		],
		[
			'NO_PROXY host',
			{ HTTPS_PROXY: proxy, NO_PROXY: 'api.example' },
			'https://api.example/x',
			undefined,
		],
		[
			'no_proxy suffix',
			{ HTTPS_PROXY: proxy, no_proxy: '.example' },
			'https://api.example/x',
			undefined,
		],
		[
			'NO_PROXY *.suffix',
			{ HTTPS_PROXY: proxy, NO_PROXY: '*.example' },
			'https://api.example/x',
			undefined,
		],
		[
			'NO_PROXY other port',
			{ HTTPS_PROXY: proxy, NO_PROXY: 'api.example:8443' },
			'https://api.example/x',
			proxy,
		],
		[
			'NO_PROXY same port',
			{ HTTPS_PROXY: proxy, NO_PROXY: 'api.example:443' },
			'https://api.example/x',
			undefined,
		],
		['NO_PROXY *', { ALL_PROXY: proxy, NO_PROXY: '*' }, 'https://api.example/x', undefined],
		[
			'NO_PROXY another host',
			{ ALL_PROXY: proxy, NO_PROXY: 'other.example' },
			'https://api.example/x',
			proxy,
		],
		// n8n installs its proxy agents only when HTTP(S)_PROXY or ALL_PROXY is set.
		[
			'npm_config_https_proxy alone',
			{ npm_config_https_proxy: proxy },
			'https://a.example',
			undefined,
		],
	])('%s', (_case, env, url, expected) => {
		expect(proxyFor(url, env)).toBe(expected);
	});

	it('sends every path with a proxy configured through the paths that honour it', () => {
		const env = { ALL_PROXY: 'http://proxy.example:3128' };
		// Calls through undici's proxy agent (proxied-calls.test.ts), transfers through n8n's helper.
		expect(keptAlivePath(env)).toBe('own connections');
		expect(transferPath('upload', env)).toBe('helper');
		expect(transferPath('download', env, ['node', 'n8n', 'start'])).toBe('helper');
	});

	// Any other proxy is refused before any request (proxy-kinds.test.ts): no path goes around it.
	it('speaks http and https proxies only', () => {
		expect(proxySpoken('http://user:pass@proxy.example:3128')).toBe(true);
		expect(proxySpoken('https://proxy.example:3128')).toBe(true);
		for (const proxy of [
			'socks5://proxy.example:1080',
			'socks://proxy.example:1080',
			'http://[bad',
		])
			expect(proxySpoken(proxy)).toBe(false);
	});

	it('names the variable that set the proxy, in its case', () => {
		expect(
			proxySettingFor('https://a.example', { https_proxy: 'p:1', ALL_PROXY: 'http://q:2' }),
		).toEqual({
			proxy: 'https://p:1',
			variable: 'https_proxy',
		});
		expect(
			proxySettingFor('https://a.example', { HTTP_PROXY: 'http://h:1', ALL_PROXY: 'socks5://q:2' }),
		).toEqual({
			proxy: 'socks5://q:2',
			variable: 'ALL_PROXY',
		});
	});
});

// n8n's helper honours the proxy by n8n's global agents (installed when n8n starts, so not in this process):
// what the pack must do is hand the download to it and open no connection of its own.
describe('a download with only ALL_PROXY set', () => {
	let target: Server;
	const seen: string[] = [];
	const saved = { ...process.env };

	beforeAll(async () => {
		target = createServer((req, res) => {
			seen.push(`${req.method} ${req.url}`);
			req.resume();
			req.on('end', () => res.writeHead(200, { 'content-length': 5 }).end('hello'));
		});
		await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		process.env = saved;
		target.closeAllConnections();
		await new Promise((resolve) => target.close(resolve));
	});

	it('goes through n8n’s request helper, which applies n8n’s proxy agents', async () => {
		for (const name of [
			'HTTP_PROXY',
			'HTTPS_PROXY',
			'http_proxy',
			'https_proxy',
			'NO_PROXY',
			'no_proxy',
		])
			delete process.env[name];
		delete process.env.CLOUD_STORAGE_WORKER_TRANSFERS;
		process.env.ALL_PROXY = 'http://proxy.invalid:3128';
		const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
		const helped: string[] = [];
		const ctx = {
			getNode: () => ({ name: 'Cloud Storage', type: 'cloudStorage', typeVersion: 1 }),
			getNodeParameter: (_name: string, _item: number, fallback: unknown) => fallback,
			getInputData: () => [{ json: {} }],
			getExecutionCancelSignal: () => undefined,
			helpers: {
				// Stands in for n8n's helper with the proxy: answers without touching the target.
				httpRequest: async (options: { url: string }) => {
					helped.push(options.url);
					return {
						statusCode: 200,
						headers: { 'content-length': '5' },
						body: Readable.from([Buffer.from('hello')]),
					};
				},
				prepareBinaryData: async (data: Readable, fileName: string) => {
					const bytes = Buffer.concat(await data.toArray()).length;
					return { data: '', fileName, mimeType: 'application/octet-stream', bytes };
				},
			},
		} as unknown as IExecuteFunctions;
		const result = await downloadFile(ctx, { baseUrl: base, webUrl: base }, 'H', {
			fileName: 'f.bin',
		});
		expect(result).toMatchObject({ bytes: 5 });
		expect(helped).toEqual([`${base}/api_v2/download_file`]);
		expect(seen).toEqual([]);
	});
});
