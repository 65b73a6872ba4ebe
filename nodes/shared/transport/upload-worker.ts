// Runs in a worker thread (node:worker_threads): sends one multipart upload with undici, reading the file
// from n8n's filesystem binary store by its path. The file's bytes live and die in this thread's own small
// heap, so n8n's main isolate neither copies them nor collects its whole heap for them. Only the outcome
// (status, headers and the service's short answer, or an error code) goes back through postMessage.
import FormData from 'form-data';
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';

export interface UploadJob {
	url: string;
	headers: Record<string, string>;
	/** Form fields before the file, the authentication fields among them (never in the URL). */
	fields: Array<[string, string]>;
	file: { field: string; path: string; fileName: string; mimeType: string; size: number };
	/** How long to wait for the answer once the whole body has been sent; 0 = no limit. */
	timeoutMs: number;
	maxResponseBytes: number;
}

export type UploadOutcome =
	| {
			kind: 'response';
			status: number;
			headers: Record<string, string | string[] | undefined>;
			body: Uint8Array;
	  }
	| { kind: 'error'; code: string; message: string; bodySent: boolean };

/** n8n honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY (either case); undici's EnvHttpProxyAgent reads the same. */
function dispatcher(): Dispatcher {
	const names = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];
	return names.some((name) => process.env[name])
		? new EnvHttpProxyAgent({ headersTimeout: 0, bodyTimeout: 0 })
		: new Agent({ headersTimeout: 0, bodyTimeout: 0 });
}

async function upload(job: UploadJob): Promise<UploadOutcome> {
	const form = new FormData();
	for (const [name, value] of job.fields) form.append(name, value);
	const file = createReadStream(job.file.path, { highWaterMark: 1024 * 1024 });
	form.append(job.file.field, file, {
		filename: job.file.fileName,
		contentType: job.file.mimeType,
		knownLength: job.file.size,
	});
	const controller = new AbortController();
	let bodySent = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timedOut = new Error('no answer in time');
	file.once('end', () => {
		bodySent = true;
		if (job.timeoutMs > 0) timer = setTimeout(() => controller.abort(timedOut), job.timeoutMs);
	});
	const agent = dispatcher();
	try {
		const answer = await request(job.url, {
			method: 'POST',
			headers: {
				...job.headers,
				...form.getHeaders(),
				'content-length': String(form.getLengthSync()),
			},
			body: form as unknown as NodeJS.ReadableStream as never,
			signal: controller.signal,
			dispatcher: agent,
		});
		clearTimeout(timer);
		const chunks: Buffer[] = [];
		let length = 0;
		for await (const chunk of answer.body) {
			length += (chunk as Buffer).length;
			chunks.push(chunk as Buffer);
			// One byte over the cap is enough for the main thread to report the answer as too large.
			if (length >= job.maxResponseBytes) {
				answer.body.destroy();
				break;
			}
		}
		return {
			kind: 'response',
			status: answer.statusCode,
			headers: answer.headers,
			body: new Uint8Array(Buffer.concat(chunks)),
		};
	} catch (error) {
		clearTimeout(timer);
		const cause = error as { code?: string; message?: string; cause?: { code?: string } };
		if (controller.signal.aborted && controller.signal.reason === timedOut)
			return { kind: 'error', code: 'ETIMEDOUT', message: 'no answer in time', bodySent };
		const code = cause.code ?? cause.cause?.code ?? 'UND_ERR_SOCKET';
		// Only the code and a generic message leave the thread: undici's messages may quote the URL.
		return { kind: 'error', code, message: `upload failed (${code})`, bodySent };
	} finally {
		file.destroy();
		await agent.close().catch(() => undefined);
	}
}

if (parentPort) {
	const port = parentPort;
	upload(workerData as UploadJob).then(
		(outcome) => port.postMessage(outcome),
		(error: unknown) =>
			port.postMessage({
				kind: 'error',
				code: 'UND_ERR_SOCKET',
				message: `upload failed (${(error as Error).name})`,
				bodySent: false,
			} satisfies UploadOutcome),
	);
}
