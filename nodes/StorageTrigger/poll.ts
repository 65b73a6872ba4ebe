import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	baseline,
	compare,
	isUsableState,
	mostRecent,
	orderChanges,
	type Change,
	type Comparison,
	type EventName,
} from '../shared/storage/changes';
import { requireAccount, storageAccount, v2, type StorageAccount } from '../shared/storage/client';
import { baselineRecorded } from '../shared/node/durable-cursors';
import { eventItems } from './items';
import { listScope, type ScopeListing } from '../shared/storage/scope-listing';
import { readSettings, type TriggerSettings } from './settings';

/** Items a manual "Fetch Test Event" returns, so the user sees real data. */
const SAMPLE_SIZE = 10;

/**
 * A file missing from this poll was deleted or moved out of the watched folder. Watching the whole
 * account, or when its folder vanished too (folders cannot move), it was deleted; otherwise its info tells.
 */
async function resolveGone(
	ctx: IPollFunctions,
	account: StorageAccount,
	gone: Comparison['gone'],
	listing: ScopeListing,
	settings: TriggerSettings,
): Promise<Change[]> {
	const changes: Change[] = [];
	for (const { entry, parentListed } of gone) {
		if (!settings.matches(entry)) continue;
		if (listing.wholeAccount || !parentListed) {
			changes.push({ event: 'fileDeleted', entry });
			continue;
		}
		const { status, body } = await v2<IDataObject>(
			ctx,
			account,
			'get_file_info',
			{ file_hash: entry.hash },
			{
				answer: { accept: [403, 404, 405] },
			},
		);
		const newParent =
			status < 400 ? (body?.parent_folder_hash as string | null | undefined) : undefined;
		if (!newParent) {
			changes.push({ event: 'fileDeleted', entry });
			continue;
		}
		changes.push({
			event: 'fileMoved',
			moved: 'out',
			entry: {
				...entry,
				name: String(body.name ?? entry.name),
				parent: newParent,
				created: Number(body.timestamp_uploaded),
				modified: Number(body.timestamp_last_modified),
				...(body.size !== undefined ? { size: Number(body.size) } : {}),
			},
			previous: { parent: entry.parent, name: entry.name, path: entry.path },
			at: Number(body.timestamp_last_modified),
		});
	}
	return changes;
}

function sampleChanges(listing: ScopeListing, settings: TriggerSettings): Change[] {
	const shown = (['fileCreated', 'fileUpdated', 'folderCreated'] as EventName[]).filter((event) =>
		settings.events.has(event),
	);
	const allowed = new Set<EventName>(
		shown.length ? shown : ['fileCreated', 'fileUpdated', 'folderCreated'],
	);
	const changes: Change[] = [];
	for (const entry of mostRecent(
		{ ...listing, entries: listing.entries.filter((e) => settings.matches(e)) },
		Infinity,
	)) {
		const event: EventName =
			entry.type === 'folder'
				? 'folderCreated'
				: entry.created === entry.modified
					? 'fileCreated'
					: 'fileUpdated';
		if (allowed.has(event)) changes.push({ event, entry, at: entry.modified });
		if (changes.length >= SAMPLE_SIZE) break;
	}
	return changes;
}

function checkCap(ctx: IPollFunctions, listing: ScopeListing, settings: TriggerSettings): void {
	if (settings.mode !== 'full' || listing.entries.length <= settings.maxTracked) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`The watched folder holds ${listing.entries.length} files and folders, more than the ${settings.maxTracked} tracked for deleted/moved events`,
		{
			description:
				'Nothing was reported and nothing is lost: the next poll after a fix reports every change since the last successful one (unless the scope changed). Raise "Max Tracked Items", watch a smaller folder, or keep only created/updated events, which need no list of items.',
		},
	);
}

export async function pollChanges(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(ctx);
	const account = await storageAccount(ctx);
	requireAccount(ctx, account, 0);
	const listing = await listScope(ctx, account, settings.recursive);

	if (ctx.getMode() === 'manual') {
		const items = await eventItems(
			ctx,
			account,
			sampleChanges(listing, settings),
			listing,
			settings,
		);
		if (items.length) return [items];
		throw new NodeOperationError(
			ctx.getNode(),
			'Nothing matching the settings was found in the watched folder',
			{
				description: 'Upload a file there (or loosen the filters), then fetch a test event again.',
			},
		);
	}

	checkCap(ctx, listing, settings);
	const staticData = ctx.getWorkflowStaticData('node');
	const scope = `${listing.root.hash}|${settings.recursive ? 'tree' : 'folder'}|${settings.mode}`;
	// First poll after activation (or after the watched folder or mode changed): record, report nothing.
	if (!isUsableState(staticData.state, scope, settings.mode)) {
		staticData.state = baseline(scope, listing, settings.mode) as unknown as IDataObject;
		return baselineRecorded();
	}
	const { changes, gone, next } = compare(staticData.state, listing, settings.mode);
	const wanted = settings.events.has('fileDeleted') || settings.events.has('fileMoved') ? gone : [];
	const all = orderChanges([
		...changes,
		...(await resolveGone(ctx, account, wanted, listing, settings)),
	]);
	const selected = all.filter(
		(change) => settings.events.has(change.event) && settings.matches(change.entry),
	);
	const items = await eventItems(ctx, account, selected, listing, settings);
	// Only now, with every request done, does the state move on: a failed poll is repeated in full.
	staticData.state = next as unknown as IDataObject;
	return items.length ? [items] : null;
}
