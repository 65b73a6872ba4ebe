/**
 * The transport's one public face: everything outside `nodes/shared/transport` imports from here, never from
 * an inner module (the `no-restricted-imports` rule in eslint.config.mjs keeps it so). What is not listed here
 * is the transport's own business: paths, parser, writers, connection pools, retry and reconcile.
 */

// Requests: the one way to talk to the service, and what comes back.
export { apiRequest } from './request';
export type {
	Answer,
	ApiRequest,
	ApiResponse,
	Credential,
	FileUpload,
	HttpMethod,
	RequestBody,
	RequestContext,
	Retry,
	Write,
} from './request-types';
export { fileBody, formBody, jsonBody, rawBody } from './request-types';
export type { FormFields, FormValue, RawAnswer } from './body';
export { runCredentials } from './run-credentials';
export { MODE_MARKER_HEADER, type AuthMode } from '../auth/auth-mode';

// Addresses.
export {
	displayUrl,
	insecureUrlProblem,
	isLoopbackHost,
	joinUrl,
	withoutQueryStrings,
} from '../urls';

// Paging, bounded concurrency and back-off for callers that loop over the service themselves.
export { collectByOffsetTotal, collectByPageNumber, collectByRawOffset } from './paging';
export { mapBounded } from './bounded';
export { backoffDelay, DEFAULT_RETRY, type RetryPolicy } from './retry';

// Transfers between the service and n8n's binary store.
export { binarySource, type BinarySource } from './binary';
export { downloadIntoStore, type StoreDownload, type StoredDownload } from './transfer';
export { readWhole } from './read-whole';

// Errors: every failure below the node layer is a PackError; the transport's carry a stable code.
export { TransportError, type TransportErrorCode } from './transport-error';
// Wording, for callers that word a failure of their own around the transport's.
export { RAISE_TIMEOUT, unexpectedBodyError, type ErrorContext } from './errors';
export { secondsText } from './timeout';

// Seams for tests: replaced instead of racing the clock or a real network.
export { secondLook } from './second-look';
export { backoff } from './around-send';
export { routeCallsThrough } from './calls';
