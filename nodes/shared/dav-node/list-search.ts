import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listCollections } from '../dav/discovery';
import type { DataKind } from '../dav/requests';
import { davClient } from './client';

async function search(
	ctx: ILoadOptionsFunctions,
	kind: DataKind,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await davClient(ctx, undefined, kind === 'calendar' ? 'event' : 'contact');
	// Its failures become n8n's errors in the node's methods (`convertingErrors`).
	const collections = await listCollections(client, kind);
	const needle = (filter ?? '').toLowerCase();
	return {
		results: collections
			.filter((collection) =>
				`${collection.displayName} ${collection.id}`.toLowerCase().includes(needle),
			)
			.sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.displayName.localeCompare(b.displayName))
			.map((collection) => ({
				name: collection.shared ? `${collection.displayName} (shared)` : collection.displayName,
				value: collection.url,
				url: collection.url,
			})),
	};
}

export async function searchCalendars(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'calendar', filter);
}

export async function searchAddressBooks(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search(this, 'addressbook', filter);
}
