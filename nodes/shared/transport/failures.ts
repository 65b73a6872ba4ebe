export type FailureKind =
	| 'unreachable'
	| 'timeout'
	| 'dropped'
	| 'protocol'
	| 'certificate'
	| 'aborted'
	| 'proxy'
	| 'http'
	| 'other';

export interface Failure {
	kind: FailureKind;
	code: string;
	status?: number;
}

/**
 * Why a connection could not be made, in words: n8n replaces a message that contains such a code with its own
 * generic text, which would drop the host (or blame the service for its proxy).
 */
export const UNREACHABLE: Record<string, string> = {
	ECONNREFUSED: 'it refused the connection',
	ENOTFOUND: 'its host name is not known (DNS)',
	EAI_AGAIN: 'its host name could not be looked up now (DNS)',
	EHOSTUNREACH: 'there is no route to it',
	ENETUNREACH: 'there is no route to it',
};
const TIMEOUT = new Set([
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);
const DROPPED = new Set([
	'ECONNRESET',
	'EPIPE',
	'ERR_STREAM_PREMATURE_CLOSE',
	'UND_ERR_SOCKET',
	// A pool dropped under its requests (a proxy's pool retired after a stall, `call-dispatchers.ts`).
	'UND_ERR_DESTROYED',
	'ERR_BAD_RESPONSE',
]);

/** Node's codes for a TLS certificate it refused during the handshake: nothing of the request was sent. */
const CERTIFICATE = new Set([
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_UNTRUSTED',
	'CERT_REVOKED',
]);

interface ErrorLike {
	code?: unknown;
	name?: unknown;
	message?: unknown;
	httpCode?: unknown;
	cause?: unknown;
}

/**
 * n8n wraps transport errors (sometimes twice): the code is searched down the cause chain, and wins over words
 * in messages (n8n's wrapper says "The connection was aborted" for a timeout too).
 */
export function classifyFailure(error: unknown): Failure {
	const chain: ErrorLike[] = [];
	for (
		let current = error as ErrorLike | undefined;
		current && chain.length < 5;
		current = current.cause as ErrorLike | undefined
	) {
		chain.push(current);
	}
	for (const current of chain) {
		const code = typeof current.code === 'string' ? current.code : '';
		if (current.name === 'AbortError' || code === 'ERR_CANCELED')
			return { kind: 'aborted', code: 'aborted' };
		if (current.name === PROXY_ERROR) return { kind: 'proxy', code };
		if (Object.hasOwn(UNREACHABLE, code)) return { kind: 'unreachable', code };
		if (CERTIFICATE.has(code)) return { kind: 'certificate', code };
		if (TIMEOUT.has(code)) return { kind: 'timeout', code };
		if (DROPPED.has(code)) return { kind: 'dropped', code };
		// llhttp's codes, from Node's http, undici and the pack's own HTTP/1.1 reader alike.
		if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
			return { kind: 'protocol', code };
	}
	let httpCode: number | undefined;
	for (const current of chain) {
		const message = typeof current.message === 'string' ? current.message : '';
		if (/timeout/i.test(message)) return { kind: 'timeout', code: 'timeout' };
		if (/socket hang up|aborted|premature close/i.test(message))
			return { kind: 'dropped', code: 'connection dropped' };
		const numeric = Number(current.httpCode);
		if (httpCode === undefined && Number.isInteger(numeric) && numeric >= 400) httpCode = numeric;
	}
	if (httpCode !== undefined) return { kind: 'http', code: String(httpCode), status: httpCode };
	return { kind: 'other', code: 'unknown' };
}

/** An error with a code, in the shape the transport classifies (`classifyFailure`). */
export function failure(code: string, message: string, name?: string): Error {
	const error = new Error(message) as Error & { code: string };
	error.code = code;
	if (name) error.name = name;
	return error;
}

export const cancelled = () => failure('ERR_CANCELED', 'The execution was cancelled', 'AbortError');

const PROXY_ERROR = 'ProxyError';

/** A proxy failed or refused before anything reached the service (`proxy-failures.ts`); `retry`: trying again may help. */
export interface ProxyFailure extends Error {
	code: string;
	fix: string;
	retry: boolean;
}

export function proxyFailure(code: string, message: string, fix: string, retry: boolean): Error {
	const error = failure(code, message, PROXY_ERROR) as ProxyFailure;
	error.fix = fix;
	error.retry = retry;
	return error;
}
