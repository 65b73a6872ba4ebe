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

/**
 * One request to the service, in undici's shape: `url`, `method`, `headers`, `body` (one `RequestBody`, built
 * with `formBody`, `jsonBody`, `rawBody` or `fileBody`; absent: none). What is not the request itself comes in
 * named parts, each present or absent as a whole, so no two fields can say the same thing or contradict.
 */
export interface ApiRequest {
	/** Which interface answers: its error bodies and status meanings (`errors.ts`). */
	api: ApiKind;
	url: string;
	method: HttpMethod;
	headers?: Record<string, string>;
	/** Joined to the URL as n8n's helper joins `qs` (undici's `query`): some legacy scripts document them there. */
	query?: Record<string, string | number | boolean>;
	body?: RequestBody;
	/** Absent: anonymous (LINK downloads, upload by key, public MCP tools). */
	credential?: Credential;
	/** How the answer is read; absent (or `as` absent): parsed JSON. */
	answer?: Answer;
	/** Present: the request changes something, so it is never repeated blindly after an uncertain outcome. */
	write?: Write;
	retry?: Retry;
	itemIndex?: number;
	/** The longest silence in either direction (`IdleLimit`); 0 = none. Absent: the node's "Timeout", else 120 s. */
	timeoutMs?: number;
}

/**
 * The pack's credential types (the ones `auth/authenticators.ts` applies). An anonymous request has no
 * credential at all, so no name can stand for "anonymous" beside a `mode`.
 */
export type CredentialType =
	| 'cloudStorageTokenApi'
	| 'cloudStoragePasswordApi'
	| 'cloudStorageBearerApi'
	| 'cloudStorageDavApi';

export interface Credential {
	type: CredentialType;
	/** Absent: `fields`, the credential's normal method (`auth-mode.ts`). */
	mode?: AuthMode;
}

/**
 * How the answer is read: parsed JSON, text, the body stream, or (`store`) a download into n8n's filesystem
 * binary store on the transport's own socket, read into reused buffers (the body is then a `SocketBody`).
 * `accept`: statuses handed back to the caller instead of raising (e.g. DAV 207, 404 on sync). `maxBytes`: the cap
 * on an answer read into memory (32 MiB by default).
 */
export type Answer =
	| { as?: 'json' | 'text'; accept?: number[]; maxBytes?: number }
	| { as: 'stream' | 'store'; accept?: number[] };

export interface Write {
	/**
	 * After an uncertain outcome (timeout, dropped connection, 5xx, an `uncertainStatuses` answer): returns the
	 * applied result, or undefined when the write did not happen (it may then go again); `timedOut` tells it the
	 * service may still be applying it. Absent: "may have been applied", never sent again.
	 */
	reconcile?: (failure: { timedOut: boolean }) => Promise<unknown>;
	/** Replaces the generic "check before running again" advice of an uncertain-write error (e.g. how to find a created item). */
	hint?: string;
	/** Statuses that mean "outcome unknown, check before retrying" for this call (e.g. 494 partial upload). */
	uncertainStatuses?: number[];
}

/** The back-off limits over the defaults (`policyOf`), and which answers are worth asking again. */
export interface Retry extends Partial<RetryPolicy> {
	/**
	 * Statuses worth retrying with back-off besides 429 (DAV and MCP 503), honouring Retry-After, for a write too
	 * (docs/service-contract.md has these retried with back-off); an accepted status is not retried.
	 */
	statuses?: number[];
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

/** A request's body, one kind at a time (undici's shape); absent from the request when there is none. */
export type RequestBody =
	| { kind: 'form'; fields: FormFields }
	/** Left as a value so a token credential can add its body fields; serialised on the way out. */
	| { kind: 'json'; value: unknown }
	| { kind: 'raw'; bytes: string | Buffer }
	/** A file from n8n's binary store, as multipart (`multipartOf`, or `onDiskOf` for the own socket). */
	| { kind: 'file'; upload: FileUpload };

/** Form-encoded fields, as PHP reads them (`toUrlEncoded`). */
export const formBody = (fields: FormFields): RequestBody => ({ kind: 'form', fields });
/** A JSON body (`content-type: application/json` unless the headers say otherwise). */
export const jsonBody = (value: unknown): RequestBody => ({ kind: 'json', value });
/** Bytes or text sent as they are (DAV's XML, iCalendar, vCard). */
export const rawBody = (bytes: string | Buffer): RequestBody => ({ kind: 'raw', bytes });
/** A file from n8n's binary store, as multipart: see `FileUpload`. */
export const fileBody = (upload: FileUpload): RequestBody => ({ kind: 'file', upload });

/** The multipart body of an upload, built again for each attempt (n8n's helper sends it). */
export async function multipartOf({
	fields,
	field,
	fileName,
	source,
}: FileUpload): Promise<FormData> {
	return multipartWithFile(fields, field, source, await source.open(), fileName);
}

/** The same upload sent from the file on this machine's disk (n8n's filesystem store), for the own socket. */
export function onDiskOf({ fields, field, fileName, source }: FileUpload): DiskUpload | undefined {
	return source.path
		? {
				fields,
				file: { field, path: source.path, fileName, mimeType: source.mimeType, size: source.size },
			}
		: undefined;
}
