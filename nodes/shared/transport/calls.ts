import type { Readable } from 'node:stream';
import { pipeline, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, Client, type Dispatcher } from 'undici';

import { AnswerTimeoutError } from './timeout';
import { cancelled, failure } from './failures';
import { IdleLimit, idleFailure } from './idle';

/**
 * undici's own limits are off: the node's Timeout is counted by the transport's timers (`IdleLimit`), the
 * same on every path and driven by fake timers in tests. undici's would also cut a connect after 10 s.
 */
const NO_LIMITS = { headersTimeout: 0, bodyTimeout: 0, connect: { timeout: 0 } };

/**
 * Idle connections close after 4 s, or earlier when the server's `Keep-Alive: timeout=` says so, less a
 * second: below the 5 s most servers keep them, so a read seldom meets a connection the server is closing.
 * undici opens as many connections per server as calls run at once: no call waits for another's to end.
 */
const pool = new Agent({
	...NO_LIMITS,
	keepAliveTimeout: 4000,
	keepAliveMaxTimeout: 4000,
	keepAliveTimeoutThreshold: 1000,
});

/**
 * Where calls go instead, for the unit tests only: nock intercepts node:http, which undici does not use, so
 * they route calls through a dispatcher over node:http (`test/unit/offline.ts`). Unset: undici's own.
 */
let replaced: Dispatcher | undefined;
export function routeCallsThrough(dispatcher: Dispatcher | undefined): void {
	replaced = dispatcher;
}

export interface CallRequest {
	method: string;
	headers: Record<string, string>;
	body?: string | Buffer;
	/**
	 * Whether the request may go over a connection an earlier request left open. Only for reads: a connection
	 * the server closes just as a request is sent fails it, and a read is then simply sent again on a fresh
	 * one, while a write's outcome would be uncertain. Writes always get a connection of their own.
	 */
	reuse: boolean;
	/** The longest silence: until the head, then between pieces of the body; 0 = no limit. */
	timeoutMs: number;
	cancel?: AbortSignal;
}

export interface CallResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: Readable;
}

/**
 * One call (anything but a file transfer) through undici on n8n's main thread: reads over pooled kept-alive
 * connections, writes each on a connection of its own that closes after the answer. n8n's request helper
 * opens a new connection for every request and runs it through axios, which costs more per item than the
 * service's answer on a fast network. Certificates are checked against Node's trusted ones; redirects are not
 * followed. The head comes back as soon as it arrives; the caller reads the body. Answers, failures and the
 * timeout come in the shapes the transport interprets for every path. Used where `keptAlivePath` allows it.
 */
export async function sendCall(
	url: string,
	job: CallRequest,
): Promise<CallResponse | AnswerTimeoutError> {
	if (job.cancel?.aborted) throw cancelled();
	const target = new URL(url);
	// undici does not say which connection a request took: an idle one kept for this server means reuse.
	const kept = pool.stats[target.origin];
	const reused = job.reuse && kept !== undefined && 'free' in kept && kept.free > 0;
	const first = await exchange(target, job, job.reuse).then(
		(outcome) => ({ outcome }),
		(failed: Error & { code?: string }) => ({ failed }),
	);
	if ('outcome' in first) return first.outcome;
	// A kept connection the server had just closed: nothing reached it, so the read goes again at once.
	if (reused && STALE.has(first.failed.code ?? '')) return await exchange(target, job, false);
	throw first.failed;
}

const STALE = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

