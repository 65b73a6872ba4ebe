import { Readable } from 'node:stream';
import type { IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import { MODE_MARKER_HEADER } from '../auth/auth-mode';
import { authenticatorOf } from '../auth/authenticators';
import {
	ERROR_BODY_BYTES,
	readCapped,
	ResponseTooLargeError,
	toUrlEncoded,
	type RawAnswer,
} from './body';
import {
	certificateError,
	handshakeError,
	protocolError,
	protocolWayRound,
	proxyError,
	readFailedError,
	redirectError,
	statusError,
	timeoutError,
	tooLargeError,
	uncertainTimeoutError,
	uncertainWriteError,
	unexpectedBodyError,
	unreachableError,
	type ErrorContext,
} from './errors';
import { sendUploadFromDisk } from './disk-upload';
import { classifyFailure, type ProxyFailure } from './failures';
import { helperFailure, watchingHelper, type HelperRequest } from './helper-requests';
import { proxyFor } from './proxy';
import { proxyRefusal, unsupportedProxy } from './proxy-failures';
import { parseRetryAfter, policyOf, retrySecondsInText } from './retry';
import {
	AnswerTimeoutError,
	answerDeadline,
	configuredTimeoutMs,
	DEFAULT_TIMEOUT_MS,
	idleWatched,
} from './timeout';
import { runCredentials } from './run-credentials';
import { withOutcome } from '../errors/outcome';
import { displayUrl, insecureUrlProblem, withoutQueryStrings } from '../urls';
import { sendDownloadOnSocket } from './socket-exchange';
import { sendCall } from './calls';
import { TransportError } from './transport-error';
import { reconciling, retrying, settledWrite, type Step } from './around-send';
import { pathFor } from './routing';
import {
	multipartOf,
	onDiskOf,
	type ApiRequest,
	type ApiResponse,
	type RequestBody,
	type RequestContext,
} from './request-types';

export type { ApiRequest, ApiResponse, HttpMethod, RequestContext } from './request-types';

const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

async function buildBody(
	body: RequestBody | undefined,
	headers: Record<string, string>,
): Promise<IHttpRequestOptions['body']> {
	switch (body?.kind) {
		case 'file':
			return await multipartOf(body.upload);
		case 'form':
			return toUrlEncoded(body.fields);
		case 'json':
			headers['content-type'] ??= 'application/json';
			// Left as an object so a token credential can add its body fields; n8n serialises it.
			return body.value as IHttpRequestOptions['body'];
		case 'raw':
			return body.bytes;
		case undefined:
			return undefined;
	}
}

function isStream(body: unknown): body is NodeJS.ReadableStream {
	return typeof (body as NodeJS.ReadableStream | undefined)?.pipe === 'function';
}

/** The caller's headers, with the auth-mode marker the credential's `authenticate` reads (and removes). */
function markedHeaders(opts: ApiRequest): Record<string, string> {
	const headers: Record<string, string> = { ...opts.headers };
	if (opts.credential) headers[MODE_MARKER_HEADER] = opts.credential.mode ?? 'fields';
	return headers;
}

/** The cap on an answer read into memory: the caller's, else 32 MiB. */
function maxBytesOf(opts: ApiRequest): number {
	const answer = opts.answer;
	return (
		(answer && 'maxBytes' in answer ? answer.maxBytes : undefined) ?? DEFAULT_MAX_RESPONSE_BYTES
	);
}

/** Every path names its client as n8n's helper does: some servers and firewalls refuse requests without a name. */
const NAMED: Record<string, string> = { 'user-agent': 'n8n' };

/** A request as the transport sends it itself, outside n8n's helper. */
interface OwnRequest {
	/** With `query` joined, as n8n's helper would add it (the legacy scripts document some parameters there). */
	url: string;
	method: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	body: IHttpRequestOptions['body'];
	cancel?: AbortSignal;
}

/**
 * The request with the credential's own `authenticate` applied (`authenticatorOf`), for requests the transport
 * sends itself: the body fields (appended to a URLSearchParams or object body) or headers n8n's helper would add,
 * never URL parameters. Anonymous without a `credential` (upload by upload key, LINK downloads).
 */
async function authenticated(
	ctx: RequestContext,
	opts: ApiRequest,
	headers: Record<string, string>,
	body: IHttpRequestOptions['body'],
): Promise<OwnRequest> {
	let request: IHttpRequestOptions = {
		url: opts.url,
		method: opts.method as IHttpRequestMethods,
		headers: { ...headers },
		body,
	};
	const { credential } = opts;
	if (credential) {
		request.headers![MODE_MARKER_HEADER] = credential.mode ?? 'fields';
		const credentials = await runCredentials(ctx, credential.type, opts.itemIndex);
		request = await authenticatorOf(credential.type)!(credentials, request);
	}
	const sent: Record<string, string> = {};
	for (const [name, value] of Object.entries(request.headers ?? {}))
		if (value !== undefined && value !== null) sent[name.toLowerCase()] = String(value);
	const url = new URL(opts.url);
	for (const [name, value] of Object.entries(opts.query ?? {}))
		url.searchParams.append(name, String(value));
	return {
		url: url.toString(),
		method: request.method ?? 'POST',
		headers: sent,
		body: request.body,
		cancel: 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined,
	};
}

/**
 * One request on the path `pathFor` picks, each the same `send -> answer`: the answer, or the timeout error when
 * a streamed body's answer did not start in time.
 */
async function send(
	ctx: RequestContext,
	opts: ApiRequest,
	timeoutMs: number,
): Promise<RawAnswer | AnswerTimeoutError> {
	const path = pathFor(opts);
	if (path === 'own socket') return await sendOnOwnSocket(ctx, opts, timeoutMs);
	if (path === 'undici') return await sendOnKeptAlive(ctx, opts, timeoutMs);
	// Watched from before the body is built: a request n8n's helper starts from the body's stream events runs
	// in the context the stream was made in.
	const seen: HelperRequest[] = [];
	return await watchingHelper(
		seen,
		opts.url,
		async () => await sendOnHelper(ctx, opts, timeoutMs, seen),
	);
}

/** A file transfer on the transport's own socket: an upload of a file on disk, or a download into n8n's store. */
async function sendOnOwnSocket(
	ctx: RequestContext,
	opts: ApiRequest,
	timeoutMs: number,
): Promise<RawAnswer | AnswerTimeoutError> {
	const { body } = opts;
	const upload = body?.kind === 'file' ? onDiskOf(body.upload) : undefined;
	// Left out as the multipart path leaves them out (`multipartWithFile`): undefined and empty upload fields.
	const form = upload
		? new URLSearchParams(
				Object.entries(upload.fields).filter((entry) => entry[1]) as Array<[string, string]>,
			)
		: toUrlEncoded(body?.kind === 'form' ? body.fields : {});
	const signed = await authenticated(ctx, opts, { ...NAMED, ...opts.headers }, form);
	const { url, headers, cancel } = signed;
	const post = {
		url,
		headers,
		form: signed.body instanceof URLSearchParams ? signed.body : form,
		cancel,
	};
	const maxBytes = maxBytesOf(opts);
	return upload
		? await sendUploadFromDisk(post, upload.file, timeoutMs, maxBytes)
		: await sendDownloadOnSocket(post, timeoutMs, maxBytes);
}

/** A request n8n's helper sends. */
async function sendOnHelper(
	ctx: RequestContext,
	opts: ApiRequest,
	timeoutMs: number,
	seen: HelperRequest[],
): Promise<RawAnswer | AnswerTimeoutError> {
	const headers = markedHeaders(opts);
	const body = await buildBody(opts.body, headers);
	// n8n's timeout runs from the start of the request: a streamed body gets a limit of its own instead. Only
	// form-data's (legacy) stream is watched: a 'data' listener would start a modern stream flowing.
	const deadline =
		timeoutMs > 0 && isStream(body) && !(body instanceof Readable)
			? answerDeadline(body, timeoutMs)
			: undefined;
	const stop = new AbortController();
	const request: IHttpRequestOptions = {
		url: opts.url,
		method: opts.method as IHttpRequestMethods,
		headers,
		body,
		qs: opts.query,
		json: false,
		encoding: 'stream',
		returnFullResponse: true,
		// A session refresh needs n8n to see the 401; every other status is interpreted here.
		ignoreHttpStatusErrors:
			opts.credential?.mode === 'session' ? { ignore: true, except: [401] } : true,
		// Following redirects would buffer upload bodies in memory and could carry credentials elsewhere.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: deadline ? 0 : timeoutMs,
	};
	abortable(request, stop.signal);
	const type = opts.credential?.type;
	const pending = (async () =>
		type
			? ((await ctx.helpers.httpRequestWithAuthentication.call(ctx, type, request, {
					// Read once per node run: n8n would otherwise look it up and decrypt it again for every request.
					credentialsDecrypted: {
						id: '',
						name: type,
						type,
						data: await runCredentials(ctx, type, opts.itemIndex),
					},
				})) as RawAnswer)
			: ((await ctx.helpers.httpRequest(request)) as RawAnswer))().catch((error: unknown) => {
		throw helperFailure(seen, error);
	});
	// Given up on (the Timeout, a body dropped unread): the request is aborted and its socket closed.
	const abandon = () => {
		stop.abort();
		for (const sent of seen) sent.close();
	};
	const answered = (raw: RawAnswer) => watched(raw, timeoutMs, seen, abandon);
	if (!deadline) return answered(await pending);
	try {
		const outcome = await Promise.race([pending.then(answered), deadline.expired]);
		if (outcome instanceof AnswerTimeoutError) {
			abandon();
			pending.then(
				(late) => late.body.destroy(),
				() => undefined,
			);
			// A handshake that never completed sent nothing: not a write left in doubt.
			const notSent = helperFailure(seen, outcome);
			if (notSent !== outcome) throw notSent;
		}
		return outcome;
	} finally {
		deadline.settle();
	}
}

/**
 * n8n's helper bounds only the wait for the head: the answer's body gets the node's Timeout as a limit on silence.
 * A body given up on before its end aborts the request (`abandon`): n8n's helper hides its socket behind the body.
 */
function watched(
	raw: RawAnswer,
	timeoutMs: number,
	seen: HelperRequest[],
	abandon: () => void,
): RawAnswer {
	const failed = (error: unknown) => helperFailure(seen, error) as Error;
	return { ...raw, body: idleWatched(raw.body, timeoutMs, failed, undefined, abandon) };
}

/**
 * Hands n8n's helper the transport's abort signal. n8n sets its own (the execution's cancel signal) on an
 * authenticated request: then both abort it.
 */
function abortable(request: IHttpRequestOptions, own: AbortSignal): void {
	let signal = own;
	Object.defineProperty(request, 'abortSignal', {
		enumerable: true,
		configurable: true,
		get: () => signal,
		set: (other?: AbortSignal) => {
			signal = other && other !== own ? AbortSignal.any([own, other]) : own;
		},
	});
}

const DEFAULT_HEADERS: Record<string, string> = {
	accept: 'application/json, text/plain, */*',
	'accept-encoding': 'gzip, deflate, br',
	...NAMED,
};

/** A call on the transport's kept-alive connections (undici, `calls.ts`). */
async function sendOnKeptAlive(
	ctx: RequestContext,
	opts: ApiRequest,
	timeoutMs: number,
): Promise<RawAnswer | AnswerTimeoutError> {
	const headers = markedHeaders(opts);
	const request = await authenticated(ctx, opts, headers, await buildBody(opts.body, headers));
	const sent = request.headers;
	for (const [name, value] of Object.entries(DEFAULT_HEADERS)) sent[name] ??= value;
	let payload: string | Buffer | undefined;
	const final = request.body;
	if (final instanceof URLSearchParams) {
		payload = final.toString();
		sent['content-type'] ??= 'application/x-www-form-urlencoded';
	} else if (typeof final === 'string' || Buffer.isBuffer(final)) {
		payload = final;
	} else if (final !== undefined && final !== null) {
		payload = JSON.stringify(final);
		sent['content-type'] ??= 'application/json';
	}
	return await sendCall(request.url, {
		method: request.method,
		headers: sent,
		body: payload,
		reuse: opts.write === undefined,
		timeoutMs,
		cancel: request.cancel,
	});
}

/** Where a redirect points, shown without query string or user info (which may hold secrets). */
function redirectTarget(requestUrl: string, location: string | undefined): string | undefined {
	if (!location) return undefined;
	try {
		return displayUrl(new URL(location, requestUrl).toString());
	} catch {
		return undefined;
	}
}

function header(raw: RawAnswer, name: string): string | undefined {
	const value = raw.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * An error answer's text, for its message: at most `ERROR_BODY_BYTES`, within the Timeout in all (an answer that
 * trickles would otherwise hold the item, since every byte restarts the silence limit). Otherwise none.
 */
async function readErrorBody(raw: RawAnswer, timeoutMs: number): Promise<string> {
	const deadline = timeoutMs > 0 ? setTimeout(() => raw.body.destroy(), timeoutMs) : undefined;
	try {
		return (await readCapped(raw.body, ERROR_BODY_BYTES)).toString('utf8');
	} catch {
		raw.body.destroy();
		return '';
	} finally {
		clearTimeout(deadline);
	}
}

function parseJson(ctx: ErrorContext, raw: RawAnswer, text: string): unknown {
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		const type = header(raw, 'content-type') ?? '';
		throw unexpectedBodyError(
			ctx,
			/html/i.test(type) || /^\s*</.test(text) ? 'an HTML page' : 'plain text',
		);
	}
}

