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
import { multipartWithFile, type BinarySource } from './binary';
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
	/** A file from n8n's binary store sent as multipart; the transport picks how (see `FileUpload`). */
	upload?: FileUpload;
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
	 * Send this form-encoded download without n8n's helper (n8n's filesystem binary mode): read on the main
	 * thread into reused buffers (the body is then a `SocketBody`). Needs `responseType: 'stream'`.
	 */
	diskDownload?: boolean;
}

/**
 * An upload, described once: form fields before the file (undefined or empty values are left out), the file's
 * field name and the name it is sent under. The transport builds the multipart body from `source` afresh for each
 * attempt, and, when n8n keeps the file on this machine's disk (`source.path`), may send it from there instead.
 */
export interface FileUpload {
	fields: Record<string, string | undefined>;
	field: string;
	fileName: string;
	source: BinarySource;
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
 * (`form`, `json`, `body`, `upload`), read once by `bodyOf`; the paths read only this.
 */
export type RequestBody =
	| { kind: 'none' }
	| { kind: 'form'; fields: FormFields }
	/** Left as a value so a token credential can add its body fields; serialised on the way out. */
	| { kind: 'json'; value: unknown }
	| { kind: 'raw'; bytes: string | Buffer }
	/**
	 * A file from n8n's binary store, as multipart: `multipart` builds it (again for each attempt); `onDisk`, in
	 * n8n's filesystem store, lets the own socket send the same body from the file.
	 */
	| { kind: 'file'; multipart: () => Promise<FormData>; onDisk?: DiskUpload };

export function bodyOf(opts: ApiRequestOptions): RequestBody {
	if (opts.upload) return fileBody(opts.upload);
	if (opts.form) return { kind: 'form', fields: opts.form };
	if (opts.json !== undefined) return { kind: 'json', value: opts.json };
	if (opts.body !== undefined) return { kind: 'raw', bytes: opts.body };
	return { kind: 'none' };
}

function fileBody({ fields, field, fileName, source }: FileUpload): RequestBody {
	return {
		kind: 'file',
		multipart: async () => multipartWithFile(fields, field, source, await source.open(), fileName),
		onDisk: source.path
			? {
					fields,
					file: {
						field,
						path: source.path,
						fileName,
						mimeType: source.mimeType,
						size: source.size,
					},
				}
			: undefined,
	};
}
