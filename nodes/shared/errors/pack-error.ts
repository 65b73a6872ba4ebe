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
}

export class PackError extends Error {
	readonly description: string | undefined;
	readonly kind: PackErrorKind;
	readonly httpCode: number | undefined;
	itemIndex: number | undefined;

	constructor(message: string, details: PackErrorDetails = {}) {
		super(message);
		this.name = 'PackError';
		this.description = details.description;
		this.kind = details.kind ?? 'api';
		this.httpCode = details.httpCode;
		this.itemIndex = details.itemIndex;
	}
}

export function isPackError(error: unknown): error is PackError {
	return error instanceof PackError;
}
