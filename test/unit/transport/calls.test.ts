// The transport's own connections for calls (everything but file transfers, undici), against real loopback
// servers: Node's HTTP server, and a raw socket server for a connection the server drops as it is reused.
// Through n8n's engine too: items of one node run share one connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

import type { RawAnswer } from '../../../nodes/shared/transport/body';
import { sendCall } from '../../../nodes/shared/transport/calls';
import { AnswerTimeoutError } from '../../../nodes/shared/transport/timeout';
import { classifyFailure } from '../../../nodes/shared/transport/failures';
import { chain, PACKAGE_NAME, runWorkflow } from '../../engine/harness';

let server: Server;
let url: string;
let connections: number;
/** Connections the server has seen closed since the test began. */
let closed: number;
let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void;
const seen: Array<{
	method?: string;
	url?: string;
	headers: IncomingMessage['headers'];
	body: string;
}> = [];

// A server of its own per test (a new origin): connections an earlier test left in the pool are not counted
// against this one, nor closed under it.
beforeEach(async () => {
	connections = 0;
	closed = 0;
	seen.length = 0;
	answer = (_req, res) => res.end(JSON.stringify({ ok: true }));
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString();
			seen.push({ method: req.method, url: req.url, headers: req.headers, body });
			answer(req, res, body);
		});
	});
	server.on('connection', (socket: Socket) => {
		connections++;
		socket.once('close', () => closed++);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
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
const read = { method: 'POST', headers: {}, reuse: true, timeoutMs: 0 };

it('sends reads one after another over one connection, and each write on a connection of its own', async () => {
	for (let i = 0; i < 5; i++)
		expect(await text(await sendCall(`${url}/api_v2/get_file_info`, read))).toBe('{"ok":true}');
	expect(connections).toBe(1);
	// The reads' connection is idle and kept: a write still never takes it.
	for (let i = 0; i < 3; i++)
		await text(await sendCall(`${url}/api_v2/rename_file`, { ...read, reuse: false }));
	expect(connections).toBe(4);
	// Each write's connection was closed after its answer (the server was told so), the reads' one kept.
	await until(() => closed === 3);
	expect(seen.slice(5).map((request) => request.headers.connection)).toEqual(
		Array(3).fill('close'),
	);
	expect(await text(await sendCall(`${url}/api_v2/get_file_info`, read))).toBe('{"ok":true}');
	expect(connections).toBe(4);
});

it('opens a new connection for the next read when the server keeps idle ones for a second or less', async () => {
	answer = (_req, res) => {
		res.setHeader('keep-alive', 'timeout=1');
		res.end('{}');
	};
	await text(await sendCall(`${url}/a`, read));
	await text(await sendCall(`${url}/b`, read));
	expect(connections).toBe(2);
});

it('never makes a call wait for another to end: 40 held at once all reach the server', async () => {
	const held: ServerResponse[] = [];
	answer = (_req, res) => {
		held.push(res);
		// Answered only once all 40 are in: a pool that queued some would never get there.
		if (held.length === 40) for (const waiting of held) waiting.end('{}');
	};
	const answers = await Promise.all(
		Array.from({ length: 40 }, async () => await text(await sendCall(`${url}/x`, read))),
	);
	expect(answers).toEqual(Array(40).fill('{}'));
});

it('sends the body with its length and the given headers, and nothing in the URL that was not given', async () => {
	await text(
		await sendCall(`${url}/api_v2/get_file_info`, {
			...read,
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'file_hash=H&user=demo&user_access_token=secret',
		}),
	);
	expect(seen[0]).toMatchObject({
		method: 'POST',
		url: '/api_v2/get_file_info',
		body: 'file_hash=H&user=demo&user_access_token=secret',
	});
	expect(seen[0].headers['content-length']).toBe('46');
});

it('inflates gzip, deflate and br answers, as n8n’s helper does', async () => {
	const payload = JSON.stringify({ name: 'x'.repeat(5000) });
	for (const [encoding, compress] of [
		['gzip', gzipSync],
		['deflate', deflateSync],
		['br', brotliCompressSync],
	] as const) {
		answer = (_req, res) => {
			res.writeHead(200, { 'content-encoding': encoding });
			res.end(compress(Buffer.from(payload)));
		};
		expect(await text(await sendCall(`${url}/x`, read))).toBe(payload);
	}
	// The connection went back to the pool after each inflated answer.
	expect(connections).toBe(1);
});

it('gives up on an answer that does not come in time (controlled clock), and stops the request', async () => {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	try {
		let arrived!: () => void;
		const waiting = new Promise<void>((resolve) => (arrived = resolve));
		let closed!: Promise<void>;
		answer = (req) => {
			closed = new Promise((resolve) => req.socket.once('close', resolve));
			arrived();
		};
		const pending = sendCall(`${url}/slow`, { ...read, timeoutMs: 300 });
		await waiting;
		jest.advanceTimersByTime(300);
		const outcome = await pending;
		expect(outcome).toBeInstanceOf(AnswerTimeoutError);
		expect(classifyFailure(outcome).kind).toBe('timeout');
		// The server sees the connection end: the request is not left running.
		await closed;
	} finally {
		jest.useRealTimers();
	}
});

it('limits silence in the body, not its length: a body that keeps coming is never cut, one that stops fails its read', async () => {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	try {
		let response!: ServerResponse;
		answer = (_req, res) => {
			response = res;
			res.writeHead(200, { 'content-length': 10 });
			res.write('a');
		};
		const outcome = await sendCall(`${url}/slow-body`, { ...read, timeoutMs: 300 });
		if (outcome instanceof AnswerTimeoutError) throw outcome;
		let received = '';
		outcome.body.on('data', (chunk: Buffer) => (received += chunk.toString()));
		const failed = new Promise<Error>((resolve) => outcome.body.once('error', resolve));
		await until(() => received === 'a');
		// Seven more pieces, each after 250 ms of silence: 1.75 s in all, far beyond the 300 ms Timeout.
		for (const piece of 'bcdefgh') {
			jest.advanceTimersByTime(250);
			response.write(piece);
			await until(() => received.endsWith(piece));
		}
		expect(received).toBe('abcdefgh');
		// Then silence: 300 ms of it fail the read, naming the Timeout.
		jest.advanceTimersByTime(300);
		const error = await failed;
		expect(error.message).toBe("no data arrived for 0.3 s (the node's Timeout)");
		expect(classifyFailure(error).kind).toBe('timeout');
	} finally {
		jest.useRealTimers();
	}
});

it('stops when the execution is cancelled, with n8n’s cancellation', async () => {
	const cancel = new AbortController();
	answer = () => cancel.abort();
	await expect(sendCall(`${url}/x`, { ...read, cancel: cancel.signal })).rejects.toMatchObject({
		name: 'AbortError',
		code: 'ERR_CANCELED',
	});
	cancel.abort();
	await expect(sendCall(`${url}/x`, { ...read, cancel: cancel.signal })).rejects.toMatchObject({
		code: 'ERR_CANCELED',
	});
});

it('stops reading the body when the execution is cancelled mid-answer, and closes the connection', async () => {
	const cancel = new AbortController();
	answer = (_req, res) => {
		res.writeHead(200, { 'content-length': 10 });
		res.write('abc');
	};
	const outcome = await sendCall(`${url}/x`, { ...read, cancel: cancel.signal });
	if (outcome instanceof AnswerTimeoutError) throw outcome;
	let received = '';
	outcome.body.on('data', (chunk: Buffer) => (received += chunk.toString()));
	const failed = new Promise<Error>((resolve) => outcome.body.once('error', resolve));
	await until(() => received === 'abc');
	cancel.abort();
	expect(await failed).toMatchObject({ name: 'AbortError', code: 'ERR_CANCELED' });
	await until(() => closed === 1);
});

it('names a refused connection by its code only', async () => {
	const closed = createNetServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise((resolve) => closed.close(resolve));
	const error = await sendCall(`http://127.0.0.1:${port}/x`, read).catch((caught: Error) => caught);
	expect(error).toMatchObject({
		code: 'ECONNREFUSED',
		message: 'the request failed (ECONNREFUSED)',
	});
	expect(classifyFailure(error).kind).toBe('unreachable');
});

describe('a kept connection the server drops just as it is reused', () => {
	let raw: ReturnType<typeof createNetServer>;
	let rawUrl: string;
	let opened: number;
	const ok = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nKeep-Alive: timeout=30\r\n\r\nok';

	beforeAll(async () => {
		// Answers the first request of each connection and drops the connection at the second one's first
		// byte, as a server closing an idle connection does when a request crosses its close.
		raw = createNetServer((socket: Socket) => {
			opened++;
			let requests = 0;
			socket.on('data', (data: Buffer) => {
				if (!data.includes('\r\n\r\n')) return;
				if (++requests === 1) socket.write(ok);
				else socket.resetAndDestroy();
			});
		});
		await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
		rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => raw.close(resolve)));
	beforeEach(() => (opened = 0));

	it('sends a read again at once on a fresh connection', async () => {
		expect(await text(await sendCall(`${rawUrl}/a`, read))).toBe('ok');
		expect(await text(await sendCall(`${rawUrl}/b`, read))).toBe('ok');
		expect(opened).toBe(2);
	});
});

describe('through n8n’s engine', () => {
	it('sends the Get File Info items of one node run over one connection, authenticated in the body', async () => {
		answer = (_req, res, body) => {
			const hash = new URLSearchParams(body).get('file_hash');
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ hash, name: `${hash}.txt`, type: 'file' }));
		};
		const hashes = ['A1', 'B2', 'C3', 'D4'];
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
					{
						name: 'Items',
						type: 'engine-test.jsonItems',
						parameters: { items: hashes.map((hash) => ({ hash })) },
					},
					{
						name: 'Storage',
						type: `${PACKAGE_NAME}.cloudStorage`,
						parameters: {
							authentication: 'tokenApi',
							resource: 'file',
							operation: 'get',
							file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
						},
					},
				],
				connections: chain('Start', 'Items', 'Storage'),
			},
			{
				credentials: {
					cloudStorageTokenApi: {
						baseUrl: url,
						webUrl: url,
						user: 'demo',
						accessToken: 'token-secret-1',
					},
				},
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.nodeOutput('Storage').map((item) => item.json.hash)).toEqual(hashes);
		expect(connections).toBe(1);
		expect(seen.map((request) => new URLSearchParams(request.body).get('file_hash'))).toEqual(
			hashes,
		);
		for (const request of seen) {
			expect(request.url).toBe('/api_v2/get_file_info');
			expect(new URLSearchParams(request.body).get('user_access_token')).toBe('token-secret-1');
			expect(request.headers).toMatchObject({
				'content-type': 'application/x-www-form-urlencoded',
				'user-agent': 'n8n',
			});
			expect(Object.keys(request.headers)).not.toContain('x-n8n-cloud-storage-auth');
		}
	});
});
