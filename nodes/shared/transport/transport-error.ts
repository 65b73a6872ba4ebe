import { PackError, type PackErrorDetails } from '../errors/pack-error';

/**
 * What failed, machine-readably: stable across wordings, so callers and tests may branch on it instead of on a
 * message. (Not named like Node's or llhttp's codes: `classifyFailure` reads those on the same property.)
 */
export type TransportErrorCode =
	| 'CS_STATUS'
	| 'CS_READ_FAILED'
	| 'CS_UNEXPECTED_BODY'
	| 'CS_UNREACHABLE'
	| 'CS_CONNECTION_DROPPED'
	| 'CS_ANSWER_STALLED'
	| 'CS_PROXY'
	| 'CS_PROXY_UNSUPPORTED'
	| 'CS_CERTIFICATE'
	| 'CS_TLS_HANDSHAKE'
	| 'CS_PROTOCOL'
	| 'CS_UNCERTAIN_WRITE'
	| 'CS_TIMEOUT'
	| 'CS_UNCERTAIN_TIMEOUT'
	| 'CS_TOO_LARGE'
	| 'CS_REDIRECT'
	| 'CS_INSECURE_URL'
	| 'CS_BAD_TIMEOUT'
	| 'CS_NO_BINARY'
	| 'CS_DOWNLOAD_UNFRAMED'
	| 'CS_DOWNLOAD_SIZE'
	| 'CS_DOWNLOAD_FAILED';

/**
 * The transport's failures: PackErrors (the one error type below the node layer), worded with cause and fix,
 * turned into n8n's errors once, by `toNodeError`. The description grows on the way up (a retry that stopped
 * early, an uncertain write's hint), so it may be set again.
 */
export class TransportError extends PackError {
	declare description: string | undefined;

	constructor(
		readonly code: TransportErrorCode,
		message: string,
		details: PackErrorDetails = {},
	) {
		super(message, details);
	}
}