async function decode(ctx: ErrorContext, opts: ApiRequest, raw: RawAnswer): Promise<unknown> {
	const as = opts.answer?.as ?? 'json';
	if (as === 'stream' || as === 'store') return raw.body;
	const text = (await readCapped(raw.body, maxBytesOf(opts))).toString('utf8');
	return as === 'text' ? text : parseJson(ctx, raw, text);
}

async function attempt<T>(
	ctx: RequestContext,
	opts: ApiRequest,
	errorCtx: ErrorContext,
	timeoutMs: number,
): Promise<Step<T>> {
	let raw: RawAnswer;
	try {
		const outcome = await send(ctx, opts, timeoutMs);
		if (outcome instanceof AnswerTimeoutError)
			return afterTransportFailure(opts, errorCtx, outcome, false, timeoutMs);
		raw = outcome;
	} catch (error) {
		return afterTransportFailure(opts, errorCtx, error, false, timeoutMs);
	}

	const status = raw.statusCode;
	// n8n's helper hands on a proxy's 407 as the answer; only a proxy asks for its credentials.
	const proxy = status === 407 ? proxyFor(opts.url) : undefined;
	if (proxy) {
		raw.body.destroy();
		throw notSent(
			opts,
			proxyError(errorCtx, proxyRefusal(proxy, new URL(opts.url), 407) as ProxyFailure),
		);
	}
	const accepted = (opts.answer?.accept ?? []).includes(status);
	if (!accepted && (status === 429 || (opts.retry?.statuses ?? []).includes(status))) {
		const body = await readErrorBody(raw, timeoutMs);
		const hintMs = parseRetryAfter(header(raw, 'retry-after')) ?? retrySecondsInText(body);
		return { retry: statusError(errorCtx, status, body), hintMs };
	}
	if (!accepted && (opts.write?.uncertainStatuses ?? []).includes(status)) {
		return { uncertain: statusError(errorCtx, status, await readErrorBody(raw, timeoutMs)) };
	}
	if (!accepted && status >= 500) {
		const body = await readErrorBody(raw, timeoutMs);
		if (opts.write)
			return { uncertain: uncertainWriteError(errorCtx, `the service answered ${status}`, status) };
		return {
			retry: readFailedError(errorCtx, status, body),
			repeatKey: status === 500 ? `${status} ${body}` : undefined,
		};
	}
	if (!accepted && status >= 400)
		throw statusError(errorCtx, status, await readErrorBody(raw, timeoutMs));
	if (!accepted && status >= 300 && status !== 304) {
		raw.body.destroy();
		throw redirectError(
			errorCtx,
			status,
			redirectTarget(opts.url, header(raw, 'location')),
			Boolean(opts.write),
		);
	}

	try {
		return {
			done: { status, headers: raw.headers, body: (await decode(errorCtx, opts, raw)) as T },
		};
	} catch (error) {
		if (error instanceof ResponseTooLargeError) throw tooLargeError(errorCtx, error.maxBytes);
		return afterTransportFailure(opts, errorCtx, error, true, timeoutMs);
	}
}

