import { Readable } from 'node:stream';

import { AnswerTimeoutError } from './timeout';
import type { UploadJob, UploadOutcome } from './transfer-worker';
import { failure, startTransferThread } from './worker-thread';

/** A multipart upload whose file is read from disk (n8n's filesystem binary mode), see `diskUploadPath`. */
export interface DiskUpload {
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

/**
 * Sends the upload from a worker thread and answers as n8n's request helper would (status, headers, body
 * stream), so the transport interprets it exactly like any other answer: statuses first, 494, reconcile,
 * retries. The answer deadline starts once the file has been sent, as for the streaming path. Cancelling
 * the execution stops the worker.
 */
export async function sendUploadInWorker(
	url: string,
	upload: DiskUpload,
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
	const thread = startTransferThread<UploadOutcome>(
		{
			kind: 'upload',
			url,
			headers: { ...headers, ...auth.headers },
			fields: [...fields, ...auth.fields],
			file: upload.file,
			timeoutMs,
			maxResponseBytes: maxResponseBytes + 1,
		},
		cancel,
	);
	let outcome: UploadOutcome;
	try {
		outcome = await thread.next();
	} finally {
		thread.stop();
	}
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
