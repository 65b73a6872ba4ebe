// The transport's calls behind a proxy (undici's proxy agent), against a real forwarding proxy on loopback
// (`proxy-fixture.ts`) that counts the connections clients open to it: reads keep theirs, writes open their own,
// http targets are forwarded with absolute URIs, https targets tunnelled with CONNECT; the proxy's credentials
// travel as Proxy-Authorization and never into an error; a proxy that refuses or stalls gives an error naming it.
// Proxy settings are read from the environment per request, as n8n reads them. Timers are driven, never slept.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import tls from 'node:tls';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { RawAnswer } from '../../../nodes/shared/transport/body';
import { sendCall } from '../../../nodes/shared/transport/calls';
import { backoff } from '../../../nodes/shared/transport/around-send';
import { apiRequest } from '../../../nodes/shared/transport/request';
import { formBody } from '../../../nodes/shared/transport/request-types';
import { AnswerTimeoutError } from '../../../nodes/shared/transport/timeout';
import { classifyFailure } from '../../../nodes/shared/transport/failures';
import { outcomeOf } from '../../../nodes/shared/errors/outcome';
import { startProxy, type ProxyFixture } from './proxy-fixture';
import { hangGuard } from '../hang-guard';

const certificate = readFileSync(join(__dirname, 'fixtures/loopback-cert.pem'), 'utf8');
const key = readFileSync(join(__dirname, 'fixtures/loopback-key.pem'));
const defaults = tls.getCACertificates('default');

const PROXY_VARIABLES = [
	'HTTP_PROXY',
	'HTTPS_PROXY',
	'ALL_PROXY',
	'NO_PROXY',
	'http_proxy',
	'https_proxy',
	'all_proxy',
	'no_proxy',
	'npm_config_http_proxy',
	'npm_config_https_proxy',
	'npm_config_proxy',
	'npm_config_no_proxy',
	'N8N_SSRF_PROTECTION_ENABLED',
	'CLOUD_STORAGE_KEEP_ALIVE',
];
const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));

interface Seen {
	url?: string;
	headers: IncomingMessage['headers'];
	connection: number;
}

/** A service: plain http or https (the loopback certificate, trusted here), counting its connections. */
async function startTarget(secure: boolean) {
	const seen: Seen[] = [];
	let connections = 0;
	const sockets = new Set<Socket>();
	const numbers = new WeakMap<Socket, number>();
	const handler = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
		req.resume();
		req.on('end', () => {
			seen.push({ url: req.url, headers: req.headers, connection: numbers.get(req.socket) ?? 0 });
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ ok: true }));
		});
	};
	const server: Server = secure
		? createHttpsServer({ cert: certificate, key }, handler)
		: createServer(handler);
	server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
		numbers.set(socket, ++connections);
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: secure ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
		seen,
		connections: () => connections,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
type Target = Awaited<ReturnType<typeof startTarget>>;

let proxy: ProxyFixture;
let plain: Target;
let secure: Target;

beforeAll(() => tls.setDefaultCACertificates([...defaults, certificate]));
afterAll(() => tls.setDefaultCACertificates(defaults));

// A proxy and services of their own per test (new addresses): pools an earlier test left are not counted here.
beforeEach(async () => {
	for (const name of PROXY_VARIABLES) delete process.env[name];
	proxy = await startProxy();
	plain = await startTarget(false);
	secure = await startTarget(true);
});
afterEach(async () => {
	for (const [name, value] of Object.entries(saved))
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	await proxy.close();
	await plain.close();
	await secure.close();
});

async function text(response: RawAnswer | AnswerTimeoutError): Promise<string> {
	if (response instanceof AnswerTimeoutError) throw response;
	const chunks: Buffer[] = [];
	for await (const chunk of response.body) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString();
}

/** Waits on events only (each turn lets I/O run), never on the clock. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** No limit where none is tested: a loaded machine's pauses never end a call (the Timeout's own tests drive it). */
const read = { method: 'POST', headers: {}, reuse: true, timeoutMs: 0, body: 'file_hash=H' };
const write = { ...read, reuse: false };

