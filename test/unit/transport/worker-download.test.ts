// The worker-thread download against a real loopback server (nock cannot see into a worker thread); the cases
// every download sender must pass are in socket-download.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

import {
	sendDownloadInWorker,
	WorkerFileBody,
	type DiskDownload,
} from '../../../nodes/shared/transport/worker-download';
import type { WorkerResponse } from '../../../nodes/shared/transport/disk-upload';
import { AnswerTimeoutError } from '../../../nodes/shared/transport/timeout';
import { classifyFailure } from '../../../nodes/shared/transport/failures';
import { fieldsAuthentication } from './transfer-fixtures';

let server: Server;
let url: string;
let received: { body: string; headers: IncomingMessage['headers']; url?: string } | undefined;
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const dir = mkdtempSync(join(tmpdir(), 'worker-download-'));
const content = randomBytes(5 * 1024 * 1024 + 17);
const download: DiskDownload = { via: 'worker thread', directory: dir };
const form = new URLSearchParams({ file_hash: 'H4sh' });

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
afterEach(() => {
	// Every outcome leaves no temporary file behind.
	expect(readdirSync(dir)).toEqual([]);
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	rmSync(dir, { recursive: true, force: true });
});

function asResponse(outcome: WorkerResponse | AnswerTimeoutError): WorkerResponse {
	if (outcome instanceof AnswerTimeoutError) throw outcome;
	return outcome;
}

it('writes the answer to a private temporary file byte for byte, with the authentication in the body, never in the URL', async () => {
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
		await sendDownloadInWorker(
			url,
			form,
			{
				...download,
				authenticate: fieldsAuthentication,
			},
			{},
			5000,
			1024,
		),
	);
	expect(response.statusCode).toBe(200);
	expect(response.headers['content-length']).toBe(String(content.length));
	const body = response.body as WorkerFileBody;
	expect(body).toBeInstanceOf(WorkerFileBody);
	expect(await body.stored).toBe(content.length);
	expect(readFileSync(body.path).equals(content)).toBe(true);
	expect(statSync(body.path).mode & 0o077).toBe(0);
	expect(readdirSync(dir)).toHaveLength(1);
	// Read as a stream, the same bytes; reading it to the end removes the file.
	expect(Buffer.concat(await body.toArray()).equals(content)).toBe(true);
	expect(existsSync(body.path)).toBe(false);
	expect(received!.url).toBe('/api_v2/download_file');
	expect(received!.headers['x-extra']).toBe('1');
	expect(received!.headers['content-type']).toBe('application/x-www-form-urlencoded');
	expect(new URLSearchParams(received!.body).get('user_access_token')).toBe('secret');
	expect(new URLSearchParams(received!.body).get('file_hash')).toBe('H4sh');
});

it('notices a transfer cut short: the stored promise rejects with a dropped-connection code', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length });
		res.write(content.subarray(0, 1024 * 1024), () => res.socket?.destroy());
	};
	const response = asResponse(await sendDownloadInWorker(url, form, download, {}, 5000, 1024));
	const body = response.body as WorkerFileBody;
	const error = await body.stored.catch((caught: unknown) => caught);
	expect(classifyFailure(error).kind).toBe('dropped');
	await body.dispose();
	await new Promise((resolve) => setImmediate(resolve));
});

const driven = () =>
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'performance'],
	});

it('does not cut a body that keeps flowing, however long it takes: each part arrives within the Timeout', async () => {
	// The node's clock is driven: it moves 0.9 Timeout only after the thread has reported the previous part
	// written, so five parts take 4.5 Timeouts and the gap between any two reads stays below one.
	driven();
	try {
		const timeoutMs = 1000;
		const part = 256 * 1024;
		let next!: () => void;
		answer = async (req, res) => {
			await collect(req);
			res.writeHead(200, { 'content-length': part * 5 });
			let sent = 0;
			next = () => void res.write(content.subarray(sent * part, ++sent * part));
			next();
		};
		const response = asResponse(
			await sendDownloadInWorker(url, form, download, {}, timeoutMs, 1024),
		);
		const body = response.body as WorkerFileBody;
		let seen = 0;
		for await (const chunk of body.follow()) {
			seen += chunk.length;
			if (seen % part === 0 && seen < part * 5) {
				jest.advanceTimersByTime(timeoutMs * 0.9);
				next();
			}
		}
		expect(await body.stored).toBe(part * 5);
		expect(readFileSync(body.path).equals(content.subarray(0, part * 5))).toBe(true);
		await body.dispose();
	} finally {
		jest.useRealTimers();
	}
});

it('ends a body that stops after the head once the Timeout passes without data: a timeout, the file removed', async () => {
	driven();
	try {
		answer = async (req, res) => {
			await collect(req);
			res.writeHead(200, { 'content-length': 1000 });
			res.write('0123456789');
			// then silence
		};
		const response = asResponse(await sendDownloadInWorker(url, form, download, {}, 300, 1024));
		const body = response.body as WorkerFileBody;
		let outcome: unknown = 'pending';
		void body.stored.then(
			(bytes) => (outcome = bytes),
			(error: unknown) => (outcome = error),
		);
		for (let turn = 0; turn < 50 && outcome === 'pending'; turn++) {
			await new Promise((resolve) => setImmediate(resolve));
			jest.advanceTimersByTime(300);
		}
		expect(classifyFailure(outcome).kind).toBe('timeout');
		expect((outcome as Error).message).toMatch(/no data arrived for 0\.3 s/);
		await body.dispose();
	} finally {
		jest.useRealTimers();
	}
});

it('stops the worker and removes the temporary file when the execution is cancelled mid-transfer', async () => {
	let sent!: () => void;
	const started = new Promise<void>((resolve) => (sent = resolve));
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length });
		res.write(content.subarray(0, 1024 * 1024), () => sent());
		// the rest never comes
	};
	const controller = new AbortController();
	const response = asResponse(
		await sendDownloadInWorker(url, form, download, {}, 0, 1024, controller.signal),
	);
	const body = response.body as WorkerFileBody;
	await started;
	controller.abort();
	const error = await body.stored.catch((caught: unknown) => caught);
	expect(classifyFailure(error).kind).toBe('aborted');
	await body.dispose();
	expect(existsSync(body.path)).toBe(false);
});

it('follows the file while the thread writes it: the same bytes, each chunk read into one reused buffer', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length });
		res.write(content.subarray(0, 2 * 1024 * 1024));
		setTimeout(() => res.end(content.subarray(2 * 1024 * 1024)), 200);
	};
	const response = asResponse(await sendDownloadInWorker(url, form, download, {}, 5000, 1024));
	const body = response.body as WorkerFileBody;
	const copies: Buffer[] = [];
	const seen = new Set<ArrayBufferLike>();
	for await (const chunk of body.follow(256 * 1024)) {
		seen.add(chunk.buffer);
		copies.push(Buffer.from(chunk));
	}
	expect(Buffer.concat(copies).equals(content)).toBe(true);
	expect(seen.size).toBe(1);
	await body.dispose();
});

it('a follower fails when the transfer is cut short', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(200, { 'content-length': content.length });
		res.write(content.subarray(0, 1024 * 1024), () => res.socket?.destroy());
	};
	const response = asResponse(await sendDownloadInWorker(url, form, download, {}, 5000, 1024));
	const body = response.body as WorkerFileBody;
	const error = await (async () => {
		for await (const chunk of body.follow()) void chunk;
	})().catch((caught: unknown) => caught);
	expect(classifyFailure(error).kind).toBe('dropped');
	await body.dispose();
	await new Promise((resolve) => setImmediate(resolve));
});
