import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { IdleLimit, idleFailure } from './idle';
import { proxyFor } from './proxy';
import { AnswerTimeoutError } from './timeout';
import type { DownloadMessage } from './transfer-worker';
import { failure } from './failures';
import { startTransferThread } from './worker-thread';
import type { WorkerResponse } from './disk-upload';

/**
 * A form-encoded POST whose 2xx answer goes to n8n's filesystem binary store without n8n's request helper:
 * read on the main thread into a reused buffer (`sendDownloadOnSocket`), or by a worker thread into a
 * temporary file (`sendDownloadInWorker`); `diskDownloadPath` chooses.
 */
export interface DiskDownload {
	via: 'main thread' | 'worker thread';
	/** The authentication to add, asked for each attempt: body fields and headers, never URL parameters. */
	authenticate?: () => Promise<{
		fields: Array<[string, string]>;
		headers: Record<string, string>;
	}>;
	/** Where the temporary file goes; the OS temp dir by default. */
	directory?: string;
}

/**
 * The body of a 2xx answer downloaded by the worker thread. Read as a stream it yields the file once the
 * thread has written all of it; `stored` gives its path and size for a hand-over by path instead. Destroying
 * it, in every outcome, stops the thread and removes the temporary file.
 */
export class WorkerFileBody extends Readable {
	private file?: Readable;
	private removal?: Promise<void>;
	/** Bytes on disk so far, and who waits for more. */
	private written = 0;
	private wake?: () => void;

	constructor(
		readonly path: string,
		/** Resolves with the bytes written once the whole answer is on disk; rejects if the transfer broke. */
		readonly stored: Promise<number>,
		private readonly stop: () => void,
	) {
		super({ highWaterMark: 1 << 20 });
		// Awaited by whoever reads the body; a broken transfer left unread must not be an unhandled rejection.
		stored.then(
			(bytes) => this.progress(bytes),
			() => this.progress(this.written),
		);
	}

	/** The thread reports how far it has written. */
	progress(bytes: number): void {
		this.written = bytes;
		const wake = this.wake;
		this.wake = undefined;
		wake?.();
	}

	/**
	 * The file's bytes while the thread is still writing it, read into one reused buffer: each chunk is valid
	 * only until the next is asked for, so this suits only a consumer that is done with a chunk by then (n8n's
	 * filesystem store writes each before it asks again). Rejects if the transfer breaks.
	 */
	async *follow(bufferBytes = 1 << 20): AsyncGenerator<Buffer, undefined, unknown> {
		let done = false;
		void this.stored.then(
			() => (done = true),
			() => (done = true),
		);
		// The thread creates the file after the answer's head: wait for its first bytes (or its end).
		while (this.written === 0 && !done) await new Promise<void>((resolve) => (this.wake = resolve));
		if (this.written === 0) await this.stored;
		const handle = await open(this.path, 'r');
		const buffer = Buffer.allocUnsafeSlow(bufferBytes);
		let position = 0;
		try {
			for (;;) {
				if (position < this.written) {
					const length = Math.min(buffer.length, this.written - position);
					const { bytesRead } = await handle.read(buffer, 0, length, position);
					if (bytesRead === 0) throw new Error('The temporary file ended early');
					position += bytesRead;
					yield buffer.subarray(0, bytesRead);
				} else if (done) {
					const total = await this.stored;
					if (position >= total) return undefined;
				} else {
					await new Promise<void>((resolve) => (this.wake = resolve));
				}
			}
		} finally {
			await handle.close();
		}
	}

	override _read(): void {
		if (this.file) {
			this.file.resume();
			return;
		}
		this.stored.then(
			() => {
				if (this.destroyed) return;
				const file = createReadStream(this.path, { highWaterMark: 1 << 20 });
				this.file = file;
				file.on('data', (chunk) => {
					if (!this.push(chunk)) file.pause();
				});
				file.once('end', () => this.push(null));
				file.once('error', (error) => this.destroy(error));
			},
			(error: unknown) => this.destroy(error as Error),
		);
	}

	override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
		this.stop();
		this.file?.destroy();
		this.removal = removeFile(this.path);
		void this.removal.then(() => callback(error));
	}

	/** Destroys the body and resolves once its temporary file is gone. */
	async dispose(): Promise<void> {
		this.destroy();
		await this.removal;
	}
}

