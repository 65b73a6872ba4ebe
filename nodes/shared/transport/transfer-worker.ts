// Runs in a worker thread (node:worker_threads): one download with undici into a private temporary file on this
// machine's disk (n8n's filesystem binary mode), or the comparison of that file with n8n's stored copy. The
// file's bytes live and die in this thread's own small heap, so n8n's main isolate neither copies them nor collects its whole heap for them. Only outcomes (status,
// headers, a short answer or an error code, a byte count) go back through postMessage, never file chunks.
// This module imports packages only: run from TypeScript (tests) Node strips its types and loads it as ESM.
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';

export interface DownloadJob {
	kind: 'download';
	url: string;
	headers: Record<string, string>;
	/** The form-encoded request body, the authentication fields among them (never in the URL). */
	body: string;
	/** Where a 2xx answer's body is written; created here, only readable by this user. */
	path: string;
	/** The proxy to send it through, as n8n would (`proxyFor`); the main thread limits silence (`IdleLimit`). */
	proxy?: string;
	/** For answers other than 2xx: how much of their body to hand back. */
	maxResponseBytes: number;
}

/** Whether two files on this machine hold the same bytes (a downloaded file and n8n's stored copy of it). */
export interface CompareJob {
	kind: 'compare';
	paths: [string, string];
}

export type CompareOutcome = { kind: 'compared'; same: boolean };

export type TransferJob = DownloadJob | CompareJob;

export type ErrorOutcome = { kind: 'error'; code: string; message: string };

/** A download posts `head` and then `stored` or `error` for a 2xx answer; any other answer is one `response`. */
export type DownloadMessage =
	| {
			kind: 'head';
			status: number;
			headers: Record<string, string | string[] | undefined>;
	  }
	| { kind: 'stored'; bytes: number }
	/** How much of the file is on disk so far (a count, never the bytes), for a reader that follows it. */
	| { kind: 'written'; bytes: number }
	| {
			kind: 'response';
			status: number;
			headers: Record<string, string | string[] | undefined>;
			body: Uint8Array;
	  }
	| ErrorOutcome;

/** Through the proxy n8n would use for this URL (resolved by the main thread), else directly. */
function dispatcher(proxy: string | undefined): Dispatcher {
	const options = { headersTimeout: 0, bodyTimeout: 0 };
	// Plain-http targets in absolute form, https ones through CONNECT, as n8n's proxy agents send them.
	return proxy
		? new ProxyAgent({ ...options, uri: proxy, proxyTunnel: false })
		: new Agent(options);
}

/** A 2xx answer compressed though the request asked for the file as stored (kept in step with errors.ts). */
const UNREQUESTED_ENCODING = 'HPE_UNREQUESTED_CONTENT_ENCODING';

/** Only the code and a generic message leave the thread: undici's messages may quote the URL. */
function errorCode(error: unknown): string {
	const cause = error as { code?: string; cause?: { code?: string } };
	return cause.code ?? cause.cause?.code ?? 'UND_ERR_SOCKET';
}

async function readCapped(body: AsyncIterable<unknown> & { destroy(): void }, max: number) {
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of body) {
		length += (chunk as Buffer).length;
		chunks.push(chunk as Buffer);
		// One byte over the cap is enough for the main thread to report the answer as too large.
		if (length >= max) {
			body.destroy();
			break;
		}
	}
	return new Uint8Array(Buffer.concat(chunks).subarray(0, max));
}

async function download(job: DownloadJob, post: (message: DownloadMessage) => void): Promise<void> {
	const agent = dispatcher(job.proxy);
	try {
		const answer = await request(job.url, {
			method: 'POST',
			headers: {
				...job.headers,
				'content-type': 'application/x-www-form-urlencoded',
				// The file as stored: the same bytes on every path, whatever the server could compress.
				'accept-encoding': 'identity',
			},
			body: job.body,
			dispatcher: agent,
		});
		if (answer.statusCode < 200 || answer.statusCode >= 300) {
			post({
				kind: 'response',
				status: answer.statusCode,
				headers: answer.headers,
				body: await readCapped(answer.body, job.maxResponseBytes),
			});
			return;
		}
		if (!/^(?:identity)?$/i.test(String(answer.headers['content-encoding'] ?? '').trim())) {
			answer.body.destroy();
			post({ kind: 'error', code: UNREQUESTED_ENCODING, message: 'compressed answer' });
			return;
		}
		post({ kind: 'head', status: answer.statusCode, headers: answer.headers });
		// 1 MiB writes: fewer system calls than the 64 KiB default; this heap is small, so collecting it is cheap.
		const file = createWriteStream(job.path, { flags: 'wx', mode: 0o600, highWaterMark: 1 << 20 });
		let reported = 0;
		const progress = setInterval(() => {
			if (file.bytesWritten === reported) return;
			reported = file.bytesWritten;
			post({ kind: 'written', bytes: reported });
		}, 10);
		try {
			await pipeline(answer.body, file);
		} finally {
			clearInterval(progress);
		}
		post({ kind: 'stored', bytes: file.bytesWritten });
	} catch (error) {
		const code = errorCode(error);
		post({ kind: 'error', code, message: `download failed (${code})` });
	} finally {
		await agent.close().catch(() => undefined);
	}
}

/** Reads both files side by side in 1 MiB steps into two reused buffers: no garbage, whatever their size. */
async function sameFiles([a, b]: [string, string]): Promise<boolean> {
	const first = await open(a, 'r');
	const second = await open(b, 'r').catch(async (error: unknown) => {
		await first.close();
		throw error;
	});
	try {
		const [sizeA, sizeB] = await Promise.all([first.stat(), second.stat()]);
		if (sizeA.size !== sizeB.size) return false;
		const x = Buffer.allocUnsafeSlow(1 << 20);
		const y = Buffer.allocUnsafeSlow(1 << 20);
		for (let position = 0; position < sizeA.size; ) {
			const [readA, readB] = await Promise.all([
				first.read(x, 0, x.length, position),
				second.read(y, 0, y.length, position),
			]);
			const length = readA.bytesRead;
			if (length === 0 || length !== readB.bytesRead) return false;
			if (!x.subarray(0, length).equals(y.subarray(0, length))) return false;
			position += length;
		}
		return true;
	} finally {
		await Promise.all([first.close(), second.close()]);
	}
}

if (parentPort) {
	const port = parentPort;
	const job = workerData as TransferJob;
	const unexpected = (error: unknown) =>
		port.postMessage({
			kind: 'error',
			code: 'UND_ERR_SOCKET',
			message: `${job.kind} failed (${(error as Error).name})`,
		} satisfies ErrorOutcome);
	if (job.kind === 'download')
		download(job, (message) => port.postMessage(message)).catch(unexpected);
	else
		sameFiles(job.paths).then(
			(same) => port.postMessage({ kind: 'compared', same } satisfies CompareOutcome),
			// A file that cannot be read counts as different: the caller then copies plainly.
			() => port.postMessage({ kind: 'compared', same: false } satisfies CompareOutcome),
		);
}
