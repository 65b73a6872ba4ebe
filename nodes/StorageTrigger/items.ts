import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Change } from '../shared/storage/changes';
import type { StorageAccount } from '../shared/storage/client';
import { downloadFile } from '../shared/storage/download';
import { fileLink, folderLink } from '../shared/storage/links';
import type { ScopeListing } from '../shared/storage/scope-listing';
import type { TriggerSettings } from './settings';

/** Field names follow get_file_info / get_folder_info, plus the event and what it changed. */
export function eventJson(
	account: StorageAccount,
	change: Change,
	folderNames: Map<string, string | undefined>,
): IDataObject {
	const { entry } = change;
	const json: IDataObject = {
		event: change.event,
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
