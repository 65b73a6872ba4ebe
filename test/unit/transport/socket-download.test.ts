// The main-thread download that reads the answer into reused buffers, against real loopback servers: Node's
// HTTP server, and a raw socket server for framings and faults Node's server would not produce.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tls from 'node:tls';

import { sendDownloadOnSocket, SocketBody } from '../../../nodes/shared/transport/socket-exchange';
import type { RawAnswer } from '../../../nodes/shared/transport/body';
import { AnswerTimeoutError } from '../../../nodes/shared/transport/timeout';
import { classifyFailure } from '../../../nodes/shared/transport/failures';

let server: Server;
let url: string;
let received: { body: string; headers: IncomingMessage['headers']; url?: string } | undefined;
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const content = randomBytes(5 * 1024 * 1024 + 17);
const form = new URLSearchParams({ file_hash: 'H4sh' });
/** The download as the transport sends it, authenticated already (`authenticated` in request.ts). */
const download = (
	url: string,
	headers: Record<string, string>,
	timeoutMs: number,
	maxResponseBytes: number,
	cancel?: AbortSignal,
	body = form,
) => sendDownloadOnSocket({ url, headers, form: body, cancel }, timeoutMs, maxResponseBytes);
const dir = mkdtempSync(join(tmpdir(), 'socket-download-'));
/** No limit where none is tested: a loaded machine's pauses never end a transfer (the Timeout's own tests drive it). */
const UNLIMITED = 0;

function collect(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString()));
	});
}