async function exchange(
	target: URL,
	job: CallRequest,
	pooled: boolean,
): Promise<CallResponse | AnswerTimeoutError> {
	const own = pooled || replaced ? undefined : new Client(target.origin, NO_LIMITS);
	const release = () => void own?.destroy().catch(() => undefined);
	const stop = new AbortController();
	const onCancel = () => stop.abort(cancelled());
	job.cancel?.addEventListener('abort', onCancel, { once: true });
	const waiting = new IdleLimit(job.timeoutMs, () =>
		stop.abort(new AnswerTimeoutError(job.timeoutMs)),
	);
	let answer: Dispatcher.ResponseData;
	try {
		answer = await (own ?? replaced ?? pool).request({
			origin: target.origin,
			path: `${target.pathname}${target.search}`,
			method: job.method as Dispatcher.HttpMethod,
			headers: job.headers,
			body: job.body,
			signal: stop.signal,
			// A connection of its own also tells the server it closes after this answer.
			reset: !pooled,
		});
	} catch (error) {
		job.cancel?.removeEventListener('abort', onCancel);
		release();
		if (!stop.signal.aborted) throw translated(error, false);
		const reason = stop.signal.reason as Error;
		if (reason instanceof AnswerTimeoutError) return reason;
		throw reason;
	} finally {
		waiting.stop();
	}
	const body = watched(
		answer.body,
		job.timeoutMs,
		(error) => (stop.signal.aborted ? (stop.signal.reason as Error) : translated(error, true)),
		() => {
			job.cancel?.removeEventListener('abort', onCancel);
			release();
		},
	);
	return {
		statusCode: answer.statusCode,
		headers: answer.headers,
		body: decoded(body, answer.headers['content-encoding']),
	};
}

/**
 * The body, failing with `idleFailure` once nothing arrived for the node's Timeout (never while data flows),
 * and with undici's failures in the transport's shapes.
 */
function watched(
	source: Readable,
	timeoutMs: number,
	failed: (error: unknown) => Error,
	onClose: () => void,
): Readable {
	const relay = new Transform({
		transform(chunk: Buffer, _encoding, done) {
			limit.touch();
			done(null, chunk);
		},
		// The answer ends once undici has handed its connection back (a microtask after the body's end): the
		// next call then reuses it instead of opening another.
		flush: (done) => void setImmediate(done),
	});
	const limit = new IdleLimit(timeoutMs, () => relay.destroy(idleFailure(timeoutMs)));
	source.on('error', (error) => relay.destroy(failed(error)));
	relay.once('close', () => {
		limit.stop();
		if (!source.readableEnded) source.destroy();
		onClose();
	});
	return source.pipe(relay);
}

const INFLATE = new Map<string, () => Transform>([
	['gzip', createGunzip],
	['x-gzip', createGunzip],
	['deflate', createInflate],
	['br', createBrotliDecompress],
]);

/** The answer's body as the service meant it: compressed answers are inflated, as n8n's helper does. */
function decoded(body: Readable, contentEncoding: string | string[] | undefined): Readable {
	const inflate = INFLATE.get(
		String(contentEncoding ?? '')
			.trim()
			.toLowerCase(),
	)?.();
	return inflate ? pipeline(body, inflate, () => undefined) : body;
}

/**
 * undici's failures as the transport classifies them. Only the code and llhttp's reason: Node's messages may
 * quote the address. undici's parser reports a head that breaks HTTP/1.1 (a folded or malformed line, a NUL,
 * conflicting lengths) as a length mismatch once a Content-Length was read, and refuses a 100 Continue the
 * request did not ask for as a "bad response": both are named for what they are.
 */
function translated(error: unknown, headArrived: boolean): Error {
	const caught = error as { code?: string; name?: string; message?: string };
	const code = caught.code ?? '';
	if (caught.name === 'HTTPParserError') {
		const reason = /\(([^()]*)\)$/.exec(caught.message ?? '')?.[1];
		return failure(
			code || 'HPE_INVALID',
			`The answer broke HTTP/1.1${reason ? ` (${reason})` : ''}`,
		);
	}
	if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' && !headArrived)
		return failure(
			code,
			'The answer has a head that breaks HTTP/1.1 (a malformed, folded or conflicting header line)',
		);
	if (code === 'UND_ERR_SOCKET' && caught.message === 'bad response' && !headArrived)
		return failure(
			'HPE_UNREQUESTED_CONTINUE',
			"The answer began with a 100 Continue the request did not ask for, which the pack's HTTP client (undici) refuses",
		);
	if (code === 'UND_ERR_HEADERS_OVERFLOW')
		return failure('HPE_HEADER_OVERFLOW', 'the request failed (HPE_HEADER_OVERFLOW)');
	const shown = code || 'ECONNRESET';
	return failure(shown, `the request failed (${shown})`);
}
