// The worker-thread upload against a real loopback server (nock cannot see into a worker thread).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

import { sendUploadInWorker } from '../../../nodes/shared/transport/worker-upload';
import { AnswerTimeoutError } from '../../../nodes/shared/transport/timeout';
import { classifyFailure } from '../../../nodes/shared/transport/failures';

let server: Server;
let url: string;
let received: { body: Buffer; headers: IncomingMessage['headers']; url?: string } | undefined;
let answer: (req: IncomingMessage, res: import('node:http').ServerResponse) => void;
const dir = mkdtempSync(join(tmpdir(), 'worker-upload-'));
const content = randomBytes(3 * 1024 * 1024 + 17);
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

const upload = (
	extra: {
		authenticate?: () => Promise<{
			fields: Array<[string, string]>;
			headers: Record<string, string>;
		}>;
	} = {},
) => ({
	fields: { folder_hash: 'Fold3r', folder_upload_key: undefined },
	file: {
		field: 'file',
		path,
		fileName: 'file.bin',
		mimeType: 'application/octet-stream',
		size: content.length,
	},
	...extra,
});

function collect(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
	});
}

it('sends the file byte for byte, with the fields and the authentication in the body, never in the URL', async () => {
	answer = async (req, res) => {
		received = { body: await collect(req), headers: req.headers, url: req.url };
		res.writeHead(200, { 'content-type': 'application/json' }).end('{"file_hash":"H1"}');
	};
	const response = await sendUploadInWorker(
		url,
		upload({
			authenticate: async () => ({
				fields: [
					['user', 'u'],
					['user_access_token', 'secret'],
				],
				headers: { 'x-extra': '1' },
			}),
		}),
		{},
		5000,
		1024,
	);
	if (response instanceof AnswerTimeoutError) throw response;
	expect(response.statusCode).toBe(200);
	expect(Buffer.concat(await response.body.toArray()).toString()).toBe('{"file_hash":"H1"}');
	expect(received!.url).toBe('/api_v2/upload_file');
	expect(Number(received!.headers['content-length'])).toBe(received!.body.length);
	expect(received!.headers['x-extra']).toBe('1');
	const text = received!.body.toString('latin1');
	expect(text).toContain('name="folder_hash"\r\n\r\nFold3r');
	expect(text).toContain('name="user_access_token"\r\n\r\nsecret');
	expect(text).not.toContain('folder_upload_key');
	expect(received!.body.includes(content)).toBe(true);
});

it('hands back error statuses and their body for the transport to interpret (494, 5xx)', async () => {
	answer = async (req, res) => {
		await collect(req);
		res.writeHead(494, { 'content-type': 'application/json' }).end('{"error":"partial"}');
	};
	const response = await sendUploadInWorker(url, upload(), {}, 5000, 1024);
	if (response instanceof AnswerTimeoutError) throw response;
	expect(response.statusCode).toBe(494);
});

it('counts the timeout from the end of the body, and reports it as the transport’s answer timeout', async () => {
	answer = async (req) => {
		await collect(req);
		// never answers
	};
	const response = await sendUploadInWorker(url, upload(), {}, 300, 1024);
	expect(response).toBeInstanceOf(AnswerTimeoutError);
});

it('reports a refused connection with its code, so the transport may repeat it', async () => {
	const closed = createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise((resolve) => closed.close(resolve));
	const error = await sendUploadInWorker(
		`http://127.0.0.1:${port}/x`,
		upload(),
		{},
		1000,
		1024,
	).catch((caught: unknown) => caught);
	expect(classifyFailure(error).kind).toBe('unreachable');
	expect(String((error as Error).message)).not.toContain(String(port));
});

it('stops the worker when the execution is cancelled', async () => {
	answer = () => undefined;
	const controller = new AbortController();
	const pending = sendUploadInWorker(url, upload(), {}, 0, 1024, controller.signal);
	setImmediate(() => controller.abort());
	const error = await pending.catch((caught: unknown) => caught);
	expect(classifyFailure(error).kind).toBe('aborted');
});
