import { randomUUID } from 'node:crypto';

import type { DavClient, DeleteResult, StoredObject, WriteResult } from './client';
import { DavChangedBeforeDelete, DavError, DavPreconditionFailed } from './errors';
import { hrefKey, propText, type Multistatus } from './multistatus';
import { NS, qname } from './namespaces';
import { addressbookQueryBody, DATA_PROP, multigetBody, type DataKind } from './requests';
import { requireKind } from './resource-kind';

export const CONTENT_TYPE: Record<DataKind, string> = {
	calendar: 'text/calendar; charset=utf-8',
	addressbook: 'text/vcard; charset=utf-8',
};
const EXTENSION: Record<DataKind, string> = { calendar: 'ics', addressbook: 'vcf' };

export interface ObjectRef {
	url: string;
	etag?: string;
	lastModified?: string;
}

/** A fresh UID and the object URL inside the collection; the name is the UID, which is URL-safe. */
export function newObject(collectionUrl: string, kind: DataKind): { uid: string; url: string } {
	const uid = randomUUID();
	return {
		uid,
		url: new URL(
			`${uid}.${EXTENSION[kind]}`,
			collectionUrl.endsWith('/') ? collectionUrl : `${collectionUrl}/`,
		).href,
	};
}

/** Members of a collection with their ETags (PROPFIND Depth 1), the collection itself and sub-collections skipped. */
export async function listMembers(client: DavClient, collectionUrl: string): Promise<ObjectRef[]> {
	const listing = await client.propfind(
		collectionUrl,
		'1',
		[qname(NS.DAV, 'getetag'), qname(NS.DAV, 'resourcetype'), qname(NS.DAV, 'getlastmodified')],
		'Listing the collection',
	);
	const self = hrefKey(collectionUrl);
	return listing.responses
		.filter(
			(resource) =>
				resource.key !== self && (resource.status === undefined || resource.status < 300),
		)
		.filter(
			(resource) =>
				!(resource.props.get(`${NS.DAV} resourcetype`)?.element.children ?? []).some(
					(type) => type.name === 'collection',
				),
		)
		.map((resource) => ({
			url: resource.url,
			etag: propText(resource, NS.DAV, 'getetag'),
			lastModified: propText(resource, NS.DAV, 'getlastmodified'),
		}));
}

/** Objects out of a calendar-query/addressbook-query/multiget answer; inner 404s (gone meanwhile) are skipped. */
export function objectsFrom(result: Multistatus, kind: DataKind): StoredObject[] {
	const objects: StoredObject[] = [];
	for (const resource of result.responses) {
		if (resource.status !== undefined && resource.status >= 300) continue;
		const data = propText(resource, DATA_PROP[kind].ns, DATA_PROP[kind].name);
		if (data === undefined) continue;
		objects.push({ url: resource.url, etag: propText(resource, NS.DAV, 'getetag'), data });
	}
	return objects;
}

export const MULTIGET_BATCH = 50;

// A multiget the server fails as a whole (some servers answer 404 for the batch when one href is gone).
const MULTIGET_FAILED = [400, 403, 404, 409, 412, 415, 422, 501];

/**
 * The data of many objects: multiget in batches when the collection advertises it, one GET each otherwise
 * or when a batch fails as a whole. Objects deleted in between are skipped (a trigger reports a known one
 * as deleted on its next poll).
 */
export async function fetchObjects(
	client: DavClient,
	collectionUrl: string,
	kind: DataKind,
	urls: string[],
	multiget: boolean,
): Promise<StoredObject[]> {
	const fetched: StoredObject[] = [];
	const one = async (url: string) => {
		const object = await client.getIfExists(url);
		if (object) fetched.push(object);
	};
	if (!multiget) {
		for (const url of urls) await one(url);
		return fetched;
	}
	for (let index = 0; index < urls.length; index += MULTIGET_BATCH) {
		const batch = urls.slice(index, index + MULTIGET_BATCH);
		const hrefs = batch.map((url) => new URL(url).pathname);
		const result = await client.report(
			collectionUrl,
			'1',
			multigetBody(kind, hrefs),
			'Reading objects',
			MULTIGET_FAILED,
		);
		if ('responses' in result) fetched.push(...objectsFrom(result, kind));
		else for (const url of batch) await one(url);
	}
	// Keep the caller's order.
	const byKey = new Map(fetched.map((object) => [hrefKey(object.url), object]));
	return urls
		.map((url) => byKey.get(hrefKey(url)))
		.filter((object): object is StoredObject => object !== undefined);
}

// An addressbook-query the server refuses or fails (Xandikos 0.2.8 answers 500 to every one).
const QUERY_FAILED = [400, 403, 415, 422, 500, 501];
const folded = (text: string) => text.normalize('NFC').toLocaleLowerCase('und');