/** An error passed through unchanged, except that no URL in its message keeps its query string. */
function scrubbed(error: unknown): unknown {
	if (error instanceof Error) {
		const clean = withoutQueryStrings(error.message);
		if (clean !== error.message) error.message = clean;
		if (typeof error.stack === 'string') error.stack = withoutQueryStrings(error.stack);
	}
	return error;
}

function afterTransportFailure<T>(
	opts: ApiRequest,
	errorCtx: ErrorContext,
	error: unknown,
	statusReceived: boolean,
	timeoutMs: number,
): Step<T> {
	const failure = classifyFailure(error);
	if (failure.kind === 'http') throw statusError(errorCtx, failure.status ?? 0);
	const target = new URL(opts.url);
	if (failure.kind === 'aborted' || failure.kind === 'other') throw scrubbed(error);
	if (failure.kind === 'proxy') {
		// Nothing reached the service, so even a write may go again when trying again can help.
		const refused = notSent(opts, proxyError(errorCtx, error as ProxyFailure));
		if ((error as ProxyFailure).retry) return { retry: refused };
		throw refused;
	}
	if (failure.kind === 'certificate')
		throw notSent(
			opts,
			failure.code.startsWith('ERR_SSL_')
				? handshakeError(errorCtx, target.host, failure.code)
				: certificateError(errorCtx, target.hostname, failure.code),
		);
	if (failure.kind === 'protocol') {
		const refused = protocolError(errorCtx, failure.code, (error as Error).message ?? '');
		// Sent, and its answer unreadable: a write may have been applied.
		if (!opts.write) throw refused;
		const wayRound = protocolWayRound(failure.code);
		return {
			uncertain: uncertainWriteError(
				errorCtx,
				`its answer broke HTTP/1.1 (${failure.code})`,
				undefined,
				wayRound,
			),
			wayRound,
		};
	}
	if (failure.kind === 'timeout' && !statusReceived && timeoutMs > 0) {
		// A read is repeated like any transient failure; a write may be running on the service right now.
		if (!opts.write) return { retry: timeoutError(errorCtx, timeoutMs) };
		return { uncertain: uncertainTimeoutError(errorCtx, timeoutMs), timedOut: true };
	}
	const unreachable = unreachableError(
		errorCtx,
		displayUrl(opts.url),
		failure.code,
		!statusReceived || failure.kind === 'unreachable'
			? undefined
			: failure.kind === 'timeout'
				? 'stalled'
				: 'dropped',
	);
	// Nothing reached the service when the connection was refused, so even a write may be repeated.
	if (!opts.write || failure.kind === 'unreachable') return { retry: notSent(opts, unreachable) };
	const reason = statusReceived
		? failure.kind === 'timeout'
			? 'its answer stalled while it was read'
			: 'the connection dropped while the answer was read'
		: failure.kind === 'timeout'
			? 'the request timed out'
			: 'the connection dropped';
	return { uncertain: uncertainWriteError(errorCtx, reason) };
}

