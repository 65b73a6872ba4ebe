import type { DavClient } from './client';
import { readCollection, type DavCollection } from './discovery';
import { DavError } from './errors';
import type { DavHttpResponse } from './http';
import { statusCode } from './multistatus';
import { NS } from './namespaces';
import {
	mkcalendarBody,
	mkcolBody,
	proppatchBody,
	type CollectionProps,
	type DataKind,
} from './requests';
import { child, children, parseXml, textOf } from './xml';

/** A property the server answered for in a write, with the status of its propstat. */
export interface PropertyStatus {
	property: string;
	status: number;
}

/** What a create or update asked for and the collection did not end up with. */
export interface NotApplied {
	property: keyof CollectionProps | 'components';
	requested: unknown;
	/** What the server stores now (read back); undefined when it has nothing. */
	stored: unknown;
	/** The status the server gave for it, when it gave one. */
	status?: number;
}

const PROPERTY_NAMES: Record<string, keyof CollectionProps | 'components'> = {
	displayname: 'displayName',
	'calendar-color': 'color',
	'calendar-description': 'description',
	'addressbook-description': 'description',
	'calendar-order': 'order',
	'supported-calendar-component-set': 'components',
};

/**
 * Every propstat of a write's answer: a 207 multistatus (PROPPATCH) or the `mkcalendar-response` /
 * `mkcol-response` a server may send with 201 or a failure (RFC 4791 5.3.1, RFC 5689 3). Matched by
 * local name: one server in the wild sends the MKCALENDAR root in a misspelt namespace.
 */
export function propertyStatuses(response: DavHttpResponse): PropertyStatus[] {
	if (!/<([A-Za-z0-9_-]+:)?propstat[\s>]/.test(response.body)) return [];
	const root = parseXml(response.body);
	const holders = root.name === 'multistatus' ? children(root, NS.DAV, 'response') : [root];
	const statuses: PropertyStatus[] = [];
	for (const holder of holders) {
		for (const propstat of children(holder, NS.DAV, 'propstat')) {
			const status = statusCode(textOf(child(propstat, NS.DAV, 'status')));
			for (const prop of children(propstat, NS.DAV, 'prop'))
				for (const element of prop.children) statuses.push({ property: element.name, status });
		}
	}
	return statuses;
}

const refusedOf = (statuses: PropertyStatus[]) =>
	statuses.filter((entry) => entry.status < 200 || entry.status >= 300);
const listOf = (statuses: PropertyStatus[]) =>
	statuses.map((entry) => `${entry.property} (${entry.status})`).join(', ');

/** Requested values that the collection read back does not carry. */
export function compareWithStored(
	requested: CollectionProps & { components?: string[] },
	stored: DavCollection,
	statuses: PropertyStatus[],
): NotApplied[] {
	const statusOf = (property: NotApplied['property']) =>
		statuses.find(
			(entry) =>
				PROPERTY_NAMES[entry.property] === property && (entry.status < 200 || entry.status >= 300),
		)?.status;
	const differs: NotApplied[] = [];
	const check = (property: NotApplied['property'], want: unknown, have: unknown, same: boolean) => {
		if (want === undefined || same) return;
		const status = statusOf(property);
		differs.push({
			property,
			requested: want,
			stored: have,
			...(status === undefined ? {} : { status }),
		});
	};
	check(
		'displayName',
		requested.displayName,
		stored.displayName,
		requested.displayName === stored.displayName,
	);
	check(
		'color',
		requested.color,
		stored.color,
		(requested.color ?? '').toUpperCase() === (stored.color ?? '').toUpperCase(),
	);
	check(
		'description',
		requested.description,
		stored.description,
		(requested.description ?? '') === (stored.description ?? ''),
	);
	check('order', requested.order, stored.order, requested.order === stored.order);
	if (requested.components) {
		const want = [...requested.components].map((name) => name.toUpperCase()).sort();
		const have = [...stored.components].sort();
		// An empty set read back means the server does not say: nothing to compare.
		check('components', want, have, have.length === 0 || want.join() === have.join());
	}
	return differs;
}

/**
 * Creates a calendar (MKCALENDAR) or an address book (extended MKCOL, RFC 5689) and reports what of the
 * request the server did not apply. Properties refused at creation are tried once more each with its own
 * PROPPATCH (servers differ in what MKCALENDAR takes); the component set cannot be changed afterwards.
 * The answer is the collection as read back, never what was asked for.
 */
