/** The HTTP function the node layer hands in; it applies the credential, retries and maps unaccepted statuses to errors. */
export interface DavHttpRequest {
	method: 'GET' | 'PUT' | 'DELETE' | 'PROPFIND' | 'REPORT' | 'PROPPATCH' | 'MKCALENDAR' | 'MKCOL';
	url: string;
	headers: Record<string, string>;
	body?: string;
	/** Statuses returned instead of raised (207 always is). */
	accept?: number[];
	/**
	 * Present: a write, never repeated blindly after an uncertain outcome. `reconcile` looks whether it was
	 * applied (returns a value) or not (undefined).
	 */
	write?: { reconcile?: () => Promise<unknown> };
}

export interface DavHttpResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
	/** The transport lost the answer and `reconcile` found the write applied; its result is in `reconciled`. */
	reconciled?: unknown;
}

export type DavHttp = (request: DavHttpRequest) => Promise<DavHttpResponse>;

export function header(response: DavHttpResponse, name: string): string | undefined {
	const value = response.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}
