// Uploads of a file on disk (n8n's filesystem binary mode) from the main thread through reused buffers, on a
// socket of their own (nock does not see it), against a real loopback server.
import FormData from 'form-data';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

import { sendUploadFromDisk, type DiskUpload } from '../../../nodes/shared/transport/disk-upload';
import { AnswerTimeoutError } from '../../../nodes/shared/transport/timeout';
import { classifyFailure } from '../../../nodes/shared/transport/failures';

let server: Server;
let url: string;
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const dir = mkdtempSync(join(tmpdir(), 'disk-upload-'));
/** No limit where none is tested: a loaded machine's pauses never end a transfer (the Timeout's own tests drive it). */
const UNLIMITED = 0;
// More than the main-thread path's four 1 MiB buffers, so each is filled again.
const content = randomBytes(9 * 1024 * 1024 + 17);
const path = join(dir, 'file.bin');
writeFileSync(path, content);

beforeAll(async () => {
	server = createServer((req, res) => answer(req, res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api_v2/upload_file`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	rmSync(dir, { recursive: true, force: true });
});

/** The upload, its form as the transport hands it on (empty fields left out, the credential's added). */
const upload = (fields: Record<string, string> = {}): DiskUpload => ({
	fields: { folder_hash: 'Fold3r', ...fields },
	file: {
		field: 'file',
		path,
		fileName: 'file "one".bin',
		mimeType: 'application/octet-stream',
		size: content.length,
	},
});

/** The request body; with `slowly`, read a little at a time, so the sender waits on the socket. */
function collect(req: IncomingMessage, slowly = false): Promise<Buffer> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => {
			chunks.push(chunk);
			if (!slowly) return;
			req.pause();
			setTimeout(() => req.resume(), 1);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
	});
}

type Send = (
	url: string,
	upload: DiskUpload,
	headers: Record<string, string>,
	timeoutMs: number,
	cancel?: AbortSignal,
) => ReturnType<typeof sendUploadFromDisk>;

const senders: Array<[string, Send]> = [
	[
		'the main thread through reused buffers',
		async (url, { fields, file }, headers, timeoutMs, cancel) =>
			await sendUploadFromDisk(
				{ url, headers, form: new URLSearchParams(fields as Record<string, string>), cancel },
				file,
				timeoutMs,
				1024,
			),
	],
];

describe.each(senders)('Upload of a file on disk from %s', (_, send) => {
	it.each([false, true])(
		'sends form-data’s encoding byte for byte (server reading slowly: %s), with the form and headers as given',
		async (slowly) => {
			let received: { body: Buffer; headers: IncomingMessage['headers']; url?: string } | undefined;
			answer = async (req, res) => {
				received = { body: await collect(req, slowly), headers: req.headers, url: req.url };
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"file_hash":"H1"}');
			};
			const response = await send(
				url,
				upload({ user: 'u', user_access_token: 'secret' }),
				{ 'x-extra': '1' },
				UNLIMITED,
			);
			if (response instanceof AnswerTimeoutError) throw response;
			expect(response.statusCode).toBe(200);
			expect(Buffer.concat(await response.body.toArray()).toString()).toBe('{"file_hash":"H1"}');
			expect(received!.url).toBe('/api_v2/upload_file');
			expect(Number(received!.headers['content-length'])).toBe(received!.body.length);
			expect(received!.headers['x-extra']).toBe('1');
			// A server that answers early must read the rest rather than close (see `requestHead`).
			expect(received!.headers.connection).not.toBe('close');
			const boundary = /boundary=(.+)$/.exec(String(received!.headers['content-type']))![1];
			const expected = new FormData();
			expected.setBoundary(boundary);
			expected.append('folder_hash', 'Fold3r');
			expected.append('user', 'u');
			expected.append('user_access_token', 'secret');
			expected.append('file', content, {
				filename: 'file "one".bin',
				contentType: 'application/octet-stream',
			});
			expect(received!.body.equals(expected.getBuffer())).toBe(true);
		},
	);

	it('hands back error statuses and their body for the transport to interpret (494, 5xx)', async () => {
		answer = async (req, res) => {
			await collect(req);
			res.writeHead(494, { 'content-type': 'application/json' }).end('{"error":"partial"}');
		};
		const response = await send(url, upload(), {}, UNLIMITED);
		if (response instanceof AnswerTimeoutError) throw response;
		expect(response.statusCode).toBe(494);
		expect(Buffer.concat(await response.body.toArray()).toString()).toBe('{"error":"partial"}');
	});

	it('hands back an answer the service gives before it has read the whole file', async () => {
		// As web servers do: answer at once, then read and drop the rest of the body.
		answer = (req, res) => {
			req.resume();
			res.writeHead(405, { 'content-type': 'application/json' });
			res.end('{"error":"no rights"}');
		};
		const response = await send(url, upload(), {}, UNLIMITED);
		if (response instanceof AnswerTimeoutError) throw response;
		expect(response.statusCode).toBe(405);
		expect(Buffer.concat(await response.body.toArray()).toString()).toBe('{"error":"no rights"}');
	});

	it('counts the timeout after the end of the body too, and reports it as the transport’s answer timeout', async () => {
		answer = async (req) => {
			await collect(req);
			// never answers
		};
		const response = await send(url, upload(), {}, 300);
		expect(response).toBeInstanceOf(AnswerTimeoutError);
	});

	it('ends an upload whose server stops reading it once the Timeout passes without a completed write', async () => {
		// More than every buffer between the sender and the server holds, so the body cannot be handed over whole.
		const big = join(dir, 'big.bin');
		writeFileSync(big, Buffer.alloc(64 * 1024 * 1024, 7));
		let reading!: () => void;
		const started = new Promise<void>((resolve) => (reading = resolve));
		answer = (req) => {
			// Never reads the body, never answers.
			req.pause();
			reading();
		};
		jest.useFakeTimers({
			doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'performance'],
		});
		try {
			let outcome: unknown = 'pending';
			const what = upload();
			void send(
				url,
				{ ...what, file: { ...what.file, path: big, size: 64 * 1024 * 1024 } },
				{},
				300,
			).then(
				(response) => (outcome = response),
				(error: unknown) => (outcome = error),
			);
			await started;
			// Whatever the machine's load, the clock moves only between turns of the event loop; writes that still
			// complete (the kernel taking what fits) reset the limit, and once none can, it fires.
			for (let turn = 0; turn < 5000 && outcome === 'pending'; turn++) {
				await new Promise((resolve) => setImmediate(resolve));
				if (turn % 10 === 9) jest.advanceTimersByTime(300);
			}
			// Nothing says whether the service acted on it: the transport's timeout, an uncertain write.
			expect(outcome).toBeInstanceOf(AnswerTimeoutError);
		} finally {
			jest.useRealTimers();
			rmSync(big, { force: true });
		}
	});

	it('reports a connection dropped during the body with its code, as a dropped connection', async () => {
		answer = (req) => {
			let seen = 0;
			req.on('data', (chunk: Buffer) => {
				seen += chunk.length;
				if (seen > 1024 * 1024) req.socket.destroy();
			});
		};
		const error = await send(url, upload(), {}, UNLIMITED).catch((caught: unknown) => caught);
		expect(classifyFailure(error).kind).toBe('dropped');
	});

	it('reports a refused connection with its code, so the transport may repeat it', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		const error = await send(`http://127.0.0.1:${port}/x`, upload(), {}, 1000).catch(
			(caught: unknown) => caught,
		);
		expect(classifyFailure(error).kind).toBe('unreachable');
		expect(String((error as Error).message)).not.toContain(String(port));
	});

	it('stops when the execution is cancelled', async () => {
		answer = () => undefined;
		const controller = new AbortController();
		const pending = send(url, upload(), {}, 0, controller.signal);
		setImmediate(() => controller.abort());
		const error = await pending.catch((caught: unknown) => caught);
		expect(classifyFailure(error).kind).toBe('aborted');
	});
});
