import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';

import type { RawAnswer } from './body';
import { AnswerTimeoutError, IdleLimit, idleWatched } from './timeout';
import { cancelled, classifyFailure, failure, handshakeCode } from './failures';
import {
	answeredThrough,
	dispatcherFor,
	mayReuse,
	noteStart,
	retirePool,
} from './call-dispatchers';
import { proxyFor } from './proxy';
import { proxyFailureOf, proxyRefusal, proxySilence } from './proxy-failures';

/** For the unit tests only: nock intercepts node:http, so they route calls through a dispatcher over it (`offline.ts`). */
let replaced: Dispatcher | undefined;
export function routeCallsThrough(dispatcher: Dispatcher | undefined): void {
	replaced = dispatcher;
}

export interface CallRequest {
	method: string;
	headers: Record<string, string>;
	body?: string | Buffer;
	/**
	 * Reads may go over a connection an earlier request left open: one the server closes just as it is reused is
	 * simply sent again. A write's outcome would then be uncertain: it always gets a connection of its own.
	 */
	reuse: boolean;
	/** The longest silence: until the head, then between pieces of the body; 0 = no limit. */
	timeoutMs: number;
	cancel?: AbortSignal;
}

/**
 * One call (anything but a file transfer) through undici: reads over pooled kept-alive connections, writes each
 * on a connection of its own, directly or through the proxy n8n's own requests take (`proxyFor`). n8n's helper
 * opens a connection per request and runs it through axios, which costs more per item than the service's answer
 * on a fast network. No redirects are followed. Answers, failures and the timeout come in the shapes the
 * transport interprets for every path. Used where `keptAlivePath` allows it.
 */
export async function sendCall(
	url: string,
	job: CallRequest,
): Promise<RawAnswer | AnswerTimeoutError> {
	if (job.cancel?.aborted) throw cancelled();
	const target = new URL(url);
	// A proxy no request can go through was refused before (`unsupportedProxy`).
	const proxy = replaced ? undefined : proxyFor(url);
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
): Promise<RawAnswer | AnswerTimeoutError> {
	const { dispatcher, release, connecting, tunnelling } = replaced
		? {
				dispatcher: replaced,
				release: () => undefined,
				connecting: undefined,
				tunnelling: undefined,
			}
		: dispatcherFor(target.origin, pooled, proxy);
	// A read through the proxy's pool: whether a connection took it tells the proxy's silence from the service's
	// (a write's own connection tells it by itself).
	let taken = false;
	const sending =
		pooled && proxy && !replaced ? noteStart(dispatcher, () => (taken = true)) : dispatcher;
	const stop = new AbortController();
	const onCancel = () => stop.abort(cancelled());
	job.cancel?.addEventListener('abort', onCancel, { once: true });
	const waiting = new IdleLimit(job.timeoutMs, () =>
		stop.abort(new AnswerTimeoutError(job.timeoutMs)),
	);
	const sent = sending.request({
		origin: target.origin,
		path: `${target.pathname}${target.search}`,
		method: job.method as Dispatcher.HttpMethod,
		headers: job.headers,
		body: job.body,
		signal: stop.signal,
		// A connection of its own also tells the server (or the proxy) it closes after this answer.
		reset: !pooled,
	});
	// undici aborts a request only once a connection took it: one waiting for a CONNECT the proxy never answers
	// would outlast the Timeout and a cancellation, so the wait ends here.
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
		// Asked before `release` closes it: a connection still in its TLS handshake sent nothing.
		const handshaking = target.protocol === 'https:' && connecting?.() === true && !taken;
		const unopened = tunnelling?.() === true && !taken;
		job.cancel?.removeEventListener('abort', onCancel);
		release();
		if (!stop.signal.aborted) {
			const failed = translated(error, false, proxy, target);
			// A proxy's refusal (a forwarded read's 407 comes as an error): its kept connections are closed now.
			if (pooled && proxy && classifyFailure(failed).kind === 'proxy')
				retirePool(target.origin, proxy);
			throw failed;
		}
		// An answer that still comes is discarded, which also frees its connection.
		sent.then(
			(late) => late.body.destroy(),
			() => undefined,
		);
		const reason = stop.signal.reason as Error;
		if (!(reason instanceof AnswerTimeoutError)) throw reason;
		if (pooled) retirePool(target.origin, proxy);
		if (handshaking)
			throw failure('ERR_TLS_HANDSHAKE_TIMEOUT', 'the TLS handshake did not complete');
		if (proxy && unopened) throw proxySilence(proxy, target);
		return reason;
	} finally {
		waiting.stop();
	}
	if (proxy && answer.statusCode === 407) {
		// Only a proxy asks for its credentials: nothing reached the service. Every next read would be refused too:
		// the pool's connections to it are closed now, not after their idle time.
		answer.body.destroy();
		job.cancel?.removeEventListener('abort', onCancel);
		release();
		if (pooled) retirePool(target.origin, proxy);
		throw proxyRefusal(proxy, target, 407);
	}
	if (proxy && pooled) answeredThrough(proxy);
	const body = idleWatched(
		answer.body,
		job.timeoutMs,
		(error) =>
			stop.signal.aborted ? (stop.signal.reason as Error) : translated(error, true, proxy, target),
		() => {
			job.cancel?.removeEventListener('abort', onCancel);
			release();
		},
		// Dropped before its end (the Timeout, an error's text cut off): the request is aborted and a read's pool
		// closed, since undici opens a new connection in place of the one a dropped body closes.
		() => {
			stop.abort();
			if (pooled) retirePool(target.origin, proxy);
		},
	);
	return {
		statusCode: answer.statusCode,
		headers: answer.headers,
		body: decoded(body, answer.headers['content-encoding']),
	};
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
 * undici's failures as the transport classifies them, with only the code and llhttp's reason (Node's messages
 * may quote the address, a proxy's its credentials). undici reports a head that breaks HTTP/1.1 as a length
 * mismatch once a Content-Length was read, and an unasked 100 Continue as a "bad response": both are named for
 * what they are. Through a proxy, a failure to connect, a refused CONNECT or a 407 is the proxy's.
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
	// OpenSSL's text quotes its source paths: only the reason goes on, as a code.
	const handshake = headArrived ? undefined : handshakeCode(caught);
	if (handshake) return failure(handshake, 'the TLS handshake failed');
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
