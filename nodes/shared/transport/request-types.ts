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