const HASH_FIELDS: Array<[string, string]> = [
	['file_hash', 'file'],
	['folder_hash', 'folder'],
	['parent_folder_hash', 'parent folder'],
];

/** The hashes a storage request names, as `file "H7", folder "F2"`, for the error that refuses it. */
function hashesNamed(opts: ApiRequest): string | undefined {
	if (opts.api !== 'v2' && opts.api !== 'v1') return undefined;
	const { body } = opts;
	const fields: Record<string, unknown> = {
		...opts.query,
		...(body?.kind === 'file' ? body.upload.fields : {}),
		...(body?.kind === 'form' ? body.fields : {}),
	};
	const named = HASH_FIELDS.filter(([field]) => typeof fields[field] === 'string' && fields[field])
		.map(([field, label]) => `${label} "${String(fields[field])}"`)
		.join(', ');
	return named || undefined;
}

/** A write refused before any byte of it left: marked as not applied (`WriteOutcome`). */
function notSent<E extends Error>(opts: ApiRequest, error: E): E {
	return opts.write ? withOutcome(error, 'not-applied') : error;
}

/** The one function through which every node talks HTTP: status first, then body; retries by the rules of the spec. */
export async function apiRequest<T = unknown>(
	ctx: RequestContext,
	opts: ApiRequest,
): Promise<ApiResponse<T>> {
	const errorCtx: ErrorContext = {
		api: opts.api,
		itemIndex: opts.itemIndex,
		subject: hashesNamed(opts),
	};
	const problem = insecureUrlProblem(opts.url);
	if (problem)
		throw new TransportError('CS_INSECURE_URL', problem, {
			kind: 'input',
			itemIndex: opts.itemIndex,
		});
	const unspoken = unsupportedProxy(opts.url, opts.itemIndex);
	if (unspoken) throw notSent(opts, unspoken);

	const timeoutMs =
		opts.timeoutMs ?? configuredTimeoutMs(ctx, opts.itemIndex) ?? DEFAULT_TIMEOUT_MS;
	const policy = policyOf(opts.retry);
	const once = async () => await attempt<T>(ctx, opts, errorCtx, timeoutMs);
	try {
		return await retrying(reconciling(once, opts.write, timeoutMs), policy, Boolean(opts.write));
	} catch (error) {
		throw opts.write ? settledWrite(error) : error;
	}
}