/**
 * Off n8n's main thread: unlinking a file of a gigabyte took 200–400 ms here, which `rmSync` would have spent
 * with every workflow, webhook and the editor waiting.
 */
async function removeFile(path: string): Promise<void> {
	await rm(path, { force: true }).catch(() => undefined);
}

/** The form with the credential's fields added, and the headers with its headers: asked for each attempt. */
export async function authenticatedForm(
	form: URLSearchParams,
	download: DiskDownload,
	headers: Record<string, string>,
): Promise<{ body: string; headers: Record<string, string> }> {
	const auth = (await download.authenticate?.()) ?? { fields: [], headers: {} };
	const body = new URLSearchParams(form);
	for (const [name, value] of auth.fields) body.append(name, value);
	return { body: body.toString(), headers: { ...headers, ...auth.headers } };
}

/**
 * Sends a form-encoded POST from a worker thread and answers as n8n's request helper would, so the transport
 * interprets it like any other answer: statuses first, retries, the node's Timeout as a limit on silence
 * before and during the answer (a body that is flowing is never cut), through the proxy n8n would use. A 2xx answer's body is written to a temporary file by the thread and handed
 * back as a `WorkerFileBody`; other answers come back with their (capped) body. Cancelling the execution stops
 * the thread and removes the file.
 */
export async function sendDownloadInWorker(
	url: string,
	form: URLSearchParams,
	download: DiskDownload,
	headers: Record<string, string>,
	timeoutMs: number,
	maxResponseBytes: number,
	cancel?: AbortSignal,
): Promise<WorkerResponse | AnswerTimeoutError> {
	if (cancel?.aborted) throw failure('ERR_CANCELED', 'The execution was cancelled', 'AbortError');
	const { body, headers: all } = await authenticatedForm(form, download, headers);
	const path = join(download.directory ?? tmpdir(), `n8n-cloud-storage-${randomUUID()}.part`);
	const thread = startTransferThread<DownloadMessage>(
		{
			kind: 'download',
			url,
			headers: all,
			body,
			path,
			proxy: proxyFor(url),
			maxResponseBytes: maxResponseBytes + 1,
		},
		cancel,
	);
	// Silence for the Timeout ends it: before the answer (a timeout the transport may retry) or in its body.
	// Counted here, on the thread's messages, so that it is the node's own timer.
	let idle!: IdleLimit;
	const silent = new Promise<'silent'>((resolve) => {
		idle = new IdleLimit(timeoutMs, () => resolve('silent'));
	});
	let first: DownloadMessage | 'silent' | undefined;
	try {
		first = await Promise.race([thread.next(), silent]);
	} finally {
		// Only a 2xx answer's body keeps the thread and its file, until that body is destroyed.
		if (first === undefined || first === 'silent' || first.kind !== 'head') {
			idle.stop();
			thread.stop();
			await removeFile(path);
		}
	}
	if (first === 'silent') return new AnswerTimeoutError(timeoutMs);
	if (first.kind === 'head') {
		idle.touch();
		let settle!: { resolve: (bytes: number) => void; reject: (error: unknown) => void };
		const stored = new Promise<number>((resolve, reject) => (settle = { resolve, reject }));
		const body = new WorkerFileBody(path, stored, () => thread.stop());
		void (async () => {
			try {
				for (;;) {
					const last = await Promise.race([thread.next(), silent]);
					if (last === 'silent') {
						thread.stop();
						throw idleFailure(timeoutMs);
					}
					if (last.kind === 'written') {
						idle.touch();
						body.progress(last.bytes);
					} else if (last.kind === 'stored') {
						// Done: its isolate need not stay alive beside the thread that compares the stored copy.
						thread.stop();
						return last.bytes;
					} else
						throw failure(
							last.kind === 'error' ? last.code : 'UND_ERR_SOCKET',
							last.kind === 'error' ? last.message : 'The download thread answered out of turn',
						);
				}
			} finally {
				idle.stop();
			}
		})().then(settle.resolve, settle.reject);
		return { statusCode: first.status, headers: first.headers, body };
	}
	if (first.kind === 'error') throw failure(first.code, first.message);
	if (first.kind !== 'response')
		throw failure('UND_ERR_SOCKET', 'The download thread answered out of turn');
	return {
		statusCode: first.status,
		headers: first.headers,
		body: Readable.from([Buffer.from(first.body)]),
	};
}
