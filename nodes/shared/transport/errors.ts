import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { API_LABEL, type ApiKind } from './api-kinds';
import { explainStatus } from './status-messages';
import { secondsText } from './timeout';

export interface ErrorContext {
	node: INode;
	api: ApiKind;
	itemIndex?: number;
}

function apiError(
	ctx: ErrorContext,
	message: string,
	description: string,
	httpCode?: number,
): NodeApiError {
	const response: JsonObject = { message, description };
	if (httpCode !== undefined) response.httpCode = String(httpCode);
	return new NodeApiError(ctx.node, response, {
		message,
		description,
		httpCode: httpCode === undefined ? undefined : String(httpCode),
		itemIndex: ctx.itemIndex,
	});
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

export function statusError(ctx: ErrorContext, status: number, body = ''): NodeApiError {
	const { cause, fix } = explainStatus(ctx.api, status, body);
	const said = serviceText(body);
	return apiError(
		ctx,
		cause,
		said ? `${fix} The ${API_LABEL[ctx.api]} said: "${said}"` : fix,
		status,
	);
}

export function unexpectedBodyError(ctx: ErrorContext, what: string): NodeApiError {
	return apiError(
		ctx,
		`The ${API_LABEL[ctx.api]} answered with ${what} where JSON was expected`,
		"Check that the URL in the credential points at the service's API (not a web page, proxy or login portal).",
		200,
	);
}

export function unreachableError(ctx: ErrorContext, host: string, code: string): NodeApiError {
	return apiError(
		ctx,
		`Could not reach ${host} (${code})`,
		'Check the URL in the credential, the network between n8n and the service, and that the service is running.',
	);
}

export function uncertainWriteError(ctx: ErrorContext, reason: string): NodeApiError {
	return apiError(
		ctx,
		`The write may have been applied: ${reason} before the ${API_LABEL[ctx.api]} confirmed it`,
		'The service offers no idempotency key, so the node did not repeat the request. Check the current state (for example with a Get or List operation) before running this item again.',
	);
}

export const RAISE_TIMEOUT =
	'If the service is only slow (a large folder, a busy hour), raise "Timeout" under Request Options.';

export function timeoutError(ctx: ErrorContext, timeoutMs: number): NodeApiError {
	return apiError(
		ctx,
		`The ${API_LABEL[ctx.api]} did not answer within the timeout of ${secondsText(timeoutMs)}`,
		`${RAISE_TIMEOUT} Otherwise check that the service is running and reachable from n8n.`,
	);
}

/** A write whose answer did not come in time: the service may still be applying it, so it is not sent again. */
export function uncertainTimeoutError(ctx: ErrorContext, timeoutMs: number): NodeApiError {
	return apiError(
		ctx,
		`The ${API_LABEL[ctx.api]} did not answer within the timeout of ${secondsText(timeoutMs)}: the write may or may not have been applied`,
		`The node did not repeat it, so nothing is done twice. Check the current state (for example with a Get or List operation) before running this item again. ${RAISE_TIMEOUT}`,
	);
}

export function tooLargeError(ctx: ErrorContext, maxBytes: number): NodeApiError {
	return apiError(
		ctx,
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
): NodeApiError {
	const where = location ? ` to ${location}` : '';
	const applied = write
		? ' The service may have applied the write before redirecting: check before running this item again.'
		: '';
	return apiError(
		ctx,
		`The ${API_LABEL[ctx.api]} redirected the request${where} (${status})`,
		`Redirects are not followed, so credentials never travel to another address. Put the final address in the credential's URL (https, the right host and path).${applied}`,
		status,
	);
}

/**
 * A read the service failed with a 5xx: nothing was changed, so the advice for uncertain writes does not
 * apply. Writes that fail with a 5xx get uncertainWriteError instead.
 */
export function readFailedError(ctx: ErrorContext, status: number, body = ''): NodeApiError {
	const error = statusError(ctx, status, body);
	const said = serviceText(body);
	error.description = `The request only read data, so nothing was changed. Try again later; if it keeps failing, the ${API_LABEL[ctx.api]}'s own log names the cause.${said ? ` The ${API_LABEL[ctx.api]} said: "${said}"` : ''}`;
	return error;
}

/** Marks a read failure that repeated identically, so retrying stopped early. */
export function repeatedFailure(error: Error): Error {
	if (error instanceof NodeApiError)
		error.description =
			`${error.description ?? ''} The same answer came twice, so the node stopped retrying.`.trim();
	return error;
}
