import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import type { DavClient } from '../dav/client';
import { readCollection } from '../dav/discovery';
import { fetchObjects, listMembers } from '../dav/objects';
import type { DataKind } from '../dav/requests';
import { collectChanges, type ChangeType, type SyncState } from '../dav/sync';
import { PackError } from '../errors/pack-error';
import { baselineRecorded } from '../node/durable-cursors';
import { eventId } from '../node/event-id';
import { davUrl } from './client';

export const changeEventsField = (what: string): INodeProperties => ({
	displayName: 'Trigger On',
	name: 'events',
	type: 'multiOptions',
	options: [
		{ name: 'Created', value: 'created', description: `A new ${what} appeared` },
		{ name: 'Updated', value: 'updated', description: `A ${what} changed` },
		{ name: 'Deleted', value: 'deleted', description: `A ${what} was removed` },
	],
	default: ['created', 'updated', 'deleted'],
	required: true,
});

interface StoredState extends SyncState {
	collection: string;
	sync: boolean;
	multiget: boolean;
}

const RECENT_FOR_MANUAL_TEST = 5;

/**
 * The change's id from the object's URL and the ETag the server gave that version (a deletion: the last one
 * seen). Objects without an ETag fall back to their data; the same change polled again gives the same id.
 */
export function davEventId(
	kind: DataKind,
	event: ChangeType,
	url: string,
	etag: string | null | undefined,
	data?: string,
): string {
	return eventId(kind, event, url, etag ?? (data === undefined ? null : `data:${data}`));
}

/** A trigger's collection URL from its resource locator, checked to stay on the DAV server. */
export function collectionParam(
	ctx: IPollFunctions,
	client: DavClient,
	name: string,
	what: string,
): string {
	return davUrl(
		ctx,
		client,
		ctx.getNodeParameter(name, '', { extractValue: true }) as string,
		undefined,
		what,
	);
}

/** What a sample stands for: the first watched event, in the order the live poll reports them. */
function sampleEvent(wanted: Set<ChangeType>): ChangeType {
	return (
		(['created', 'updated', 'deleted'] as const).find((event) => wanted.has(event)) ?? 'created'
	);
}

/**
 * "Fetch Test Event": the most recently modified objects, shaped as the live poll would report them for the
 * first watched event (a deletion carries only the URL and ETag), so fields can be mapped. Nothing is stored.
 */
async function manualSample(
	client: DavClient,
	url: string,
	kind: DataKind,
	wanted: Set<ChangeType>,
	describe: (object: { url: string; etag?: string; data: string }) => IDataObject,
): Promise<INodeExecutionData[]> {
	const members = await listMembers(client, url);
	members.sort((a, b) => Date.parse(b.lastModified ?? '') - Date.parse(a.lastModified ?? '') || 0);
	const newest = members.slice(0, RECENT_FOR_MANUAL_TEST);
	const event = sampleEvent(wanted);
	let samples: IDataObject[] = [];
	if (newest.length && event === 'deleted') {
		samples = newest.map((member) => ({
			event,
			eventId: davEventId(kind, event, member.url, member.etag),
			url: member.url,
			etag: member.etag ?? null,
		}));
	} else if (newest.length) {
		const collection = await readCollection(client, url, kind);
		const multiget = collection.supportedReports?.includes(`${kind}-multiget`) ?? false;
		const recent = await fetchObjects(
			client,
			url,
			kind,
			newest.map((member) => member.url),
			multiget,
		);
		samples = recent.map((object) => ({
			event,
			eventId: davEventId(kind, event, object.url, object.etag, object.data),
			...describe(object),
		}));
	}
	if (samples.length) return samples.map((json) => ({ json }));
	const [what, aWhat] = kind === 'calendar' ? ['event', 'an event'] : ['contact', 'a contact'];
	throw new PackError(`The ${kind === 'calendar' ? 'calendar' : 'address book'} is empty`, {
		kind: 'input',
		description: `"Fetch Test Event" shows the ${what}s modified last, and there is none yet. Add ${aWhat} there (or pick another collection), then fetch a test event again. Activated, the trigger reports changes from its first poll on either way.`,
	});
}

/**
 * One poll of a collection for created/updated/deleted objects. State lives only in the node's static data;
 * the first activation records it and emits nothing; the cursor moves only after the poll fully succeeded,
 * so a failed poll repeats the same window (exactly once). A manual test run returns recent objects.
 */
export async function pollChanges(
	ctx: IPollFunctions,
	client: DavClient,
	kind: DataKind,
	url: string,
	describe: (object: { url: string; etag?: string; data: string }) => IDataObject,
): Promise<INodeExecutionData[][] | null> {
	const wanted = new Set(ctx.getNodeParameter('events', []) as ChangeType[]);
	const staticData = ctx.getWorkflowStaticData('node') as { dav?: StoredState };
	if (ctx.getMode() === 'manual') return [await manualSample(client, url, kind, wanted, describe)];

	let state = staticData.dav;
	const first = !state || state.collection !== url;
	if (!state || first) {
		const collection = await readCollection(client, url, kind);
		state = {
			collection: url,
			// No report set sent is ambiguous: try sync-collection; a refusal falls back to an ETag comparison.
			sync: collection.supportedReports?.includes('sync-collection') ?? true,
			multiget: collection.supportedReports?.includes(`${kind}-multiget`) ?? false,
			etags: {},
		};
	}
	const result = await collectChanges(client, url, kind, state, {
		useSync: state.sync,
		multiget: state.multiget,
		baseline: first,
	});
	const items = first
		? []
		: result.changes
				.filter((change) => wanted.has(change.type))
				.map((change) =>
					change.type === 'deleted'
						? {
								event: 'deleted',
								eventId: davEventId(kind, 'deleted', change.url, change.etag),
								url: change.url,
								etag: change.etag ?? null,
							}
						: {
								event: change.type,
								eventId: davEventId(kind, change.type, change.url, change.etag, change.data ?? ''),
								...describe({ url: change.url, etag: change.etag, data: change.data ?? '' }),
							},
				);
	// Everything was read: only now does the cursor move.
	staticData.dav = {
		...state,
		token: result.next.token,
		etags: result.next.etags,
		sync: state.sync && result.method === 'sync-collection',
	};
	if (first) return baselineRecorded();
	return items.length > 0 ? [ctx.helpers.returnJsonArray(items)] : null;
}