describe('an http service behind an http proxy', () => {
	it('sends reads over one kept connection to the proxy, as absolute-URI requests (no CONNECT)', async () => {
		process.env.HTTP_PROXY = proxy.url;
		for (let i = 0; i < 5; i++)
			expect(await text(await sendCall(`${plain.url}/api_v2/get_file_info`, read))).toBe(
				'{"ok":true}',
			);
		expect(proxy.connections()).toBe(1);
		expect(proxy.tunnels).toEqual([]);
		expect(proxy.forwarded.map((request) => request.url)).toEqual(
			Array(5).fill(`${plain.url}/api_v2/get_file_info`),
		);
		expect(plain.seen).toHaveLength(5);
	});

	it('sends each write on a connection of its own to the proxy, which it tells to close', async () => {
		process.env.HTTP_PROXY = proxy.url;
		await text(await sendCall(`${plain.url}/api_v2/get_file_info`, read));
		for (let i = 0; i < 3; i++)
			await text(await sendCall(`${plain.url}/api_v2/rename_file`, write));
		expect(proxy.connections()).toBe(4);
		// Each write's connection closed after its answer; the reads' one is kept.
		await until(() => proxy.closed() === 3);
		expect(proxy.forwarded.map((request) => [request.on, request.connection])).toEqual([
			[1, 'keep-alive'],
			[2, 'close'],
			[3, 'close'],
			[4, 'close'],
		]);
		// The reads' connection is still kept: the next read takes it.
		await text(await sendCall(`${plain.url}/api_v2/get_file_info`, read));
		expect(proxy.connections()).toBe(4);
		expect(proxy.forwarded[4].on).toBe(1);
	});

	it('honours ALL_PROXY alone', async () => {
		process.env.ALL_PROXY = proxy.url;
		await text(await sendCall(`${plain.url}/a`, read));
		expect(proxy.forwarded.map((request) => request.url)).toEqual([`${plain.url}/a`]);
	});

	it('goes directly to a host NO_PROXY names, and to no proxy for an https service with HTTP_PROXY alone', async () => {
		process.env.HTTP_PROXY = proxy.url;
		process.env.NO_PROXY = 'localhost,127.0.0.1';
		await text(await sendCall(`${plain.url}/a`, read));
		delete process.env.NO_PROXY;
		await text(await sendCall(`${secure.url}/b`, read));
		expect(proxy.connections()).toBe(0);
		expect(plain.seen.map((request) => request.url)).toEqual(['/a']);
		expect(secure.seen.map((request) => request.url)).toEqual(['/b']);
	});

	it('sends the credentials of the proxy URL as Proxy-Authorization, to the proxy only', async () => {
		process.env.HTTP_PROXY = `http://n8n:s%40cret@127.0.0.1:${proxy.port}`;
		proxy.requireCredentials('n8n:s@cret');
		await text(await sendCall(`${plain.url}/a`, read));
		await text(await sendCall(`${plain.url}/b`, write));
		const expected = `Basic ${Buffer.from('n8n:s@cret').toString('base64')}`;
		expect(proxy.forwarded.map((request) => request.proxyAuthorization)).toEqual([
			expected,
			expected,
		]);
		expect(plain.seen.map((request) => request.headers['proxy-authorization'])).toEqual([
			undefined,
			undefined,
		]);
	});
});

