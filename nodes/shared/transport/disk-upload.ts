import FormData from 'form-data';
import { open, type FileHandle } from 'node:fs/promises';
import {
	Agent as HttpAgent,
	request as httpRequest,
	type ClientRequest,
	type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

import type { Readable } from 'node:stream';

import { IdleLimit, idleFailure } from './idle';
import { AnswerTimeoutError } from './timeout';
import { cancelled, failure } from './failures';

/** The file of a multipart upload, on this machine's disk (n8n's filesystem binary mode). */
export interface UploadFile {
	field: string;
	path: string;
	fileName: string;
	mimeType: string;
	size: number;
}

/** A multipart upload whose file is read from disk (n8n's filesystem binary mode), see `transferPath`. */
export interface DiskUpload {
	/** Form fields before the file; undefined or empty values are left out. */
	fields: Record<string, string | undefined>;
	file: UploadFile;
}

/** A POST the transport sends on its own socket, authenticated (`authenticated` in request.ts). */
export interface OwnPost {
	url: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	/** The form fields, the credential's among them. */
	form: URLSearchParams;
	cancel?: AbortSignal;
}

/** An answer as n8n's request helper gives it (status, headers, body stream), for the transport to interpret. */
export interface StreamedResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: Readable;
}

const CHUNK_BYTES = 1 << 20;
const SLOTS = 4;

/**
 * The multipart body around the file, encoded by form-data exactly as the other paths send it: everything
 * before the file's bytes, and the closing boundary after them.
 */
export function multipartEnvelope(
	fields: Array<[string, string]>,
	file: UploadFile,
): { head: Buffer; tail: Buffer; contentType: string } {
	const form = new FormData();
	for (const [name, value] of fields) form.append(name, value);
	form.append(file.field, Buffer.alloc(0), {
		filename: file.fileName,
		contentType: file.mimeType,
	});
	const whole = form.getBuffer();
	const tail = Buffer.from(`\r\n--${form.getBoundary()}--\r\n`);
	return {
		head: whole.subarray(0, whole.length - tail.length),
		tail,
		contentType: form.getHeaders()['content-type'] as string,
	};
}

/** Resolves once the socket has taken the chunk: only then may its buffer be filled again. */
function written(req: ClientRequest, chunk: Buffer): Promise<void> {
	return new Promise((resolve, reject) =>
		req.write(chunk, (error) => (error ? reject(error) : resolve())),
	);
}

/**
 * Writes the file in 1 MiB steps through a few buffers that are filled again once the socket has sent
 * them. Stops early, without error, once `stop()` says the service has answered.
 */
async function writeFile(
	req: ClientRequest,
	file: FileHandle,
	size: number,
	stop: () => boolean,
	progress: () => void,
): Promise<void> {
	const slots = Array.from({ length: SLOTS }, () => Buffer.allocUnsafeSlow(CHUNK_BYTES));
	const sending: Array<Promise<void> | undefined> = new Array(SLOTS);
	try {
		for (let position = 0, step = 0; position < size && !stop(); step++) {
			const slot = step % SLOTS;
			await sending[slot];
			const { bytesRead } = await file.read(
				slots[slot],
				0,
				Math.min(CHUNK_BYTES, size - position),
				position,
			);
			if (bytesRead === 0) throw failure('EIO', 'The file became shorter while it was sent');
			position += bytesRead;
			sending[slot] = written(req, slots[slot].subarray(0, bytesRead)).then(progress);
		}
	} finally {
		// A buffer may be refilled or dropped only once the socket is done with it.
		await Promise.allSettled(sending);
	}
	await Promise.all(sending);
}

/**
 * Sends the upload of a file on disk (n8n's filesystem binary mode) from n8n's main thread without making
 * garbage: the file passes through four reused buffers, never a fresh buffer per chunk. Fresh buffers are
 * what makes V8 collect n8n's whole heap every ~64 MiB; without them the transfer runs at the disk's and the
 * service's pace. Answers as n8n's helper does, for the transport to interpret: the node's Timeout limits
 * silence in both directions (`IdleLimit`: reset by every completed write and every read); cancelling the
 * execution ends the request. Used where no proxy is configured (`transferPath`).
 */
