import type { JsonObject } from 'n8n-workflow';

import { API_LABEL, type ApiKind } from './api-kinds';
import { UNREACHABLE, type ProxyFailure } from './failures';
import { explainStatus } from './status-messages';
import { secondsText } from './timeout';
import { MAY_HAVE_BEEN_APPLIED } from '../errors/outcome';
import { TransportError, type TransportErrorCode } from './transport-error';

export interface ErrorContext {
	api: ApiKind;
	itemIndex?: number;
	/** What the request named (`file "…"`, `folder "…"`): a 405 says which of the user's hashes was refused. */
	subject?: string;
}

function apiError(
	ctx: ErrorContext,
	code: TransportErrorCode,
	message: string,
	description: string,
	httpCode?: number,
): TransportError {
	return new TransportError(code, message, { description, httpCode, itemIndex: ctx.itemIndex });
}

/** The service's own words, when it sent any, appended to the fix; bounded so no page dump reaches the user. */
function serviceText(body: string): string | undefined {
	const trimmed = body.trim();
	if (!trimmed) return undefined;
	try {
		const parsed = JSON.parse(trimmed) as Record<string, unknown>;
		// JSON-RPC (MCP) errors nest the text: {"error": {"code": …, "message": "…"}}.
		const nested = (parsed?.error as JsonObject | undefined)?.message;
		const text =
			parsed?.message ?? parsed?.Message ?? (typeof nested === 'string' ? nested : parsed?.error);
		return typeof text === 'string' && text ? text.slice(0, 300) : undefined;
	} catch {
		return /^[^<]{1,300}$/.test(trimmed) ? trimmed : undefined;
	}
}

/** `… on file "H7" (405, item 0)`: the service's 405 has no body that says what it refused. */
function refusedWhat(ctx: ErrorContext, cause: string, status: number): string {
	if (status !== 405 || (ctx.api !== 'v2' && ctx.api !== 'v1')) return cause;
	const item = ctx.itemIndex === undefined ? '' : `, item ${ctx.itemIndex}`;
	const on = ctx.subject ? ` on ${ctx.subject}` : '';
	return cause.replace(/ \(405\)$/, `${on} (405${item})`);
}

export function statusError(ctx: ErrorContext, status: number, body = ''): TransportError {
	const { cause, fix } = explainStatus(ctx.api, status, body);
	const said = serviceText(body);
	return apiError(
		ctx,
		'CS_STATUS',
		refusedWhat(ctx, cause, status),
		said ? `${fix} The ${API_LABEL[ctx.api]} said: "${said}"` : fix,
		status,
	);
}

export function unexpectedBodyError(ctx: ErrorContext, what: string): TransportError {
	return apiError(
		ctx,
		'CS_UNEXPECTED_BODY',
		`The ${API_LABEL[ctx.api]} answered with ${what} where JSON was expected`,
		"Check that the URL in the credential points at the service's API (not a web page, proxy or login portal).",
		200,
	);
}

/** The code goes into the description: n8n would replace a message naming it (`UNREACHABLE`). */
const UNREACHABLE_CAUSES: Record<string, string> = {
	...UNREACHABLE,
	ETIMEDOUT: 'the connection timed out',
	ECONNRESET: 'the connection was reset',
};

export function unreachableError(
	ctx: ErrorContext,
	host: string,
	code: string,
	midAnswer?: 'dropped' | 'stalled',
): TransportError {
	if (midAnswer === 'stalled')
		return apiError(
			ctx,
			'CS_ANSWER_STALLED',
			`The answer from ${host} stalled: no data arrived for longer than the node's Timeout`,
			`The service or the network stopped sending; the node asked again where it could. ${RAISE_TIMEOUT}`,
		);
	return apiError(
		ctx,
		midAnswer === 'dropped' ? 'CS_CONNECTION_DROPPED' : 'CS_UNREACHABLE',
		midAnswer === 'dropped'
			? `The connection to ${host} broke while its answer was read`
			: `Could not reach ${host}: ${UNREACHABLE_CAUSES[code] ?? 'the connection failed'}`,
		`(${code}) Check the URL in the credential, the network between n8n and the service, and that the service is running.`,
	);
}