describe('an https service behind an http proxy', () => {
	it('tunnels reads through one CONNECT, kept for the next ones', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		for (let i = 0; i < 5; i++)
			expect(await text(await sendCall(`${secure.url}/api_v2/get_file_info`, read))).toBe(
				'{"ok":true}',
			);
		expect(proxy.connections()).toBe(1);
		expect(proxy.tunnels.map((tunnel) => tunnel.target)).toEqual([
			`localhost:${new URL(secure.url).port}`,
		]);
		expect(proxy.forwarded).toEqual([]);
		expect(secure.connections()).toBe(1);
		expect(secure.seen).toHaveLength(5);
	});

	it('sends each write through a tunnel of its own, so on a new connection to the service', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		await text(await sendCall(`${secure.url}/api_v2/get_file_info`, read));
		for (let i = 0; i < 3; i++)
			await text(await sendCall(`${secure.url}/api_v2/rename_file`, write));
		expect(proxy.tunnels).toHaveLength(4);
		expect(proxy.connections()).toBe(4);
		// Each write's tunnel closed after its answer; the reads' one is kept.
		await until(() => proxy.closed() === 3);
		expect(secure.seen.map((request) => [request.connection, request.headers.connection])).toEqual([
			[1, 'keep-alive'],
			[2, 'close'],
			[3, 'close'],
			[4, 'close'],
		]);
		await text(await sendCall(`${secure.url}/api_v2/get_file_info`, read));
		expect(proxy.tunnels).toHaveLength(4);
		expect(secure.seen[4].connection).toBe(1);
	});

	it('sends the proxy credentials on CONNECT only, never inside the tunnel', async () => {
		process.env.HTTPS_PROXY = `http://n8n:s%40cret@127.0.0.1:${proxy.port}`;
		proxy.requireCredentials('n8n:s@cret');
		await text(await sendCall(`${secure.url}/a`, read));
		expect(proxy.tunnels[0].proxyAuthorization).toBe(
			`Basic ${Buffer.from('n8n:s@cret').toString('base64')}`,
		);
		expect(secure.seen[0].headers['proxy-authorization']).toBeUndefined();
	});
});

describe('an https proxy (TLS to the proxy, as a proxy URL without scheme means for an https service)', () => {
	it('tunnels reads through one kept connection to it, and each write through a tunnel of its own', async () => {
		const secureProxy = await startProxy({ cert: certificate, key });
		try {
			process.env.HTTPS_PROXY = secureProxy.url;
			for (let i = 0; i < 3; i++) await text(await sendCall(`${secure.url}/a`, read));
			await text(await sendCall(`${secure.url}/b`, write));
			expect(secureProxy.connections()).toBe(2);
			expect(secureProxy.tunnels.map((tunnel) => tunnel.on)).toEqual([1, 2]);
			expect(secure.seen.map((request) => request.connection)).toEqual([1, 1, 1, 2]);
		} finally {
			await secureProxy.close();
		}
	});
});

/**
 * n8n's context as apiRequest needs it; n8n's helper must not be called (it would bypass the proxy here). By
 * default a Timeout far beyond any test's: only a test that drives the clock meets it.
 */
function context(timeoutS = 3600): IExecuteFunctions {
	return {
		getNode: () => ({
			name: 'Cloud Storage',
			type: 'cloudStorage',
			typeVersion: 1,
			parameters: {},
		}),
		getNodeParameter: (name: string, _item: number, fallback: unknown) =>
			name === 'requestOptions.timeout' ? timeoutS : fallback,
		getInputData: () => [{ json: {} }],
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequest: () => {
				throw new Error("n8n's helper was called");
			},
		},
	} as unknown as IExecuteFunctions;
}

const RETRY = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 };

async function failureOf(url: string, write = false): Promise<Error & { description?: string }> {
	return await apiRequest(context(), {
		api: 'v2',
		url,
		method: 'POST',
		body: formBody({ file_hash: 'H' }),
		write: write ? {} : undefined,
		itemIndex: 0,
		retry: RETRY,
	}).then(
		() => {
			throw new Error('the request succeeded');
		},
		(error: Error) => error,
	);
}

/** Neither the password nor the credentials' encoding anywhere in what the error carries. */
function expectNoSecret(error: Error & { description?: string }): void {
	const everything = JSON.stringify({
		message: error.message,
		description: error.description,
		stack: error.stack,
		error,
	});
	expect(everything).not.toMatch(/s%40cret|s@cret|wrong-password/);
	expect(everything).not.toContain(Buffer.from('n8n:wrong-password').toString('base64'));
}

