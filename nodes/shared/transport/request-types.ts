import type FormData from 'form-data';
import type {
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	ISupplyDataFunctions,
} from 'n8n-workflow';

import type { ApiKind } from './api-kinds';
import type { AuthMode } from '../auth/auth-mode';
import type { FormFields } from './body';
import type { DiskUpload } from './disk-upload';
import type { RetryPolicy } from './retry';

export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| ISupplyDataFunctions;

export type HttpMethod = IHttpRequestMethods | 'MKCALENDAR' | 'PROPPATCH';

export interface ApiRequestOptions {
	api: ApiKind;
	url: string;
	method?: HttpMethod;
	/** Omit for anonymous calls (LINK downloads, upload by key, public MCP tools). */
	credentialType?: string;
	authMode?: AuthMode;
	form?: FormFields;
	json?: unknown;
	/** A factory, so that a retried upload reads its content again from the start. */
	multipart?: () => FormData | Promise<FormData>;
	body?: string | Buffer;
	headers?: Record<string, string>;
	qs?: Record<string, string | number | boolean>;
	responseType?: 'json' | 'text' | 'stream';
	/**
	 * A write is never repeated after an uncertain outcome (timeout, dropped connection, 5xx) unless
	 * `reconcile` looked and found it was not applied. `reconcile` returns the applied result, or
	 * undefined when the write did not happen; `timedOut` tells it the service may still be applying it.
	 */
	write?: boolean;
	reconcile?: (failure: { timedOut: boolean }) => Promise<unknown>;
	/** Replaces the generic "check before running again" advice of an uncertain-write error (e.g. how to find a created item). */
	uncertainHint?: string;
	/** Statuses that mean "outcome unknown, check before retrying" for this call (e.g. 494 partial upload). */
	uncertainStatuses?: number[];
	/** Statuses handed back to the caller instead of raising (e.g. DAV 207, 404 on sync). */
	acceptStatuses?: number[];
	/** Statuses worth retrying with back-off besides 429 (DAV and MCP 503). */
	retryStatuses?: number[];
	itemIndex?: number;
	/** The longest silence in either direction (`IdleLimit`); 0 = none. Omitted: the node's "Timeout", else 120 s. */
	timeoutMs?: number;
	retry?: Partial<RetryPolicy>;
	maxResponseBytes?: number;
	/**
	 * The same multipart upload with its file on disk (n8n's filesystem binary mode): sent as
	 * `transferPath('upload')` says, from the main thread through reused buffers or through n8n's helper.
	 */
	diskUpload?: DiskUpload;
	/**
	 * Send this form-encoded download without n8n's helper (n8n's filesystem binary mode): read on the main
	 * thread into reused buffers (the body is then a `SocketBody`). Needs `responseType: 'stream'`.
	 */
	diskDownload?: boolean;
}

export interface ApiResponse<T = unknown> {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: T;
	/** True when the answer was lost and the result came from the caller's reconciling read. */
	reconciled?: boolean;
}

/**
 * A request's body, one kind at a time (undici's shape): what `ApiRequestOptions` says in several optional fields
 * (`form`, `json`, `body`, `multipart` with `diskUpload`), read once by `bodyOf`; the paths read only this.
 */
export type RequestBody =
	| { kind: 'none' }
	| { kind: 'form'; fields: FormFields }
	/** Left as a value so a token credential can add its body fields; serialised on the way out. */
	| { kind: 'json'; value: unknown }
	| { kind: 'raw'; bytes: string | Buffer }
	/**
	 * A file from n8n's binary store, as multipart: `multipart` builds it (again for each attempt); `onDisk`, in
	 * n8n's filesystem store, lets the own socket send the same body from the file (one of them at least).
	 */
	| { kind: 'file'; multipart?: () => FormData | Promise<FormData>; onDisk?: DiskUpload };

export function bodyOf(opts: ApiRequestOptions): RequestBody {
	if (opts.multipart || opts.diskUpload)
		return { kind: 'file', multipart: opts.multipart, onDisk: opts.diskUpload };
	if (opts.form) return { kind: 'form', fields: opts.form };
	if (opts.json !== undefined) return { kind: 'json', value: opts.json };
	if (opts.body !== undefined) return { kind: 'raw', bytes: opts.body };
	return { kind: 'none' };
}
