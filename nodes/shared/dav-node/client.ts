import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DavClient } from '../dav/client';
import { outcomeOf, withOutcome, type WriteOutcome } from '../errors/outcome';
import type { DavHttp } from '../dav/http';
import { apiRequest, rawBody, runCredentials } from '../transport';

export type DavContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export const DAV_CREDENTIAL = 'cloudStorageDavApi';
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Whether any write of one item's client lost its answer on the way (its `reconcile` ran). */
interface WriteTracker {
	answerLost: boolean;
}

const trackers = new WeakMap<DavClient, WriteTracker>();

/**
 * The outcome of an item's writes that succeeded: `applied-after-lost-answer` when an answer was lost on
 * the way and a read (or the answer to a repeat that cannot apply twice) proved the write applied.
 */
export function successOutcome(
	client: DavClient,
	written?: { outcome?: WriteOutcome },
): WriteOutcome {
	// The protocol layer's own proof counts too: a retried 503 whose repeat got 412 was settled by a read.
	return trackers.get(client)?.answerLost || written?.outcome === 'applied-after-lost-answer'
		? 'applied-after-lost-answer'
		: 'applied';
}

/**
 * A write's failure says what it left: after a lost answer it may have been applied (unknown) unless the
 * protocol layer proved otherwise; a 4xx refusal of a write whose answer came is not-applied.
 */
function markOutcome(error: unknown, tracker: WriteTracker): unknown {
	if (typeof error !== 'object' || error === null || outcomeOf(error) !== undefined) return error;
	if (tracker.answerLost) return withOutcome(error, 'unknown');
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return status >= 400 && status < 500 ? withOutcome(error, 'not-applied') : error;
}

/** The protocol layer's HTTP function, implemented with the shared transport (credential, retries, status errors). */
export function davHttp(
	ctx: DavContext,
	itemIndex?: number,
	tracker: WriteTracker = { answerLost: false },
): DavHttp {
	return async (request) => {
		const reconcile = request.write?.reconcile;
		const response = await apiRequest<string>(ctx, {
			api: 'dav',
			url: request.url,
			method: request.method,
			credential: { type: DAV_CREDENTIAL },
			headers: request.headers,
			body: request.body === undefined ? undefined : rawBody(request.body),
			answer: { as: 'text', accept: request.accept, maxBytes: MAX_RESPONSE_BYTES },
			retry: { statuses: [503] },
			write: request.write && {
				reconcile: reconcile
					? async () => {
							tracker.answerLost = true;
							return await reconcile();
						}
					: undefined,
			},
			itemIndex,
		}).catch((error: unknown) => {
			throw request.write ? markOutcome(error, tracker) : error;
		});
		return {
			status: response.status,
			headers: response.headers,
			body: typeof response.body === 'string' ? response.body : '',
			reconciled: response.reconciled ? response.body : undefined,
		};
	};
}

export async function davClient(
	ctx: DavContext,
	itemIndex: number | undefined,
	objectLabel: string,
): Promise<DavClient> {
	const credentials = await runCredentials(ctx, DAV_CREDENTIAL, itemIndex ?? 0);
	const root = String(credentials.davUrl ?? '').trim();
	if (!root)
		throw new NodeOperationError(ctx.getNode(), 'The DAV credential has no DAV URL', {
			itemIndex,
			description: "Enter the server's CalDAV/CardDAV URL in the credential.",
		});
	const tracker: WriteTracker = { answerLost: false };
	const client = new DavClient(
		davHttp(ctx, itemIndex, tracker),
		root.endsWith('/') ? root : `${root}/`,
		objectLabel,
	);
	trackers.set(client, tracker);
	return client;
}

/**
 * A collection or object URL from the user, resolved against the DAV URL. It must stay on the DAV
 * server's origin: the credential's password goes wherever the request goes.
 */
export function davUrl(
	ctx: DavContext,
	client: DavClient,
	value: string,
	itemIndex: number | undefined,
	what: string,
): string {
	const text = value.trim();
	if (!text)
		throw new NodeOperationError(ctx.getNode(), `No ${what} given`, {
			itemIndex,
			description: `Pick the ${what} from the list or enter its URL.`,
		});
	let url: URL;
	try {
		url = new URL(text, client.rootUrl);
	} catch {
		throw new NodeOperationError(ctx.getNode(), `"${text}" is not a valid ${what} URL`, {
			itemIndex,
		});
	}
	if (url.origin !== new URL(client.rootUrl).origin) {
		throw new NodeOperationError(ctx.getNode(), `The ${what} URL is not on the DAV server`, {
			itemIndex,
			description: `It must start with ${new URL(client.rootUrl).origin}, the server in the credential; the credential is never sent elsewhere.`,
		});
	}
	return url.href;
}