/** A proxy in the way failed or refused the request: its cause and fix name the proxy (`proxy-failures.ts`). */
export function proxyError(ctx: ErrorContext, { message, fix }: ProxyFailure): TransportError {
	return apiError(ctx, 'CS_PROXY', message, fix);
}

/**
 * The TLS certificate the server showed was refused in the handshake, before any byte of the request left:
 * nothing was sent, so even a write is not in doubt, and repeating cannot help.
 */
export function certificateError(ctx: ErrorContext, host: string, code: string): TransportError {
	const nothingSent = 'The connection was refused before anything was sent.';
	if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
		return apiError(
			ctx,
			'CS_CERTIFICATE',
			`The TLS certificate of ${host} is issued for other names than ${host} (${code})`,
			`Use the host name the certificate names in the credential's URL, or have the service's certificate fixed. If a proxy or TLS inspection between n8n and the service presents its own certificate, have it issue one for this host. ${nothingSent}`,
		);
	if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
		return apiError(
			ctx,
			'CS_CERTIFICATE',
			`The TLS certificate of ${host} is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'} (${code})`,
			`Have the service's certificate renewed, and check that this machine's clock is right. ${nothingSent}`,
		);
	return apiError(
		ctx,
		'CS_CERTIFICATE',
		`The TLS certificate of ${host} is not trusted by this machine (${code})`,
		`If the service uses a private certificate authority, or a proxy or TLS inspection re-signs connections, give n8n that authority's certificate (NODE_EXTRA_CA_CERTS, then restart n8n); otherwise have the service's certificate fixed. ${nothingSent}`,
	);
}

/** OpenSSL's reasons for a refused handshake, in words; any other is named by its reason in lower case. */
const HANDSHAKE_CAUSES: Record<string, string> = {
	ERR_SSL_WRONG_VERSION_NUMBER: 'does not speak TLS',
	ERR_SSL_PACKET_LENGTH_TOO_LONG: 'does not speak TLS',
	ERR_SSL_HTTP_REQUEST: 'does not speak TLS',
	ERR_SSL_UNSUPPORTED_PROTOCOL: 'offers only TLS versions this machine refuses as insecure',
	ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'accepts none of the TLS versions this machine offers',
	ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'shares no TLS version or cipher with this machine',
	ERR_SSL_NO_CIPHERS_AVAILABLE: 'shares no TLS cipher with this machine',
};

/**
 * The TLS handshake failed in OpenSSL (`ERR_SSL_<REASON>`), before any byte of the request left: the cause in
 * words, never OpenSSL's text (it quotes source paths). Repeating cannot help.
 */
export function handshakeError(
	ctx: ErrorContext,
	hostAndPort: string,
	code: string,
): TransportError {
	const nothingSent = 'The connection was refused before anything was sent.';
	const cause = HANDSHAKE_CAUSES[code];
	if (cause === 'does not speak TLS')
		return apiError(
			ctx,
			'CS_TLS_HANDSHAKE',
			`The server at ${hostAndPort} does not speak TLS (${code})`,
			`It answered the TLS handshake with something else, most likely plain HTTP: is the URL in the credential http:// rather than https://, or is the port the service's plain-HTTP one? Use the scheme and port the service speaks. ${nothingSent}`,
		);
	const reason = code
		.replace(/^ERR_SSL_/, '')
		.replace(/_/g, ' ')
		.toLowerCase();
	return apiError(
		ctx,
		'CS_TLS_HANDSHAKE',
		`The TLS handshake with ${hostAndPort} failed: the server ${cause ?? `refused it (${reason})`} (${code})`,
		`Check that the URL in the credential names the service's TLS port, and have the service (or a proxy or TLS inspection in between) accept TLS 1.2 or 1.3 with current ciphers. ${nothingSent}`,
	);
}

