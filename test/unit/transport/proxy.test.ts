// Proxies as n8n 2.41 honours them (proxy-from-env's rule behind its global proxy agents), on every path.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { proxyFor } from '../../../nodes/shared/transport/proxy';
import {
	diskDownloadPath,
	diskUploadPath,
	keptAlivePath,
} from '../../../nodes/shared/transport/binary-mode';
import {
	sendDownloadInWorker,
	type WorkerFileBody,
} from '../../../nodes/shared/transport/worker-download';
import { AnswerTimeoutError } from '../../../nodes/shared/transport/timeout';

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
		expect(keptAlivePath(env)).toBe('helper');
		expect(diskUploadPath(env)).toBe('helper');
		expect(diskDownloadPath(env, ['node', 'n8n', 'start'])).toBe('worker thread');
	});
});

describe('the worker download with only ALL_PROXY set', () => {
	let target: Server;
	let proxy: Server;
	const seen: string[] = [];
	const dir = mkdtempSync(join(tmpdir(), 'proxy-test-'));
	const saved = { ...process.env };

	beforeAll(async () => {
		target = createServer((req, res) => {
			req.resume();
			req.on('end', () => res.writeHead(200, { 'content-length': 5 }).end('hello'));
		});
		// A forwarding proxy: requests in absolute form, passed on as they came.
		proxy = createServer((req: IncomingMessage, res) => {
			seen.push(`${req.method} ${req.url}`);
			const onward = request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			});
			req.pipe(onward);
		});
		await Promise.all(
			[target, proxy].map(
				(server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
			),
		);
	});
	afterAll(async () => {
		process.env = saved;
		for (const server of [target, proxy]) {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
		rmSync(dir, { recursive: true, force: true });
	});

	it('goes through the proxy, as n8n’s own requests would', async () => {
		for (const name of [
			'HTTP_PROXY',
			'HTTPS_PROXY',
			'http_proxy',
			'https_proxy',
			'NO_PROXY',
			'no_proxy',
		])
			delete process.env[name];
		process.env.ALL_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
		const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/api_v2/download_file`;
		const response = await sendDownloadInWorker(
			url,
			new URLSearchParams({ file_hash: 'H' }),
			{ via: 'worker thread', directory: dir },
			{},
			5000,
			1024,
		);
		if (response instanceof AnswerTimeoutError) throw response;
		const body = response.body as WorkerFileBody;
		expect(await body.stored).toBe(5);
		expect(readFileSync(body.path, 'utf8')).toBe('hello');
		await body.dispose();
		expect(seen).toEqual([`POST ${url}`]);
	});
});
