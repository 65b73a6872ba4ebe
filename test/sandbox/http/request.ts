import type { IncomingHttpHeaders } from 'node:http';

export interface UploadedFile {
	field: string;
	filename: string;
	declaredType: string;
	tmpPath: string;
	/** Bytes received, even past the point where writing to disk stopped. */
	size: number;
	sha256: string;
	virus: boolean;
	/** Writing stopped at the largest file limit; the bytes on disk are incomplete. */
	overCap: boolean;
}

/** How a route wants its body: V2/V1 take forms only, the DMS and MCP take JSON, DAV takes raw XML. */
export type BodyMode = 'form' | 'form-or-json' | 'json' | 'raw';

export type BodyProblem =
	| 'json-not-accepted'
	| 'bad-json'
	| 'malformed'
	| 'too-large'
	| 'truncated'
	| 'aborted';

export interface SandboxRequest {
	method: string;
	rawUrl: string;
	pathname: string;
	ip: string;
	headers: IncomingHttpHeaders;
	query: URLSearchParams;
	body: URLSearchParams;
	/** Body values first, then query values: `fields.get()` prefers the body. */
	fields: URLSearchParams;
	cookies: Record<string, string>;
	files: UploadedFile[];
	multipart: boolean;
	json?: unknown;
	raw?: Buffer;
	/** Captures of the route's pattern. */
	params: string[];
}

export function parseCookies(header: string | undefined): Record<string, string> {
	const cookies: Record<string, string> = {};
	for (const part of (header ?? '').split(';')) {
		const eq = part.indexOf('=');
		if (eq <= 0) continue;
		const name = part.slice(0, eq).trim();
		try {
			cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
		} catch {
			cookies[name] = part.slice(eq + 1).trim();
		}
	}
	return cookies;
}

export function newRequest(
	method: string,
	rawUrl: string,
	headers: IncomingHttpHeaders,
	ip: string,
): SandboxRequest {
	const url = new URL(rawUrl, 'http://sandbox.invalid');
	return {
		method,
		rawUrl,
		pathname: url.pathname,
		ip,
		headers,
		query: url.searchParams,
		body: new URLSearchParams(),
		fields: new URLSearchParams(url.searchParams),
		cookies: parseCookies(headers.cookie),
		files: [],
		multipart: false,
		params: [],
	};
}

/** Recomputes `fields` once the body is known. */
export function mergeFields(req: SandboxRequest): void {
	const merged = new URLSearchParams(req.body);
	for (const [name, value] of req.query) merged.append(name, value);
	req.fields = merged;
}

export function mediaType(headers: IncomingHttpHeaders): string {
	return (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * A boolean parameter. The documents write flags as `=1` (include_folders=1) or call them "boolean"
 * without a spelling; the sandbox takes `1` and `true` as set and nothing else (not `yes`, `on`, `TRUE`),
 * so a client that depends on another spelling fails here rather than against the service.
 */
export function flag(value: string | null | undefined): boolean {
	return value === '1' || value === 'true';
}

/**
 * A PHP-style array parameter: `name[]=a&name[]=b`, `name[0]=a&name[1]=b`, or a single `name=a`
 * (PHP would see a string there; the sandbox takes it as one element). Null when absent.
 */
export function arrayField(fields: URLSearchParams, name: string): string[] | null {
	const pattern = new RegExp(`^${name}(\\[\\d*\\])?$`);
	const values: string[] = [];
	let present = false;
	for (const [key, value] of fields) {
		if (!pattern.test(key)) continue;
		present = true;
		values.push(value);
	}
	return present ? values : null;
}