beforeAll(async () => {
	server = createServer((req, res) => answer(req, res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api_v2/download_file`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	rmSync(dir, { recursive: true, force: true });
});

function asResponse(outcome: RawAnswer | AnswerTimeoutError): RawAnswer {
	if (outcome instanceof AnswerTimeoutError) throw outcome;
	return outcome;
}

/** Reads the body as n8n's filesystem store does: each chunk written (here: copied) before the next is asked for. */
async function consume(
	body: SocketBody,
	pause = false,
): Promise<{ bytes: Buffer; buffers: number }> {
	const copies: Buffer[] = [];
	const buffers = new Set<ArrayBufferLike>();
	for await (const chunk of body) {
		buffers.add(chunk.buffer);
		copies.push(Buffer.from(chunk));
		if (pause) await new Promise((resolve) => setImmediate(resolve));
	}
	return { bytes: Buffer.concat(copies), buffers: buffers.size };
}

/** A server that answers every request with these raw bytes, written in the given pieces. */
async function rawServer(
	pieces: Array<Buffer | string>,
	after: (socket: Socket) => void = (socket) => socket.end(),
): Promise<{ url: string; close: () => Promise<void> }> {
	const raw = createNetServer((socket) => {
		let request = Buffer.alloc(0);
		socket.on('data', (chunk: Buffer) => {
			request = Buffer.concat([request, chunk]);
			const end = request.indexOf('\r\n\r\n');
			const length = Number(/content-length: (\d+)/i.exec(request.toString('latin1'))?.[1] ?? 0);
			if (end < 0 || request.length < end + 4 + length) return;
			socket.removeAllListeners('data');
			void (async () => {
				for (const piece of pieces)
					await new Promise<void>((resolve) => socket.write(piece, () => resolve()));
				after(socket);
			})();
		});
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/api_v2/download_file`,
		close: async () => await new Promise<void>((resolve) => raw.close(() => resolve())),
	};
}

it('reads the answer byte for byte into reused buffers, sending the form and headers as given', async () => {
	answer = async (req, res) => {
		received = { body: await collect(req), headers: req.headers, url: req.url };
		res
			.writeHead(200, {
				'content-type': 'application/octet-stream',
				'content-length': content.length,
			})
			.end(content);
	};
	const response = asResponse(
		await download(
			`${url}?lang=en`,
			{ 'x-caller': 'n8n', 'x-extra': '1' },
			UNLIMITED,
			1024,
			undefined,
			new URLSearchParams([...form, ['user', 'u'], ['user_access_token', 'secret']]),
		),
	);
	expect(response.statusCode).toBe(200);
	expect(response.headers['content-length']).toBe(String(content.length));
	expect(response.body).toBeInstanceOf(SocketBody);
	const { bytes, buffers } = await consume(response.body as SocketBody, true);
	expect(bytes.equals(content)).toBe(true);
	// Two reused buffers, the head's copy, and the odd read that found both in use.
	expect(buffers).toBeLessThan(20);
	expect((response.body as SocketBody).spilled).toBeLessThan(content.length / 4);
	expect((response.body as SocketBody).bytes).toBe(content.length);
	expect(received!.url).toBe('/api_v2/download_file?lang=en');
	expect(received!.headers['x-extra']).toBe('1');
	expect(received!.headers['x-caller']).toBe('n8n');
	expect(received!.headers['content-type']).toBe('application/x-www-form-urlencoded');
	expect(received!.headers.host).toBe(new URL(url).host);
	const sent = new URLSearchParams(received!.body);
	expect(sent.get('user_access_token')).toBe('secret');
	expect(sent.get('file_hash')).toBe('H4sh');
});

it.each([
	['chunked, split inside sizes, data and line ends', chunked(content, 100_003), 997],
	[
		'chunked with extensions and a trailer',
		chunked(content, 1 << 20, ';ext=1', 'x-check: 1\r\n'),
		65_536,
	],
	['until the connection closes', Buffer.from(content), 300_001],
])('reads a body framed %s', async (name, framed, piece) => {
	const pieces: Buffer[] = [];
	for (let at = 0; at < framed.length; at += piece) pieces.push(framed.subarray(at, at + piece));
	const head = name.startsWith('until')
		? 'HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n'
		: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n';
	const raw = await rawServer([head, ...pieces]);
	try {
		const response = asResponse(await download(raw.url, {}, UNLIMITED, 1024));
		expect((await consume(response.body as SocketBody)).bytes.equals(content)).toBe(true);
	} finally {
		await raw.close();
	}
});

function chunked(data: Buffer, size: number, extension = '', trailer = ''): Buffer {
	const parts: Buffer[] = [];
	for (let at = 0; at < data.length; at += size) {
		const part = data.subarray(at, at + size);
		parts.push(
			Buffer.from(`${part.length.toString(16)}${extension}\r\n`),
			part,
			Buffer.from('\r\n'),
		);
	}
	parts.push(Buffer.from(`0\r\n${trailer}\r\n`));
	return Buffer.concat(parts);
}

it('skips interim answers and reads the head and body even when they share one read', async () => {
	const raw = await rawServer([
		'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n' +
			'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nX-A: 1\r\nX-A: 2\r\n\r\nhello',
	]);
	try {
		const response = asResponse(await download(raw.url, {}, UNLIMITED, 1024));
		expect(response.statusCode).toBe(200);
		expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
		expect(response.headers['x-a']).toBe('1, 2');
		expect((await consume(response.body as SocketBody)).bytes.toString()).toBe('hello');
	} finally {
		await raw.close();
	}
});

it('fails the read with a dropped-connection code when the body is cut short', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length });
		res.write(content.subarray(0, 1024 * 1024), () => res.socket?.destroy());
	};
	const response = asResponse(await download(url, {}, UNLIMITED, 1024));
	const error = await consume(response.body as SocketBody).catch((caught: unknown) => caught);
	expect(classifyFailure(error).kind).toBe('dropped');
});

it.each([
	['a status line that is not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n'],
	[
		'two different lengths',
		'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello',
	],
	[
		'an invalid chunk size',
		'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
	],
])('refuses an answer with %s, naming no address', async (_name, bytes) => {
	const raw = await rawServer([bytes]);
	try {
		const outcome = await download(raw.url, {}, UNLIMITED, 1024)
			.then(async (response) => await consume(asResponse(response).body as SocketBody))
			.catch((caught: unknown) => caught);
		expect(outcome).toBeInstanceOf(Error);
		expect((outcome as Error).message).toMatch(/^The answer .* forbids \(RFC 9112\)$/);
		expect((outcome as Error).message).not.toContain('127.0.0.1');
		expect(classifyFailure(outcome).kind).toBe('protocol');
	} finally {
		await raw.close();
	}
});

it('refuses headers that would split the request before connecting', async () => {
	const error = await download(url, { 'x-a': 'b\r\nx-injected: 1' }, UNLIMITED, 1024).catch(
		(caught: unknown) => caught,
	);
	expect((error as NodeJS.ErrnoException).code).toBe('ERR_INVALID_CHAR');
});

const driven = () =>
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'performance'],
	});