export async function sendUploadFromDisk(
	{ url, headers, form, cancel }: OwnPost,
	upload: UploadFile,
	timeoutMs: number,
): Promise<StreamedResponse | AnswerTimeoutError> {
	if (cancel?.aborted) throw cancelled();
	const file = await open(upload.path, 'r');
	try {
		const size = (await file.stat()).size;
		const { head, tail, contentType } = multipartEnvelope([...form], upload);
		return await exchange(url, {
			headers: {
				...headers,
				'content-type': contentType,
				'content-length': String(head.length + size + tail.length),
			},
			send: async (req, answered, progress) => {
				await written(req, head);
				progress();
				await writeFile(req, file, size, answered, progress);
				if (!answered()) await new Promise<void>((resolve) => req.end(tail, resolve));
			},
			timeoutMs,
			cancel,
		});
	} finally {
		await file.close();
	}
}

interface Exchange {
	headers: Record<string, string>;
	/** Writes the body and ends the request, or stops once `answered()` is true; `progress()` after each write. */
	send: (req: ClientRequest, answered: () => boolean, progress: () => void) => Promise<void>;
	timeoutMs: number;
	cancel?: AbortSignal;
}

/** One POST: the answer's head as soon as it comes (also while the body is still being sent). */
async function exchange(
	url: string,
	job: Exchange,
): Promise<StreamedResponse | AnswerTimeoutError> {
	// Cancelled while the file was being opened: nothing has been sent.
	if (job.cancel?.aborted) throw cancelled();
	const target = new URL(url);
	const https = target.protocol === 'https:';
	// A connection of its own, never shared with n8n's other requests and closed after the answer. Kept alive
	// meanwhile: a server that answers before the whole file has arrived then reads the rest instead of closing
	// the connection at once, which would lose its answer to the write error it causes here.
	const agent = new (https ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: 1 });
	const req = (https ? httpsRequest : httpRequest)(target, {
		method: 'POST',
		headers: job.headers,
		agent,
	});
	req.once('close', () => agent.destroy());
	let response: IncomingMessage | undefined;
	return await new Promise<StreamedResponse | AnswerTimeoutError>((resolve, reject) => {
		let settled = false;
		const settle = (outcome: StreamedResponse | AnswerTimeoutError | Error) => {
			if (settled) return;
			settled = true;
			job.cancel?.removeEventListener('abort', onCancel);
			if (outcome instanceof Error && !(outcome instanceof AnswerTimeoutError)) reject(outcome);
			else resolve(outcome);
		};
		// Silence for the Timeout ends it, in both directions: a server that stops reading the file (no write
		// completes), one that does not answer once it has it, one that stops sending its answer.
		const idle = new IdleLimit(job.timeoutMs, () => {
			const error = idleFailure(job.timeoutMs);
			req.destroy();
			if (response) response.destroy(error);
			else settle(new AnswerTimeoutError(job.timeoutMs));
		});
		const onCancel = () => {
			idle.stop();
			req.destroy();
			response?.destroy();
			settle(cancelled());
		};
		job.cancel?.addEventListener('abort', onCancel, { once: true });
		req.once('close', () => {
			if (!response) idle.stop();
		});
		req.once('response', (answer: IncomingMessage) => {
			response = answer;
			idle.touch();
			// The request's own socket: once the answer has been read or dropped, nothing else needs it.
			answer.once('close', () => {
				idle.stop();
				req.destroy();
			});
			// Counted on the socket: a listener for 'data' would start the answer flowing before it is read.
			answer.socket?.on('data', () => idle.touch());
			settle({ statusCode: answer.statusCode ?? 0, headers: answer.headers, body: answer });
		});
		req.on('error', (error: NodeJS.ErrnoException) => {
			if (response) return;
			idle.stop();
			const code = error.code ?? 'ECONNRESET';
			// Only the code: Node's messages may quote the address.
			settle(failure(code, `upload failed (${code})`));
		});
		job
			.send(
				req,
				() => response !== undefined,
				() => idle.touch(),
			)
			.catch((error: NodeJS.ErrnoException) => {
				if (response) return;
				idle.stop();
				req.destroy();
				const code = error.code ?? 'ECONNRESET';
				settle(failure(code, `upload failed (${code})`));
			});
	});
}