describe('a proxy that refuses', () => {
	it.each([
		['http service (forwarded)', () => plain.url, 'HTTP_PROXY'],
		['https service (CONNECT)', () => secure.url, 'HTTPS_PROXY'],
	])(
		'names the proxy and its credentials on a 407, without them, and does not repeat: %s',
		async (_case, base, variable) => {
			process.env[variable] = `http://n8n:wrong-password@127.0.0.1:${proxy.port}`;
			proxy.requireCredentials('n8n:right');
			const error = await failureOf(`${base()}/api_v2/get_file_info`);
			expect(error.message).toBe(
				`The proxy http://127.0.0.1:${proxy.port} refused the user name and password in its URL (407 Proxy Authentication Required)`,
			);
			expect(error.description).toMatch(/HTTPS_PROXY, HTTP_PROXY or ALL_PROXY/);
			expect(error.description).toMatch(/http:\/\/user:password@host:port/);
			expect(error.description).toMatch(/Nothing reached the service\.$/);
			expectNoSecret(error);
			expect(proxy.forwarded.length + proxy.tunnels.length).toBe(1);
			expect(plain.seen.length + secure.seen.length).toBe(0);
		},
	);

	it('says the proxy wants credentials when its URL has none', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		proxy.requireCredentials('n8n:right');
		const error = await failureOf(`${secure.url}/x`);
		expect(error.message).toBe(
			`The proxy ${proxy.url} requires a user name and password (407 Proxy Authentication Required)`,
		);
	});

	it('names a CONNECT refused by the proxy’s rules (403), not repeated', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		proxy.refuseTunnels(403);
		const error = await failureOf(`${secure.url}/x`);
		const host = new URL(secure.url).host;
		expect(error.message).toBe(`The proxy ${proxy.url} refused to connect to ${host} (403)`);
		expect(error.description).toMatch(/have the proxy allow .*, or list localhost in NO_PROXY/);
		expect(proxy.tunnels).toHaveLength(1);
	});

	it('names a proxy that could not reach the service (502 to CONNECT), and tries a write again: nothing was sent', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		proxy.refuseTunnels(502);
		const error = await failureOf(`${secure.url}/x`, true);
		expect(error.message).toBe(
			`The proxy ${proxy.url} could not reach ${new URL(secure.url).host} (502)`,
		);
		expect(error.message).not.toMatch(/may have been applied/);
		expect(proxy.tunnels).toHaveLength(RETRY.maxAttempts);
		expect(secure.seen).toHaveLength(0);
	});

	it('names a proxy that refuses connections, without its credentials', async () => {
		const closed = createNetServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		for (const [variable, base] of [
			['HTTP_PROXY', plain.url],
			['HTTPS_PROXY', secure.url],
		]) {
			process.env[variable] = `http://n8n:wrong-password@127.0.0.1:${port}`;
			const error = await failureOf(`${base}/x`, true);
			expect(error.message).toBe(
				`Could not reach the proxy http://127.0.0.1:${port}: it refused the connection`,
			);
			expect(error.description).toMatch(
				/n8n's proxy settings \(HTTPS_PROXY, HTTP_PROXY or ALL_PROXY in its environment\) send the requests for .* through this proxy/,
			);
			expectNoSecret(error);
		}
		expect(plain.seen.length + secure.seen.length).toBe(0);
	});

	it('classifies a refusing proxy as the proxy’s failure', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		proxy.refuseTunnels(403);
		const error = await sendCall(`${secure.url}/x`, read).catch((caught: Error) => caught);
		expect(classifyFailure(error)).toEqual({ kind: 'proxy', code: 'PROXY_403' });
	});
});

