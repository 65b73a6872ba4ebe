import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Change } from '../shared/storage/changes';
import type { StorageAccount } from '../shared/storage/client';
import { eventId } from '../shared/node/event-id';
import { downloadFile } from '../shared/storage/download';
import { fileLink, folderLink } from '../shared/storage/links';
import type { ScopeListing } from '../shared/storage/scope-listing';
import type { TriggerSettings } from './settings';

/**
 * The change's id from the service's own data: the file or folder hash, the event, and what the change left
 * (creation time; modified time; name and folder before and after). A re-poll of the same change, after a
 * crash or restart, gives the same id; a later change of the same file gives another.
 */
export function storageEventId(change: Change): string {
	const { entry, previous } = change;
	switch (change.event) {
		case 'folderCreated':
		case 'fileCreated':
			return eventId('storage', change.event, entry.hash, entry.created ?? entry.modified);
		case 'fileDeleted':
			return eventId('storage', change.event, entry.hash, entry.modified);
		default:
			return eventId(
				'storage',
				change.event,
				entry.hash,
				entry.modified,
				change.change ?? change.moved,
				previous?.parent,
				previous?.name,
				entry.parent,
				entry.name,
			);
	}
}

/** Field names follow get_file_info / get_folder_info, plus the event and what it changed. */
export function eventJson(
	account: StorageAccount,
	change: Change,
	folderNames: Map<string, string | undefined>,
): IDataObject {
	const { entry } = change;
	const json: IDataObject = {
		event: change.event,
		eventId: storageEventId(change),
		type: entry.type,
		hash: entry.hash,
		name: entry.name,
	};
	if (change.change) json.change = change.change;
	if (change.moved) json.moved = change.moved;
	if (change.moved !== 'out') json.path = entry.path;
	if (entry.size !== undefined) json.size = entry.size;
	if (entry.created !== undefined && Number.isFinite(entry.created))
		json.timestamp_uploaded = entry.created;
	if (Number.isFinite(entry.modified)) json.timestamp_last_modified = entry.modified;
	json.parent_folder_hash = entry.parent;
	const parentName = folderNames.get(entry.parent);
	if (parentName !== undefined) json.parent_folder_name = parentName;
	json.parent_folder_link = folderLink(account.webUrl, entry.parent);
	json.link =
		entry.type === 'folder'
			? folderLink(account.webUrl, entry.hash)
			: fileLink(account.webUrl, entry.hash);
	if (change.previous?.name !== undefined && change.previous.name !== entry.name)
		json.previous_name = change.previous.name;
	if (change.previous?.parent !== undefined)
		json.previous_parent_folder_hash = change.previous.parent;
	if (change.previous?.path !== undefined) json.previous_path = change.previous.path;
	return json;
}

export function folderNamesOf(listing: ScopeListing): Map<string, string | undefined> {
	const names = new Map<string, string | undefined>([[listing.root.hash, listing.root.name]]);
	for (const entry of listing.entries)
		if (entry.type === 'folder') names.set(entry.hash, entry.name);
	return names;
}

const DOWNLOADED_EVENTS = new Set(['fileCreated', 'fileUpdated']);

/** One output item per change, in the given order; content attached when asked for. */
export async function eventItems(
	ctx: IPollFunctions,
	account: StorageAccount,
	changes: Change[],
	listing: ScopeListing,
	settings: TriggerSettings,
): Promise<INodeExecutionData[]> {
	const folderNames = folderNamesOf(listing);
	const items: INodeExecutionData[] = [];
	for (const change of changes) {
		const json = eventJson(account, change, folderNames);
		const item: INodeExecutionData = { json };
		if (settings.download && DOWNLOADED_EVENTS.has(change.event)) {
			const result = await downloadFile(ctx, account, change.entry.hash, {
				fileName: change.entry.name,
				expectedSize: change.entry.size,
				maxBytes: settings.download.maxBytes,
				missingStatuses: [403, 404, 405],
			});
			if ('binary' in result) item.binary = { [settings.download.property]: result.binary };
			else if (result.skipped === 'tooLarge')
				json.download_skipped = `larger than the size limit (${result.bytes} bytes)`;
			else json.download_skipped = `the file is no longer available (status ${result.status})`;
		}
		items.push(item);
	}
	return items;
}
