import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

import { AnswerTimeoutError } from './timeout';
import type { UploadJob, UploadOutcome } from './upload-worker';

/** A multipart upload whose file is read from disk by a worker thread (n8n's filesystem binary mode). */
export interface WorkerUpload {
	/** Form fields before the file; undefined or empty values are left out. */
	fields: Record<string, string | undefined>;
	file: UploadJob['file'];
	/** The authentication to add, asked for each attempt: body fields and headers, never URL parameters. */
	authenticate?: () => Promise<{
		fields: Array<[string, string]>;
		headers: Record<string, string>;
	}>;
}

export interface WorkerResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: Readable;
}

/** The compiled worker next to this module (dist), or its source when run from TypeScript (tests). */
function workerFile(): string {
	const compiled = join(__dirname, 'upload-worker.js');
	return existsSync(compiled) ? compiled : join(__dirname, 'upload-worker.ts');
}

function failure(code: string, message: string, name?: string): Error {
	const error = new Error(message) as Error & { code: string };
	error.code = code;
	if (name) error.name = name;
	return error;
}

/**
 * Sends the upload from a worker thread and answers as n8n's request helper would (status, headers, body
 * stream), so the transport interprets it exactly like any other answer: statuses first, 494, reconcile,
 * retries. The answer deadline starts once the file has been sent, as for the streaming path. Cancelling
 * the execution stops the worker.
 */
export async function sendUploadInWorker(
	url: string,
	upload: WorkerUpload,
	headers: Record<string, string>,
	timeoutMs: number,
	maxResponseBytes: number,
	cancel?: AbortSignal,
): Promise<WorkerResponse | AnswerTimeoutError> {
	if (cancel?.aborted) throw failure('ERR_CANCELED', 'The execution was cancelled', 'AbortError');
	const auth = (await upload.authenticate?.()) ?? { fields: [], headers: {} };
	const fields = Object.entries(upload.fields).filter(
		(entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
	);
	const job: UploadJob = {
		url,
		headers: { ...headers, ...auth.headers },
		fields: [...fields, ...auth.fields],
		file: upload.file,
		timeoutMs,
		maxResponseBytes: maxResponseBytes + 1,
	};
	const worker = new Worker(workerFile(), { workerData: job });
	const outcome = await new Promise<UploadOutcome>((resolve, reject) => {
		const onCancel = () => {
			void worker.terminate();
			reject(failure('ERR_CANCELED', 'The execution was cancelled', 'AbortError'));
		};
		cancel?.addEventListener('abort', onCancel, { once: true });
		const done = () => cancel?.removeEventListener('abort', onCancel);
		worker.once('message', (message: UploadOutcome) => {
			done();
			resolve(message);
		});
		worker.once('error', (error) => {
			done();
			reject(failure('UND_ERR_SOCKET', `The upload thread failed: ${error.name}`));
		});
		worker.once('exit', (code) => {
			done();
			// After a message this changes nothing; without one the thread died before answering.
			reject(
				failure('UND_ERR_SOCKET', `The upload thread ended (exit code ${code}) without an answer`),
			);
		});
	});
	void worker.terminate();
	if (outcome.kind === 'error') {
		if (outcome.code === 'ETIMEDOUT' && outcome.bodySent) return new AnswerTimeoutError(timeoutMs);
		throw failure(outcome.code, outcome.message);
	}
	return {
		statusCode: outcome.status,
		headers: outcome.headers,
		body: Readable.from([Buffer.from(outcome.body)]),
	};
}
