import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { MODE_MARKER_HEADER, type AuthMode } from './auth-mode';
import { requestUrlProblem } from './url-field';

interface AppendableForm {
	append(name: string, value: string): void;
}

function isAppendable(body: unknown): body is AppendableForm {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as AppendableForm).append === 'function'
	);
}

/**
 * The mode each request was sent with. n8n hands the same options object to `authenticate` again when it
 * repeats a request after renewing an expired session, and by then the marker header is gone.
 */
const modeOfRequest = new WeakMap<IHttpRequestOptions, AuthMode>();

/** Takes the transport's auth-mode marker off the request, so it never reaches the service. */
export function takeAuthMode(options: IHttpRequestOptions): AuthMode {
	const headers = (options.headers ?? {}) as IDataObject;
	const key = Object.keys(headers).find((name) => name.toLowerCase() === MODE_MARKER_HEADER);
	const mode = key ? (headers[key] as AuthMode) : (modeOfRequest.get(options) ?? 'fields');
	if (key) delete headers[key];
	options.headers = headers;
	modeOfRequest.set(options, mode);
	return mode;
}

export function assertSecure(options: IHttpRequestOptions): void {
	const url = options.baseURL ? new URL(options.url, options.baseURL).toString() : options.url;
	const problem = requestUrlProblem(url);
	if (problem) throw new Error(problem);
}

/**
 * Adds authentication fields to whatever body the request carries (form, multipart or plain object),
 * because the service reads them from the body and they must never go into the URL.
 */
export function addBodyFields(options: IHttpRequestOptions, fields: Record<string, string>): void {
	const body = options.body;
	if (body instanceof URLSearchParams || isAppendable(body)) {
		for (const [name, value] of Object.entries(fields))
			(body as AppendableForm).append(name, value);
		return;
	}
	if (body === undefined || body === null || body === '') {
		options.body = new URLSearchParams(fields);
		return;
	}
	if (typeof body === 'object' && !Buffer.isBuffer(body) && !Array.isArray(body)) {
		options.body = { ...(body as IDataObject), ...fields };
		return;
	}
	throw new Error('The request body cannot carry authentication fields');
}

export function setHeader(options: IHttpRequestOptions, name: string, value: string): void {
	options.headers = { ...(options.headers ?? {}), [name]: value };
}

export function basicAuthorization(user: string, secret: string): string {
	return `Basic ${Buffer.from(`${user}:${secret}`, 'utf8').toString('base64')}`;
}