/** What an llhttp code (Node's http, undici) says about an answer; the pack's own reader words its own. */
const PROTOCOL_CAUSES: Record<string, string> = {
	HPE_HEADER_OVERFLOW: 'has headers larger than the client accepts',
	// Not llhttp's: the pack's transfers ask for `Accept-Encoding: identity`, the file as stored.
	HPE_UNREQUESTED_CONTENT_ENCODING:
		'is compressed (Content-Encoding) though the file was asked for as stored',
	HPE_UNEXPECTED_CONTENT_LENGTH: 'has both Transfer-Encoding and Content-Length',
	HPE_INVALID_CONTENT_LENGTH: 'has a conflicting or invalid Content-Length',
	HPE_INVALID_TRANSFER_ENCODING: 'has an invalid or conflicting Transfer-Encoding',
	UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'has a body that does not match its Content-Length',
	HPE_INVALID_CHUNK_SIZE: 'has an invalid chunk size',
	// Not llhttp's: its code for two Content-Lengths is the one for Transfer-Encoding beside one (`classifyFailure`).
	HPE_DUPLICATE_CONTENT_LENGTH: 'has more than one Content-Length',
	HPE_INVALID_HEADER_TOKEN: 'has an invalid header line',
	HPE_INVALID_VERSION: 'is not HTTP/1.x',
	HPE_INVALID_CONSTANT: 'is not HTTP/1.x',
	HPE_INVALID_STATUS: 'has an invalid status line',
	HPE_CR_EXPECTED: 'has a line not ended by CRLF',
	HPE_LF_EXPECTED: 'has a line not ended by CRLF',
};

const PROTOCOL_FIX =
	'The node refuses such answers rather than risk storing a wrong file. Something between n8n and the service (a proxy, firewall, load balancer or TLS inspection) or the service itself sends them: point the credential at the service directly, or have that device or the service fixed. Running it again will not help until then.';

/**
 * RFC 9110 lets a server send a 1xx the client did not ask for; undici refuses an unasked 100 Continue, while
 * n8n's request helper (node:http) reads past it: that setting is the way round until the sender is fixed.
 */
const UNREQUESTED_CONTINUE_FIX =
	"Some servers and proxies send a 100 Continue to every request. Set CLOUD_STORAGE_KEEP_ALIVE=false on the n8n host (then restart n8n): calls then go through n8n's request helper, which reads past it. Or have that server or proxy fixed.";

/** A way round an answer that broke HTTP/1.1 that a setting gives (reads and writes alike), if one does. */
export function protocolWayRound(code: string): string | undefined {
	return code === 'HPE_UNREQUESTED_CONTINUE' ? UNREQUESTED_CONTINUE_FIX : undefined;
}

/**
 * The service's answer broke HTTP/1.1 (RFC 9112): refused, never guessed at. The cause as the pack's HTTP/1.1
 * reader words it, else named after llhttp's code.
 */
export function protocolError(ctx: ErrorContext, code: string, message: string): TransportError {
	const cause = /^The answer /.test(message)
		? message.slice('The answer '.length)
		: `${PROTOCOL_CAUSES[code] ?? 'broke HTTP/1.1'} (${code})`;
	return apiError(
		ctx,
		'CS_PROTOCOL',
		`The ${API_LABEL[ctx.api]}'s answer ${cause}`,
		protocolWayRound(code) ?? PROTOCOL_FIX,
	);
}

/** `wayRound`: what keeps it from happening again (a setting), after the advice to check the current state. */
export function uncertainWriteError(
	ctx: ErrorContext,
	reason: string,
	httpCode?: number,
	wayRound?: string,
): TransportError {
	return apiError(
		ctx,
		'CS_UNCERTAIN_WRITE',
		`${MAY_HAVE_BEEN_APPLIED}: ${reason} before the ${API_LABEL[ctx.api]} confirmed it`,
		`The service offers no idempotency key, so the node did not repeat the request. Check the current state (for example with a Get or List operation) before running this item again.${wayRound ? ` ${wayRound}` : ''}`,
		httpCode,
	);
}

export const RAISE_TIMEOUT =
	'If the service is only slow (a large folder, a busy hour), raise "Timeout" under Request Options.';

export function timeoutError(ctx: ErrorContext, timeoutMs: number): TransportError {
	return apiError(
		ctx,
		'CS_TIMEOUT',
		`The ${API_LABEL[ctx.api]} did not answer within the timeout of ${secondsText(timeoutMs)}`,
		`${RAISE_TIMEOUT} Otherwise check that the service is running and reachable from n8n.`,
	);
}