/**
 * Contacts whose full name contains `query`, ignoring case: an addressbook-query REPORT, or, when the server
 * refuses or fails it, every contact read and compared here with the same rule (nothing missed; slower).
 */
export async function searchContactsByName(
	client: DavClient,
	bookUrl: string,
	query: string,
	fullNameOf: (data: string) => string | undefined,
	multiget: () => Promise<boolean>,
) {
	const result = await client.report(
		bookUrl,
		'1',
		addressbookQueryBody(query),
		'Searching contacts',
		QUERY_FAILED,
	);
	if ('responses' in result)
		return { objects: objectsFrom(result, 'addressbook'), searchedLocally: false };
	const members = await listMembers(client, bookUrl);
	const all = await fetchObjects(
		client,
		bookUrl,
		'addressbook',
		members.map((member) => member.url),
		await multiget(),
	);
	const wanted = folded(query);
	return {
		objects: all.filter((object) => folded(fullNameOf(object.data) ?? '').includes(wanted)),
		searchedLocally: true,
	};
}

export async function createObject(
	client: DavClient,
	collectionUrl: string,
	kind: DataKind,
	build: (uid: string) => { data: string; uid: string },
) {
	const fresh = newObject(collectionUrl, kind);
	const { data, uid } = build(fresh.uid);
	const written = await client.put(fresh.url, data, CONTENT_TYPE[kind], { create: true, uid });
	return { ...written, uid, data };
}

export interface UpdateOptions {
	/** The ETag the caller last saw; when the object has changed since, this is a conflict. */
	expectedEtag?: string;
	/** On a conflict: read again, re-apply the patch and try once more (never blindly). */
	reapplyOnConflict?: boolean;
}

/** Read, patch, PUT with If-Match of the ETag exactly as read; on 412 optionally one informed retry. */
export async function updateObject(
	client: DavClient,
	url: string,
	kind: DataKind,
	patch: (data: string) => string,
	options: UpdateOptions = {},
) {
	for (let attempt = 1; ; attempt++) {
		const current = await client.get(url);
		if (!current.etag) {
			throw new DavError(
				'The server sent no ETag for the object',
				'Updates need an ETag to avoid overwriting changes by other clients; this server does not provide one.',
			);
		}
		if (
			attempt === 1 &&
			options.expectedEtag &&
			options.expectedEtag !== current.etag &&
			!options.reapplyOnConflict
		) {
			throw new DavPreconditionFailed(url, current.etag, client.objectLabel);
		}
		const data = patch(current.data);
		const written: WriteResult | Error = await client
			.put(url, data, CONTENT_TYPE[kind], { etag: current.etag })
			.catch((error: Error) => error);
		if (!(written instanceof Error)) return { ...written, data, previousEtag: current.etag };
		// Only a conflict is retried, once, after reading the object again; never blindly.
		if (!(written instanceof DavPreconditionFailed) || !options.reapplyOnConflict || attempt >= 2)
			throw written;
	}
}

export interface DeleteOptions {
	/** The ETag the caller last saw; when the object has changed since, this is a conflict. */
	expectedEtag?: string;
	/** On a conflict: delete the changed object all the same (read first, so the output shows what was deleted). */
	deleteIfChanged?: boolean;
}

/**
 * DELETE with If-Match. After a 412 the object is read again: without the explicit opt-in the conflict is
 * an error carrying the other client's version; with it, that version is deleted (by its fresh ETag) and
 * returned, so that nothing disappears unseen.
 */
export async function deleteObject(
	client: DavClient,
	url: string,
	options: DeleteOptions = {},
): Promise<{
	url: string;
	status: number;
	etag: string;
	changed?: StoredObject;
	goneAfterLostAnswer?: true;
}> {
	// A collection has an ETag too on some servers: without this, its URL would delete every object in it.
	await requireKind(client, url, {
		operation: `Delete ${client.objectLabel[0].toUpperCase()}${client.objectLabel.slice(1)}`,
		want: 'object',
		nothing: 'Nothing was deleted.',
	});
	const etag = options.expectedEtag ?? (await client.currentEtag(url));
	if (etag === undefined)
		throw new DavError(
			`The ${client.objectLabel} does not exist (404)`,
			'It was deleted already, or the URL is wrong.',
			404,
		);
	const deleted = await client.delete(url, etag).catch((error: unknown) => error);
	if (!(deleted instanceof Error)) return { url, etag, ...(deleted as DeleteResult) };
	if (!(deleted instanceof DavPreconditionFailed)) throw deleted;
	const current = await client.getIfExists(url);
	if (!current)
		throw new DavError(
			`The ${client.objectLabel} was deleted by another client meanwhile`,
			'Nothing is left to delete.',
			404,
		);
	if (!options.deleteIfChanged || !current.etag)
		throw new DavChangedBeforeDelete(url, current, client.objectLabel);
	const again = await client.delete(url, current.etag);
	return { url, ...again, etag: current.etag, changed: current };
}
