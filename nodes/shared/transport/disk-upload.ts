import FormData from 'form-data';
import { open, type FileHandle } from 'node:fs/promises';

import { AnswerTimeoutError } from './timeout';
import { cancelled, failure } from './failures';
import type { RawAnswer } from './body';
import { exchangeOnSocket, type OwnPost } from './socket-exchange';

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

const CHUNK_BYTES = 1 << 20;
const SLOTS = 4;

/**
 * The multipart body around the file, encoded by form-data exactly as the other paths send it: everything
 * before the file's bytes, and the closing boundary after them.
 */
function multipartEnvelope(
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

/**
 * Writes the file in 1 MiB steps through a few buffers, each filled again only once the socket has taken it
 * (`write` resolved). Stops early, without error, once `stop()` says the service has answered.
 */
async function writeFile(
	write: (chunk: Buffer) => Promise<void>,
	file: FileHandle,
	size: number,
	stop: () => boolean,
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
			sending[slot] = write(slots[slot].subarray(0, bytesRead));
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
 * service's pace. Sent and answered as `exchangeOnSocket` says; used where no proxy is configured (`transferPath`).
 */
export async function sendUploadFromDisk(
	post: OwnPost,
	upload: UploadFile,
	timeoutMs: number,
	maxResponseBytes: number,
): Promise<RawAnswer | AnswerTimeoutError> {
	if (post.cancel?.aborted) throw cancelled();
	const file = await open(upload.path, 'r');
	try {
		const size = (await file.stat()).size;
		const { head, tail, contentType } = multipartEnvelope([...post.form], upload);
		const body = {
			contentType,
			length: head.length + size + tail.length,
			send: async (write: (chunk: Buffer) => Promise<void>, answered: () => boolean) => {
				await write(head);
				await writeFile(write, file, size, answered);
				if (!answered()) await write(tail);
			},
		};
		return await exchangeOnSocket(post, body, 'upload', timeoutMs, maxResponseBytes);
	} finally {
		await file.close();
	}
}
