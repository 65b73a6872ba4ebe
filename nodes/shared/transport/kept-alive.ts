import {
	Agent as HttpAgent,
	request as httpRequest,
	type ClientRequest,
	type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

import { AnswerTimeoutError } from './timeout';
import { cancelled, failure } from './failures';

/**
 * Idle connections are closed after this long (or earlier when the server's `Keep-Alive: timeout=` says so,
 * less a second): below the 5 s most servers keep them, so a request seldom meets a connection the server is
 * closing.
 */
const IDLE_MS = 4000;
/** Idle connections kept per server. Connections in use are not limited: no call waits for another's to end. */
const MAX_IDLE = 32;

const agentOptions = {
	keepAlive: true,
	timeout: IDLE_MS,
	maxFreeSockets: MAX_IDLE,
	scheduling: 'lifo' as const,
};
const pool = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };

export interface KeptAliveRequest {
	method: string;
	headers: Record<string, string>;
	body?: string | Buffer;
	/**
	 * Whether the request may go over a connection an earlier request left open. Only for reads: a connection
	 * the server closes just as a request is sent fails it, and a read is then simply sent again on a fresh
	 * one, while a write's outcome would be uncertain. Writes always open a connection of their own.
	 */
	reuse: boolean;
	/** Until the whole answer has arrived; 0 = no limit. */
	timeoutMs: number;
	cancel?: AbortSignal;
}

export interface KeptAliveResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: Readable;
}

/** The answer's body as the service meant it: compressed answers are inflated, as n8n's helper does. */
function decoded(answer: IncomingMessage): Readable {
	const encoding = String(answer.headers['content-encoding'] ?? '')
		.trim()
		.toLowerCase();
	const inflate =
		encoding === 'gzip' || encoding === 'x-gzip'
			? createGunzip()
			: encoding === 'deflate'
				? createInflate()
				: encoding === 'br'
					? createBrotliDecompress()
					: undefined;
	if (!inflate) return answer;
	answer.on('error', (error) => inflate.destroy(error));
	inflate.once('close', () => {
		if (!answer.complete) answer.destroy();
	});
	return answer.pipe(inflate);
}

/**
 * One request on n8n's main thread over connections kept open between requests (`node:http`/`node:https`,
 * certificates checked against Node's trusted ones). n8n's request helper opens a new connection for every
 * request and runs it through axios, which costs more per item than the service's answer on a fast network.
 * The answer's head comes back as soon as it arrives; its body is read by the caller. Answers, failures and the
 * timeout come in the shapes the transport already interprets for the transfer paths. Redirects are not
 * followed. Used where `keptAlivePath` allows it.
 */
export async function sendKeptAlive(
	url: string,
	job: KeptAliveRequest,
): Promise<KeptAliveResponse | AnswerTimeoutError> {
	if (job.cancel?.aborted) throw cancelled();
	const first = await exchange(url, job, job.reuse);
	// A reused connection the server had just closed: nothing reached it, so the read goes again at once.
	if ('stale' in first) return await exchange(url, job, false).then(settled);
	return first.outcome;
}

type Attempt = { outcome: KeptAliveResponse | AnswerTimeoutError } | { stale: Error };

function settled(attempt: Attempt): KeptAliveResponse | AnswerTimeoutError {
	if ('stale' in attempt) throw attempt.stale;
	return attempt.outcome;
}

async function exchange(url: string, job: KeptAliveRequest, reuse: boolean): Promise<Attempt> {
	const target = new URL(url);
	const https = target.protocol === 'https:';
	const body =
		job.body === undefined
			? undefined
			: Buffer.isBuffer(job.body)
				? job.body
				: Buffer.from(job.body);
	const headers = { ...job.headers };
	if (body) headers['content-length'] = String(body.length);
	const req: ClientRequest = (https ? httpsRequest : httpRequest)(target, {
		method: job.method,
		headers,
		// `false`: a connection of its own, closed after the answer.
		agent: reuse ? pool[https ? 'https' : 'http'] : false,
	});
	let answer: IncomingMessage | undefined;
	let timer: ReturnType<typeof setTimeout> | undefined;
	return await new Promise<Attempt>((resolve, reject) => {
		let done = false;
		const finish = (outcome: Attempt | Error) => {
			if (done) return;
			done = true;
			job.cancel?.removeEventListener('abort', onCancel);
			if (outcome instanceof Error) reject(outcome);
			else resolve(outcome);
		};
		const stop = () => {
			clearTimeout(timer);
			job.cancel?.removeEventListener('abort', onCancel);
		};
		const onCancel = () => {
			stop();
			req.destroy();
			answer?.destroy(cancelled());
			finish(cancelled());
		};
		job.cancel?.addEventListener('abort', onCancel, { once: true });
		if (job.timeoutMs > 0) {
			timer = setTimeout(() => {
				const expired = new AnswerTimeoutError(job.timeoutMs);
				req.destroy();
				// Once the head has arrived the caller reads the body: the timeout fails that read.
				answer?.destroy(expired);
				finish({ outcome: expired });
			}, job.timeoutMs);
		}
		req.once('response', (response: IncomingMessage) => {
			answer = response;
			response.once('close', stop);
			finish({
				outcome: {
					statusCode: response.statusCode ?? 0,
					headers: response.headers,
					body: decoded(response),
				},
			});
		});
		req.on('error', (error: NodeJS.ErrnoException) => {
			if (answer) return;
			stop();
			const code = error.code ?? 'ECONNRESET';
			// Only the code: Node's messages may quote the address.
			const reason = failure(code, `the request failed (${code})`);
			if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE'))
				finish({ stale: reason });
			else finish(reason);
		});
		req.end(body);
	});
}