it('does not cut a body that keeps flowing, however long it takes: each part arrives within the Timeout', async () => {
	// The sender's clock is driven: it moves 0.3 Timeout per chunk handed out, and the server sends its next
	// part only then. At most three chunks can wait in the queue (two buffers and a spare) with no read between
	// them, so no gap between reads reaches a Timeout, while the five parts take well over one.
	driven();
	const started = Date.now();
	try {
		const timeoutMs = 1000;
		const part = 512 * 1024;
		let next!: () => void;
		answer = async (req, res) => {
			await collect(req);
			res.writeHead(200, { 'content-length': part * 5 });
			next = () => void res.write(content.subarray(sent * part, ++sent * part));
			next();
		};
		let sent = 0;
		const sentParts = () => sent;
		const response = asResponse(await download(url, {}, timeoutMs, 1024));
		const copies: Buffer[] = [];
		let seen = 0;
		for await (const chunk of response.body as SocketBody) {
			copies.push(Buffer.from(chunk));
			seen += chunk.length;
			jest.advanceTimersByTime(timeoutMs * 0.3);
			if (sentParts() < 5) next();
		}
		expect(seen).toBe(part * 5);
		expect(Buffer.concat(copies).equals(content.subarray(0, part * 5))).toBe(true);
		// At least one chunk per part: at least 1.5 Timeouts passed while the body flowed.
		expect(Date.now() - started).toBeGreaterThanOrEqual(timeoutMs * 1.5);
	} finally {
		jest.useRealTimers();
	}
});

it('ends a body that stops after the head once the Timeout passes without data, naming the timeout', async () => {
	driven();
	try {
		answer = async (req, res) => {
			await collect(req);
			res.writeHead(200, { 'content-length': 1000 });
			res.write('0123456789');
			// then silence
		};
		const response = asResponse(await download(url, {}, 300, 1024));
		let outcome: unknown = 'pending';
		void consume(response.body as SocketBody).then(
			(read) => (outcome = read),
			(error: unknown) => (outcome = error),
		);
		for (let turn = 0; turn < 50 && outcome === 'pending'; turn++) {
			await new Promise((resolve) => setImmediate(resolve));
			jest.advanceTimersByTime(300);
		}
		expect(classifyFailure(outcome).kind).toBe('timeout');
		expect((outcome as Error).message).toMatch(/no data arrived for 0\.3 s/);
	} finally {
		jest.useRealTimers();
	}
});

it('stops the read when the execution is cancelled mid-transfer', async () => {
	let sent!: () => void;
	const started = new Promise<void>((resolve) => (sent = resolve));
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length });
		res.write(content.subarray(0, 1024 * 1024), () => sent());
		// the rest never comes
	};
	const controller = new AbortController();
	const response = asResponse(await download(url, {}, 0, 1024, controller.signal));
	await started;
	const reading = consume(response.body as SocketBody).catch((caught: unknown) => caught);
	controller.abort();
	expect(classifyFailure(await reading).kind).toBe('aborted');
});

it('fails the read once more than the cap has arrived', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200).end(content);
	};
	const response = asResponse(await download(url, {}, UNLIMITED, 1024));
	const body = response.body as SocketBody;
	const overCap = new Error('over the cap');
	body.cap(1000, overCap);
	expect(await consume(body).catch((caught: unknown) => caught)).toBe(overCap);
});

it('gives fresh copies to a consumer that pipes it', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length }).end(content);
	};
	const response = asResponse(await download(url, {}, UNLIMITED, 1024));
	const kept: Buffer[] = [];
	await pipeline(
		response.body,
		new Writable({
			write(chunk: Buffer, _encoding, done) {
				kept.push(chunk);
				done();
			},
		}),
	);
	expect(Buffer.concat(kept).equals(content)).toBe(true);
});

it('tells whether a stored file holds what it delivered: size and a checksum over every byte', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length }).end(content);
	};
	const response = asResponse(await download(url, {}, UNLIMITED, 1024));
	const body = response.body as SocketBody;
	await consume(body);
	const path = join(dir, 'stored.bin');
	writeFileSync(path, content);
	expect(await body.storedAs(path)).toBe(true);
	// What a store that kept a chunk after asking for the next would write: later bytes in its place.
	const wrong = Buffer.from(content);
	wrong.set(content.subarray(4 * 1024 * 1024, 5 * 1024 * 1024), 2 * 1024 * 1024);
	writeFileSync(path, wrong);
	expect(await body.storedAs(path)).toBe(false);
	writeFileSync(path, content.subarray(1));
	expect(await body.storedAs(path)).toBe(false);
	expect(readFileSync(path).length).toBe(content.length - 1);
	// A slice written a few chunks late differs anywhere, not only where a sample would look: every byte counts.
	const late = Buffer.from(content);
	late[1024 * 1024 + 100] ^= 1;
	writeFileSync(path, late);
	expect(await body.storedAs(path)).toBe(false);
	// The read-back goes in parts (one read while the other is summed): the last byte of the last part counts.
	const last = Buffer.from(content);
	last[last.length - 1] ^= 1;
	writeFileSync(path, last);
	expect(await body.storedAs(path)).toBe(false);
	rmSync(path);
});

