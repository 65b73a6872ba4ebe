import type { DavClient, StoredObject } from './client';
import type { DavHttpResponse } from './http';
import { hrefKey, propText, type Multistatus } from './multistatus';
import { NS } from './namespaces';
import { fetchObjects, listMembers } from './objects';
import { syncCollectionBody, type DataKind } from './requests';

/** What a trigger keeps between polls: the sync-token (when the server has one) and the members' ETags. */
export interface SyncState {
	token?: string;
	/** Object URL → ETag as last seen. */
	etags: Record<string, string>;
}

export type ChangeType = 'created' | 'updated' | 'deleted';

export interface Change {
	type: ChangeType;
	url: string;
	etag?: string;
	/** The object's data for created/updated. */
	data?: string;
}

export interface SyncResult {
	changes: Change[];
	next: SyncState;
	/** How the changes were found: RFC 6578 sync-collection, or a full ETag comparison. */
	method: 'sync-collection' | 'etag-comparison';
}

// 403/409 carry DAV:valid-sync-token when a token expired; 400/404/501 when the report is unsupported.
const SYNC_REFUSED = [400, 403, 404, 409, 412, 415, 501];

function isMultistatus(value: Multistatus | DavHttpResponse): value is Multistatus {
	return 'responses' in value;
}

/** Changed members since the token (or all members with no token), null when the server refuses. */
async function syncCollection(
	client: DavClient,
	url: string,
	token: string | undefined,
): Promise<{ changed: Map<string, string | undefined>; token?: string } | null> {
	// RFC 6578: the depth is given by sync-level; the Depth header is 0.
	// Xandikos 0.2.8 answers 500 to a token it does not know, where RFC 6578 says 403 valid-sync-token: with a
	// token sent, a 500 starts over with a full sync (a read; if the server is really failing, that fails too).
	const result = await client.report(
		url,
		'0',
		syncCollectionBody(token),
		'Synchronising the collection',
		token === undefined ? SYNC_REFUSED : [...SYNC_REFUSED, 500],
	);
	if (!isMultistatus(result)) return null;
	const self = hrefKey(url);
	const changed = new Map<string, string | undefined>();
	for (const resource of result.responses) {
		if (resource.key === self) continue;
		const gone = resource.status === 404 || resource.status === 410;
		changed.set(resource.url, gone ? undefined : (propText(resource, NS.DAV, 'getetag') ?? ''));
	}
	return { changed, token: result.syncToken };
}

/**
 * Changes since the previous state: one sync-collection REPORT when the server supports RFC 6578 (a single
 * request when nothing changed), else — or when the token is rejected — a PROPFIND compared by ETag. The
 * caller stores `next` only once it has handed on every change (exactly once).
 */
export async function collectChanges(
	client: DavClient,
	url: string,
	kind: DataKind,
	previous: SyncState,
	options: {
		useSync: boolean;
		multiget: boolean;
		/** Only record the members: nothing is read or reported. */ baseline?: boolean;
	},
): Promise<SyncResult> {
	const byKey = new Map(
		Object.entries(previous.etags).map(([memberUrl, etag]) => [
			hrefKey(memberUrl),
			{ url: memberUrl, etag },
		]),
	);
	let current: Map<string, string | undefined> | undefined;
	let token: string | undefined;
	let method: SyncResult['method'] = 'etag-comparison';
	let incremental = false;

	if (options.useSync) {
		const synced = await syncCollection(client, url, previous.token);
		if (!synced && previous.token) {
			// The token expired or was rejected: start over with a full sync.
			const full = await syncCollection(client, url, undefined);
			if (full) ({ changed: current, token } = full);
		} else if (synced) {
			({ changed: current, token } = synced);
			incremental = previous.token !== undefined;
		}
		if (current) method = 'sync-collection';
	}
	if (!current) {
		current = new Map(
			(await listMembers(client, url)).map((member) => [member.url, member.etag ?? '']),
		);
	}

	if (options.baseline) {
		// A first poll reports nothing, so reading every object's data would be wasted on a large collection.
		const etags: Record<string, string> = {};
		for (const [memberUrl, etag] of current) if (etag !== undefined) etags[memberUrl] = etag;
		return { changes: [], next: { token, etags }, method };
	}

	const changes: Change[] = [];
	const nextEtags: Record<string, string> = incremental ? { ...previous.etags } : {};
	const seen = new Set<string>();
	for (const [memberUrl, etag] of current) {
		const key = hrefKey(memberUrl);
		seen.add(key);
		const known = byKey.get(key);
		if (known && known.url !== memberUrl) delete nextEtags[known.url];
		if (etag === undefined) {
			if (known) {
				changes.push({ type: 'deleted', url: memberUrl, etag: known.etag });
				delete nextEtags[known.url];
			}
			continue;
		}
		nextEtags[memberUrl] = etag;
		if (!known) changes.push({ type: 'created', url: memberUrl, etag });
		else if (known.etag !== etag || etag === '')
			changes.push({ type: 'updated', url: memberUrl, etag });
	}
	if (!incremental) {
		// A full listing: whatever is missing from it was deleted.
		for (const [key, known] of byKey)
			if (!seen.has(key)) changes.push({ type: 'deleted', url: known.url, etag: known.etag });
	}

	const toFetch = changes.filter((change) => change.type !== 'deleted').map((change) => change.url);
	if (toFetch.length > 0) {
		const objects = await fetchObjects(client, url, kind, toFetch, options.multiget);
		const byUrl = new Map<string, StoredObject>(
			objects.map((object) => [hrefKey(object.url), object]),
		);
		for (const change of changes) {
			const object = byUrl.get(hrefKey(change.url));
			if (object) {
				change.data = object.data;
				if (object.etag) {
					change.etag = object.etag;
					nextEtags[change.url] = object.etag;
				}
			}
		}
	}
	// An object that vanished between the listing and the read: a new one is forgotten, a known one keeps its
	// old ETag, so that its deletion is reported by the next poll.
	const complete = changes.filter(
		(change) => change.type === 'deleted' || change.data !== undefined,
	);
	for (const change of changes) {
		if (complete.includes(change)) continue;
		delete nextEtags[change.url];
		const known = byKey.get(hrefKey(change.url));
		if (known) nextEtags[known.url] = known.etag;
	}
	return { changes: complete, next: { token, etags: nextEtags }, method };
}
