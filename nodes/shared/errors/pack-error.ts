/**
 * The one error type below the node layer: protocol layers, the transport and operation code throw it with
 * the cause and the fix already worded; the router (action nodes), the poll wrapper (triggers) and
 * `supplyData` (sub-nodes) turn it into n8n's errors, once each. Free of n8n types so protocol code can use it.
 *
 * kind 'input': the user's parameters are wrong (nothing was sent, or the service refused them as such);
 * kind 'api': the service, the network or the server's answer failed.
 */
export type PackErrorKind = 'input' | 'api';

export interface PackErrorDetails {
	description?: string;
	kind?: PackErrorKind;
	httpCode?: number;
	itemIndex?: number;
	/** Facts a user may act on (say, an object's current ETag), kept beside the message in n8n's error details. */
	data?: Record<string, string | number | boolean | null>;
}

export class PackError extends Error {
	readonly description: string | undefined;
	readonly kind: PackErrorKind;
	readonly httpCode: number | undefined;
	readonly data: Record<string, string | number | boolean | null> | undefined;
	itemIndex: number | undefined;

	constructor(message: string, details: PackErrorDetails = {}) {
		super(message);
		this.name = 'PackError';
		this.description = details.description;
		this.kind = details.kind ?? 'api';
		this.httpCode = details.httpCode;
		this.itemIndex = details.itemIndex;
		this.data = details.data;
	}
}

/**
 * A protocol error that keeps its own shape for its layer's callers (a JSON-RPC code, the server's raw text)
 * and words itself for the user on demand; toNodeError asks it, so no caller has to remember to.
 */
export interface PackErrorSource {
	toPackError(): PackError;
}

export function isPackError(error: unknown): error is PackError {
	return error instanceof PackError;
}

/** The PackError an error is or describes itself as; undefined for anything else. */
export function packErrorOf(error: unknown): PackError | undefined {
	if (error instanceof PackError) return error;
	const source = error as Partial<PackErrorSource> | null | undefined;
	if (error instanceof Error && typeof source?.toPackError === 'function')
		return source.toPackError();
	return undefined;
}