describe('answers other than a 2xx, and failures before the answer', () => {
	const send = download;

	it('hands back other statuses with their capped body for the transport to interpret', async () => {
		answer = async (req, res) => {
			await collect(req);
			res.writeHead(429, { 'retry-after': '3' }).end('x'.repeat(5000));
		};
		const response = asResponse(await send(url, {}, UNLIMITED, 1024));
		expect(response.statusCode).toBe(429);
		expect(response.headers['retry-after']).toBe('3');
		expect(response.body).not.toBeInstanceOf(SocketBody);
		// One byte over the cap, for the transport to call it too large.
		expect(Buffer.concat(await response.body.toArray()).length).toBe(1025);

		answer = async (req, res) => {
			await collect(req);
			res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"gone"}');
		};
		const small = asResponse(await send(url, {}, UNLIMITED, 1024));
		expect(Buffer.concat(await small.body.toArray()).toString()).toBe('{"error":"gone"}');
	});

	it('counts the timeout until the answer starts, as the transport’s answer timeout', async () => {
		answer = async (req) => {
			await collect(req);
			// never answers
		};
		expect(await send(url, {}, 300, 1024)).toBeInstanceOf(AnswerTimeoutError);
	});

	it('reports a refused connection with its code and no address, so the transport may repeat it', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		const error = await send(`http://127.0.0.1:${port}/x`, {}, UNLIMITED, 1024).catch(
			(caught: unknown) => caught,
		);
		expect(classifyFailure(error).kind).toBe('unreachable');
		expect(String((error as Error).message)).not.toContain(String(port));
	});

	it('stops when the execution is cancelled before the answer', async () => {
		answer = () => undefined;
		const controller = new AbortController();
		const pending = send(url, {}, 0, 1024, controller.signal);
		setImmediate(() => controller.abort());
		expect(classifyFailure(await pending.catch((caught: unknown) => caught)).kind).toBe('aborted');
	});
});

describe('over HTTPS', () => {
	let secure: HttpsServer;
	let secureUrl: string;
	const defaults = tls.getCACertificates('default');
	const certificate = readFileSync(join(__dirname, 'fixtures/loopback-cert.pem'), 'utf8');

	beforeAll(async () => {
		secure = createHttpsServer(
			{ cert: certificate, key: readFileSync(join(__dirname, 'fixtures/loopback-key.pem')) },
			(req, res) => answer(req, res),
		);
		await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
		secureUrl = `https://localhost:${(secure.address() as AddressInfo).port}/api_v2/download_file`;
	});
	afterAll(async () => {
		tls.setDefaultCACertificates(defaults);
		secure.closeAllConnections();
		await new Promise((resolve) => secure.close(resolve));
	});

	it('refuses a certificate the machine does not trust', async () => {
		answer = (_req, res) => res.end('never');
		const error = await download(secureUrl, {}, UNLIMITED, 1024).catch((caught: unknown) => caught);
		expect((error as Error).message).toMatch(
			/^download failed \((?:DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/,
		);
	});

	it('reads a trusted server’s answer byte for byte into the reused buffers', async () => {
		tls.setDefaultCACertificates([...defaults, certificate]);
		answer = async (req, res) => {
			await collect(req);
			res.writeHead(200, { 'content-length': content.length }).end(content);
		};
		const response = asResponse(await download(secureUrl, {}, UNLIMITED, 1024));
		const { bytes, buffers } = await consume(response.body as SocketBody, true);
		expect(bytes.equals(content)).toBe(true);
		// TLS hands on what it already decrypted after a pause: the odd read in fresh memory, never in use.
		expect(buffers).toBeLessThan(20);
		expect((response.body as SocketBody).spilled).toBeLessThan(content.length / 4);
	});
});