export async function createCollection(
	client: DavClient,
	kind: DataKind,
	url: string,
	props: CollectionProps,
	components?: string[],
): Promise<{ collection: DavCollection; notApplied: NotApplied[] }> {
	const what = kind === 'calendar' ? 'the calendar' : 'the address book';
	const response = await client.http({
		method: kind === 'calendar' ? 'MKCALENDAR' : 'MKCOL',
		url,
		headers: { 'Content-Type': 'application/xml; charset=utf-8' },
		body: kind === 'calendar' ? mkcalendarBody(props, components ?? ['VEVENT']) : mkcolBody(props),
		// A refused property fails the whole request (403/409/424) with the per-property answer in the body.
		accept: [207, 403, 409, 424],
		write: true,
	});
	const statuses = propertyStatuses(response);
	if (response.status >= 300 && response.status !== 207) {
		const refused = refusedOf(statuses);
		throw new DavError(
			`Creating ${what} was refused by the server (${response.status})${refused.length ? `: ${listOf(refused)}` : ''}`,
			refused.length
				? 'Nothing was created. Leave out the refused properties and try again; set them afterwards with Update if the server allows it.'
				: 'Nothing was created. The account may lack permission to create collections here, or the name is taken.',
			response.status,
		);
	}
	const patchable: Record<string, keyof CollectionProps> = {
		displayname: 'displayName',
		'calendar-color': 'color',
		'calendar-description': 'description',
		'addressbook-description': 'description',
		'calendar-order': 'order',
	};
	const afterPatch: PropertyStatus[] = statuses.filter(
		(entry) => entry.status >= 200 && entry.status < 300,
	);
	for (const entry of refusedOf(statuses)) {
		const field = patchable[entry.property];
		if (!field || props[field] === undefined) {
			afterPatch.push(entry);
			continue;
		}
		const retried = await client.http({
			method: 'PROPPATCH',
			url,
			headers: { 'Content-Type': 'application/xml; charset=utf-8' },
			body: proppatchBody(kind, { [field]: props[field] }),
			accept: [207, 403, 409, 424],
			write: true,
		});
		const outcome = refusedOf(propertyStatuses(retried));
		afterPatch.push(
			outcome.length > 0 || retried.status >= 300
				? { property: entry.property, status: outcome[0]?.status ?? retried.status }
				: { property: entry.property, status: 200 },
		);
	}
	const collection = await readCollection(client, url, kind);
	return {
		collection,
		notApplied: compareWithStored({ ...props, components }, collection, afterPatch),
	};
}

/**
 * PROPPATCH of a collection's properties, compared with what is read back: a server may answer 200 for a
 * property it then does not keep. RFC 4918 makes a PROPPATCH all-or-nothing, yet some servers apply part of
 * it and refuse the rest; the error names both.
 */
export async function updateCollection(
	client: DavClient,
	kind: DataKind,
	url: string,
	props: CollectionProps,
): Promise<{ collection: DavCollection; notApplied: NotApplied[] }> {
	const what = kind === 'calendar' ? 'the calendar' : 'the address book';
	const response = await client.http({
		method: 'PROPPATCH',
		url,
		headers: { 'Content-Type': 'application/xml; charset=utf-8' },
		body: proppatchBody(kind, props),
		accept: [207, 403, 409, 424],
		write: true,
	});
	const statuses = propertyStatuses(response);
	// 424 Failed Dependency: not applied because another property failed; it names no cause of its own.
	const refused = refusedOf(statuses).filter((entry) => entry.status !== 424);
	if (refused.length > 0 || (response.status >= 300 && response.status !== 207)) {
		const collection = await readCollection(client, url, kind).catch(() => undefined);
		const missing = collection ? compareWithStored(props, collection, statuses) : undefined;
		const kept = missing
			? Object.keys(props).filter(
					(key) =>
						props[key as keyof CollectionProps] !== undefined &&
						!missing.some((entry) => entry.property === key),
				)
			: [];
		throw new DavError(
			`Updating ${what} was refused by the server: ${refused.length ? listOf(refused) : `status ${response.status}`}`,
			`${kept.length ? `Applied nonetheless: ${kept.join(', ')}. ` : ''}The server does not let this account change the refused properties; leave them out.`,
			refused[0]?.status ?? response.status,
		);
	}
	const collection = await readCollection(client, url, kind);
	return { collection, notApplied: compareWithStored(props, collection, statuses) };
}

/** DELETE of a whole collection; servers that keep collections fixed answer 403/405, which says so. */
export async function deleteCollection(
	client: DavClient,
	kind: DataKind,
	url: string,
): Promise<void> {
	const what = kind === 'calendar' ? 'calendar' : 'address book';
	const response = await client.http({
		method: 'DELETE',
		url,
		headers: {},
		accept: [207, 403, 405, 409],
		write: true,
	});
	if (response.status === 403 || response.status === 405 || response.status === 409) {
		throw new DavError(
			`The server does not allow deleting this ${what} (${response.status})`,
			`Nothing was deleted. Delete it in the server's own interface, or ask its administrator.`,
			response.status,
		);
	}
	client.checkInnerStatuses(response, url, `Deleting the ${what}`);
}
