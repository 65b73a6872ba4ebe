import type { Readable } from 'node:stream';
import { pipeline, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';

import { AnswerTimeoutError } from './timeout';
import { cancelled, failure } from './failures';
import { IdleLimit, idleFailure } from './idle';
import { answeredThrough, dispatcherFor, mayReuse, retireProxyPool } from './call-dispatchers';
import { proxyFor, proxySpoken } from './proxy';
import { proxyFailureOf, proxyRefusal } from './proxy-failures';

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
 * connections, writes each on a connection of its own that closes after the answer, directly or through the
 * proxy n8n's own requests take (`proxyFor`, resolved per request). n8n's request helper opens a new connection
 * for every request and runs it through axios, which costs more per item than the service's answer on a fast
 * network. Certificates are checked against Node's trusted ones; redirects are not followed. The head comes back
 * as soon as it arrives; the caller reads the body. Answers, failures and the timeout come in the shapes the
 * transport interprets for every path. Used where `keptAlivePath` allows it: a proxy only undici's proxy agent
 * speaks (http or https) — another (socks) leaves the call to n8n's helper.
 */
export async function sendCall(
	url: string,
	job: CallRequest,
): Promise<CallResponse | AnswerTimeoutError> {
	if (job.cancel?.aborted) throw cancelled();
	const target = new URL(url);
	const proxy = replaced ? undefined : proxyFor(url);
	if (proxy !== undefined && !proxySpoken(proxy))
		throw failure('ERR_PROXY_SCHEME', "calls through this proxy go through n8n's request helper");
	const reused = job.reuse && !replaced && mayReuse(target.origin, proxy);
	const first = await exchange(target, job, job.reuse, proxy).then(
		(outcome) => ({ outcome }),
		(failed: Error & { code?: string }) => ({ failed }),
	);
	if ('outcome' in first) return first.outcome;
	// A kept connection the server (or the proxy) had just closed: nothing reached it, so the read goes again at
	// once, on a connection of its own.
	if (reused && STALE.has(first.failed.code ?? ''))
		return await exchange(target, job, false, proxy);
	throw first.failed;
}

const STALE = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

async function exchange(
	target: URL,
	job: CallRequest,
	pooled: boolean,
	proxy: string | undefined,
): Promise<CallResponse | AnswerTimeoutError> {
	const { dispatcher, release } = replaced
		? { dispatcher: replaced, release: () => undefined }
		: dispatcherFor(target.origin, pooled, proxy);
	const stop = new AbortController();
	const onCancel = () => stop.abort(cancelled());
	job.cancel?.addEventListener('abort', onCancel, { once: true });
	const waiting = new IdleLimit(job.timeoutMs, () =>
		stop.abort(new AnswerTimeoutError(job.timeoutMs)),
	);
	const sent = dispatcher.request({
		origin: target.origin,
		path: `${target.pathname}${target.search}`,
		method: job.method as Dispatcher.HttpMethod,
		headers: job.headers,
		body: job.body,
		signal: stop.signal,
		// A connection of its own also tells the server (or the proxy) it closes after this answer.
		reset: !pooled,
	});
	// undici hands a request its abort only once a connection took it: one still waiting for its connection (a
	// CONNECT the proxy does not answer) would outlast the Timeout and a cancellation. The wait ends here instead.
	const abandoned = new Promise<never>((_resolve, reject) =>
		stop.signal.addEventListener('abort', () => reject(stop.signal.reason as Error), {
			once: true,
		}),
	);
	abandoned.catch(() => undefined);
	let answer: Dispatcher.ResponseData;
	try {
		answer = await Promise.race([sent, abandoned]);
	} catch (error) {
		job.cancel?.removeEventListener('abort', onCancel);
		release();
		if (!stop.signal.aborted) throw translated(error, false, proxy, target);
		// An answer that still comes is discarded, which also frees its connection.
		sent.then(
			(late) => late.body.destroy(),
			() => undefined,
		);
		const reason = stop.signal.reason as Error;
		if (!(reason instanceof AnswerTimeoutError)) throw reason;
		if (proxy && pooled) retireProxyPool(proxy);
		return reason;
	} finally {
		waiting.stop();
	}
	if (proxy && answer.statusCode === 407) {
		// Only a proxy asks for its credentials: nothing reached the service.
		answer.body.destroy();
		job.cancel?.removeEventListener('abort', onCancel);
		release();
		throw proxyRefusal(proxy, target, 407);
	}
	if (proxy && pooled) answeredThrough(proxy);
	const body = watched(
		answer.body,
		job.timeoutMs,
		(error) =>
			stop.signal.aborted ? (stop.signal.reason as Error) : translated(error, true, proxy, target),
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
 * quote the address, and a proxy's address its credentials. undici's parser reports a head that breaks HTTP/1.1
 * (a folded or malformed line, a NUL, conflicting lengths) as a length mismatch once a Content-Length was read,
 * and refuses a 100 Continue the request did not ask for as a "bad response": both are named for what they are.
 * Through a proxy, a failure to connect is the proxy's (the pack connects to nothing else), and so is a refused
 * CONNECT or a 407: they name the proxy.
 */
function translated(
	error: unknown,
	headArrived: boolean,
	proxy: string | undefined,
	target: URL,
): Error {
	const caught = error as { code?: string; name?: string; message?: string };
	const code = caught.code ?? '';
	if (proxy && !headArrived) {
		const refusal = proxyFailureOf(code, caught.message ?? '', proxy, target);
		if (refusal) return refusal;
	}
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