/** A write whose answer did not come in time: the service may still be applying it, so it is not sent again. */
export function uncertainTimeoutError(ctx: ErrorContext, timeoutMs: number): TransportError {
	return apiError(
		ctx,
		'CS_UNCERTAIN_TIMEOUT',
		`${MAY_HAVE_BEEN_APPLIED}: the ${API_LABEL[ctx.api]} did not answer within the timeout of ${secondsText(timeoutMs)}`,
		`The node did not repeat it, so nothing is done twice. Check the current state (for example with a Get or List operation) before running this item again. ${RAISE_TIMEOUT}`,
	);
}

export function tooLargeError(ctx: ErrorContext, maxBytes: number): TransportError {
	return apiError(
		ctx,
		'CS_TOO_LARGE',
		`The ${API_LABEL[ctx.api]} sent a response larger than ${Math.round(maxBytes / 1048576)} MiB`,
		"The node refuses oversized responses to protect n8n's memory. Narrow the request (fewer items per page, a smaller time range).",
	);
}

/** Redirects are never followed (they could carry credentials to another host), so a 3xx ends the item here. */
export function redirectError(
	ctx: ErrorContext,
	status: number,
	location: string | undefined,
	write: boolean,
): TransportError {
	const where = location ? ` to ${location}` : '';
	const applied = write
		? ' The service may have applied the write before redirecting: check before running this item again.'
		: '';
	return apiError(
		ctx,
		'CS_REDIRECT',
		`The ${API_LABEL[ctx.api]} redirected the request${where} (${status})`,
		`Redirects are not followed, so credentials never travel to another address. Put the final address in the credential's URL (https, the right host and path).${applied}`,
		status,
	);
}

/**
 * A read the service failed with a 5xx: nothing was changed, so the advice for uncertain writes does not
 * apply. Writes that fail with a 5xx get uncertainWriteError instead.
 */
export function readFailedError(ctx: ErrorContext, status: number, body = ''): TransportError {
	const { cause } = explainStatus(ctx.api, status, body);
	const said = serviceText(body);
	return apiError(
		ctx,
		'CS_READ_FAILED',
		refusedWhat(ctx, cause, status),
		`The request only read data, so nothing was changed. Try again later; if it keeps failing, the ${API_LABEL[ctx.api]}'s own log names the cause.${said ? ` The ${API_LABEL[ctx.api]} said: "${said}"` : ''}`,
		status,
	);
}

/** Marks a read failure that repeated identically, so retrying stopped early. */
export function repeatedFailure(error: Error): Error {
	if (error instanceof TransportError)
		error.description =
			`${error.description ?? ''} The same answer came twice, so the node stopped retrying.`.trim();
	return error;
}

/**
 * A download's answer did not say where its body ends, and no size was known to check it against: a transfer
 * cut short would look complete, so nothing is stored.
 */
export function unframedDownloadError(fileName: string, itemIndex?: number): TransportError {
	return new TransportError(
		'CS_DOWNLOAD_UNFRAMED',
		`The download of ${fileName} was refused: the answer had neither a Content-Length nor chunked framing`,
		{
			itemIndex,
			description:
				'Without either, a transfer cut short cannot be told from a complete one, and the size of the file was not known beforehand. Something between n8n and the service (a proxy or load balancer) may remove the length: point the credential at the service directly, or use an operation that reads the size first (Download reads it).',
		},
	);
}

/** Why a transfer failed once its answer had started, and what to do: a broken connection or a broken answer. */
export function transferFailureDescription(error: unknown): string {
	const code = (error as { code?: unknown })?.code;
	if (
		typeof code === 'string' &&
		(code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
	)
		return PROTOCOL_FIX;
	if (code === 'ETIMEDOUT')
		return `No data arrived for longer than the Timeout: the service or the network stalled. Run it again; ${RAISE_TIMEOUT.replace(/^If/, 'if')}`;
	return 'The connection to the service broke during the transfer. Run it again.';
}
