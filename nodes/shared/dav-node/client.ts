import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DavClient } from '../dav/client';
import { DavChangedBeforeDelete, DavDataError, DavError, DavPreconditionFailed } from '../dav/errors';
import type { DavHttp } from '../dav/http';
import { apiRequest } from '../transport/request';

export type DavContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export const DAV_CREDENTIAL = 'cloudStorageDavApi';
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The protocol layer's HTTP function, implemented with the shared transport (credential, retries, status errors). */
export function davHttp(ctx: DavContext, itemIndex?: number): DavHttp {
	return async (request) => {
		const response = await apiRequest<string>(ctx, {
			api: 'dav',
			url: request.url,
			method: request.method,
			credentialType: DAV_CREDENTIAL,
			headers: request.headers,
			body: request.body,
			responseType: 'text',
			acceptStatuses: request.accept,
			retryStatuses: [503],
			write: request.write,
			reconcile: request.reconcile,
			itemIndex,
			maxResponseBytes: MAX_RESPONSE_BYTES,
		});
		return {
			status: response.status,
			headers: response.headers,
			body: typeof response.body === 'string' ? response.body : '',
			reconciled: response.reconciled ? response.body : undefined,
		};
	};
}

export async function davClient(ctx: DavContext, itemIndex: number | undefined, objectLabel: string): Promise<DavClient> {
	const credentials = await ctx.getCredentials(DAV_CREDENTIAL, itemIndex ?? 0);
	const root = String(credentials.davUrl ?? '').trim();
	if (!root) throw new NodeOperationError(ctx.getNode(), 'The DAV credential has no DAV URL', { itemIndex, description: 'Enter the server\'s CalDAV/CardDAV URL in the credential.' });
	return new DavClient(davHttp(ctx, itemIndex), root.endsWith('/') ? root : `${root}/`, objectLabel);
}

/**
 * A collection or object URL from the user, resolved against the DAV URL. It must stay on the DAV
 * server's origin: the credential's password goes wherever the request goes.
 */
export function davUrl(ctx: DavContext, client: DavClient, value: string, itemIndex: number | undefined, what: string): string {
	const text = value.trim();
	if (!text) throw new NodeOperationError(ctx.getNode(), `No ${what} given`, { itemIndex, description: `Pick the ${what} from the list or enter its URL.` });
	let url: URL;
	try {
		url = new URL(text, client.rootUrl);
	} catch {
		throw new NodeOperationError(ctx.getNode(), `"${text}" is not a valid ${what} URL`, { itemIndex });
	}
	if (url.origin !== new URL(client.rootUrl).origin) {
		throw new NodeOperationError(ctx.getNode(), `The ${what} URL is not on the DAV server`, {
			itemIndex,
			description: `It must start with ${new URL(client.rootUrl).origin}, the server in the credential; the credential is never sent elsewhere.`,
		});
	}
	return url.href;
}

/** Protocol errors become n8n errors naming cause and fix; 412 keeps its status and the current ETag. */
export function toNodeError(ctx: DavContext, error: unknown, itemIndex?: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof DavDataError) return new NodeOperationError(ctx.getNode(), error.message, { itemIndex, description: error.description });
	if (error instanceof DavError) {
		const httpCode = error.status === undefined ? undefined : String(error.status);
		const extra: JsonObject =
			error instanceof DavPreconditionFailed
				? { currentEtag: error.currentEtag ?? null, url: error.url }
				: error instanceof DavChangedBeforeDelete
					? { currentEtag: error.current.etag ?? null, url: error.url, current: error.current.data }
					: {};
		return new NodeApiError(ctx.getNode(), { message: error.message, description: error.description, ...(httpCode ? { httpCode } : {}), ...extra } as JsonObject, {
			message: error.message,
			description: error.description,
			httpCode,
			itemIndex,
		});
	}
	return error as Error;
}

export async function withDavErrors<T>(ctx: DavContext, itemIndex: number | undefined, run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		throw toNodeError(ctx, error, itemIndex);
	}
}
