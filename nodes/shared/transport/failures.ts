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
	// The TLS handshake comes before any byte of the request: a handshake that did not complete sent nothing.
	ERR_TLS_HANDSHAKE_RESET:
		'the connection closed during the TLS handshake, before anything was sent',
	ERR_TLS_HANDSHAKE_TIMEOUT:
		"the TLS handshake did not complete within the node's Timeout, so nothing was sent",
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
	// A pool dropped under its requests (retired after a stall, `retirePool`).
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

/** Node's words for a connection closed before its TLS handshake completed (the code alone says ECONNRESET). */
const HANDSHAKE_CUT = /before secure TLS connection was established/;
/** OpenSSL's text: `...:error:0A00010B:SSL routines:<function>:<reason>:../deps/openssl/...`. */
const OPENSSL_REASON = /SSL routines:[^:]*:([^:]+):/;

/**
 * A failure of the TLS handshake, by a code of its own: `ERR_SSL_<REASON>` (OpenSSL refused it: the server
 * speaks no TLS, or none this machine accepts) or `ERR_TLS_HANDSHAKE_RESET`; undefined for any other failure.
 */
export function handshakeCode(error: ErrorLike): string | undefined {
	const code = typeof error.code === 'string' ? error.code : '';
	if (code.startsWith('ERR_SSL_')) return code;
	const message = typeof error.message === 'string' ? error.message : '';
	const reason = OPENSSL_REASON.exec(message)?.[1];
	if (reason) return `ERR_SSL_${reason.trim().toUpperCase().replace(/\W+/g, '_')}`;
	if (HANDSHAKE_CUT.test(message) || code === 'ERR_TLS_HANDSHAKE_RESET')
		return 'ERR_TLS_HANDSHAKE_RESET';
	return undefined;
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
	// The most telling code anywhere in the chain wins: n8n's wrapper may call a broken answer a dropped one.
	for (const current of chain) {
		const code = typeof current.code === 'string' ? current.code : '';
		if (current.name === 'AbortError' || code === 'ERR_CANCELED')
			return { kind: 'aborted', code: 'aborted' };
		if (current.name === PROXY_ERROR) return { kind: 'proxy', code };
		const handshake = handshakeCode(current);
		// Refused in the handshake like a certificate: nothing was sent, and trying again cannot help.
		if (handshake?.startsWith('ERR_SSL_')) return { kind: 'certificate', code: handshake };
		if (handshake) return { kind: 'unreachable', code: handshake };
		if (code.startsWith('HPE_')) return { kind: 'protocol', code: llhttpCode(current, code) };
	}
	for (const current of chain) {
		const code = typeof current.code === 'string' ? current.code : '';
		if (Object.hasOwn(UNREACHABLE, code)) return { kind: 'unreachable', code };
		if (CERTIFICATE.has(code)) return { kind: 'certificate', code };
		if (TIMEOUT.has(code)) return { kind: 'timeout', code };
		if (DROPPED.has(code)) return { kind: 'dropped', code };
		if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return { kind: 'protocol', code };
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

/**
 * llhttp's code, except that it gives two Content-Length headers the code of one beside Transfer-Encoding
 * (`HPE_UNEXPECTED_CONTENT_LENGTH`): only its reason tells them apart.
 */
function llhttpCode(error: ErrorLike & { reason?: unknown }, code: string): string {
	const reason = `${String(error.reason ?? '')} ${String(error.message ?? '')}`;
	return code === 'HPE_UNEXPECTED_CONTENT_LENGTH' && /Duplicate Content-Length/i.test(reason)
		? 'HPE_DUPLICATE_CONTENT_LENGTH'
		: code;
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