describe('a proxy that stalls (driven clock)', () => {
	it.each([
		['a CONNECT never answered', () => secure.url, 'HTTPS_PROXY', 'proxy'],
		['a forwarded request never answered', () => plain.url, 'HTTP_PROXY', 'timeout'],
	])(
		'%s: the read ends after the node’s Timeout, and the next read, once the proxy answers, gets through',
		async (_case, base, variable, kind) => {
			process.env[variable] = proxy.url;
			jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
			try {
				let held!: () => void;
				const holding = new Promise<void>((resolve) => (held = resolve));
				proxy.stall(true, () => held());
				const pending = sendCall(`${base()}/x`, { ...read, timeoutMs: 300 }).catch(
					(error: Error) => error,
				);
				await holding;
				jest.advanceTimersByTime(300);
				const outcome = await pending;
				// Unanswered CONNECT: the proxy's silence, nothing sent. A forwarded request reached the proxy, which
				// may have passed it on: the silence may be the service's.
				if (kind === 'timeout') expect(outcome).toBeInstanceOf(AnswerTimeoutError);
				expect(classifyFailure(outcome)).toMatchObject({ kind });
			} finally {
				jest.useRealTimers();
			}
			proxy.stall(false);
			expect(await text(await sendCall(`${base()}/y`, read))).toBe('{"ok":true}');
		},
	);

	// The read waits for the tunnel as a write does: nothing was sent, the proxy (not the service) is silent. It had
	// the whole Timeout: asked again, a proxy that never answers would only cost another Timeout per attempt.
	it('through apiRequest: a read whose CONNECT is never answered names the proxy, asked once', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
		const wait = jest.spyOn(backoff, 'wait').mockResolvedValue(undefined);
		try {
			let stalls = 0;
			proxy.stall(true, () => stalls++);
			let settled = false;
			const pending = apiRequest(context(1), {
				api: 'v2',
				url: `${secure.url}/x`,
				method: 'POST',
				body: formBody({ file_hash: 'H' }),
				itemIndex: 0,
				retry: { maxAttempts: 2 },
			})
				.catch((error: Error) => error)
				.finally(() => (settled = true));
			await until(() => stalls === 1);
			jest.advanceTimersByTime(1000);
			// Asked again (the old way), the second attempt stalls too: its Timeout passes as well.
			await until(() => settled || stalls === 2);
			if (!settled) jest.advanceTimersByTime(1000);
			const error = (await pending) as Error & { description?: string };
			expect(error.message).toBe(
				`The proxy ${proxy.url} did not open the connection to ${new URL(secure.url).host} within the node's Timeout`,
			);
			expect(error.description).toMatch(/HTTPS_PROXY, HTTP_PROXY or ALL_PROXY/);
			expect(error.description).toMatch(/Nothing reached the service\.$/);
			expect(stalls).toBe(1);
		} finally {
			wait.mockRestore();
			jest.useRealTimers();
		}
		// The pool's connection to the proxy, its CONNECT unanswered, is closed; the next read gets through.
		const began = performance.now();
		await until(() => proxy.closed() === proxy.connections() || performance.now() - began > 5000);
		expect(proxy.closed()).toBe(proxy.connections());
		proxy.stall(false);
		expect(await text(await sendCall(`${secure.url}/y`, read))).toBe('{"ok":true}');
	});

	// The request goes through the tunnel only once the proxy opened it: a write waiting for it sent nothing.
	it('through apiRequest: a write whose CONNECT is never answered names the proxy, as not sent, and closes its connection to it', async () => {
		process.env.HTTPS_PROXY = proxy.url;
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
		try {
			let stalls = 0;
			proxy.stall(true, () => stalls++);
			const pending = apiRequest(context(1), {
				api: 'v2',
				url: `${secure.url}/api_v2/rename_file`,
				method: 'POST',
				body: formBody({ file_hash: 'H', name: 'b.txt' }),
				write: {},
				itemIndex: 0,
				retry: { maxAttempts: 1 },
			}).catch((error: Error) => error);
			await until(() => stalls === 1);
			jest.advanceTimersByTime(1000);
			const error = (await pending) as Error & { description?: string };
			expect(error.message).toBe(
				`The proxy ${proxy.url} did not open the connection to ${new URL(secure.url).host} within the node's Timeout`,
			);
			expect(error.description).toMatch(/Nothing reached the service\.$/);
			expect(outcomeOf(error)).toBe('not-applied');
		} finally {
			jest.useRealTimers();
		}
		// Waits on I/O only; the guard just ends a wait that would otherwise hang.
		const hung = hangGuard(5000);
		await until(() => proxy.closed() === proxy.connections() || hung());
		expect(proxy.closed()).toBe(proxy.connections());
		expect(secure.seen).toHaveLength(0);
	});
});
