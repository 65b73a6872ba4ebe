import { MAY_HAVE_BEEN_APPLIED, withOutcome } from '../errors/outcome';
import type { DavClient } from './client';
import { probeCollection, readCollection, type DavCollection } from './discovery';
import { DavError } from './errors';
import type { DavHttpResponse } from './http';
import { failures, parseMultistatus, statusCode } from './multistatus';
import { NS } from './namespaces';
import {
	mkcalendarBody,
	mkcolBody,
	proppatchBody,
	type CollectionProps,
	type DataKind,
} from './requests';
import { requireKind, statusOfError } from './resource-kind';
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

const LABEL: Record<DataKind, { the: string; plain: string; title: string }> = {
	calendar: { the: 'the calendar', plain: 'calendar', title: 'Calendar' },
	addressbook: { the: 'the address book', plain: 'address book', title: 'Address Book' },
};

/**
 * The read that settles a collection write whose answer was lost. When it fails, nothing can be said:
 * "may have been applied", outcome unknown, never "nothing was changed"; the write is not sent again.
 */
async function proving<T>(write: string, url: string, read: () => Promise<T>): Promise<T> {
	try {
		return await read();
	} catch (error) {
		throw withOutcome(
			new DavError(
				`${MAY_HAVE_BEEN_APPLIED}: the answer to ${write} was lost, and reading ${url} to check it failed (${error instanceof Error ? error.message : String(error)})`,
				`The node did not send it again. Look at the collection (Get Many) before running this item again.`,
				statusOfError(error),
			),
			'unknown',
		);
	}
}

function unsettled(write: string, url: string, found: string): DavError {
	return withOutcome(
		new DavError(
			`${MAY_HAVE_BEEN_APPLIED}: the answer to ${write} was lost, and ${url} now holds ${found}`,
			'The node did not send it again. Look at the collection (Get Many) before running this item again.',
		),
		'unknown',
	);
}

const refusal = (message: string, description: string, status: number) =>
	withOutcome(new DavError(message, description, status), 'not-applied');

const XML = { 'Content-Type': 'application/xml; charset=utf-8' };

/**
 * Creates a calendar (MKCALENDAR) or an address book (extended MKCOL, RFC 5689) and reports what of the
 * request the server did not apply. Properties refused at creation are tried once more each with its own
 * PROPPATCH (servers differ in what MKCALENDAR takes); the component set cannot be changed afterwards.
 * The answer is the collection as read back, never what was asked for.
 *
 * The URL is new (a UUID): after a lost answer a collection of this kind there can only be ours, and
 * nothing there means the request can go again without making a second one.
 */
export async function createCollection(
	client: DavClient,
	kind: DataKind,
	url: string,
	props: CollectionProps,
	components?: string[],
): Promise<{ collection: DavCollection; notApplied: NotApplied[] }> {
	const what = LABEL[kind].the;
	const write = `creating ${what}`;
	let answerLost = false;
	const isOurs = async (): Promise<boolean> => {
		const found = await proving(write, url, () => probeCollection(client, url, kind));
		if (found === 'absent') return false;
		if (found === 'other') throw unsettled(write, url, `something that is not ${what}`);
		return true;
	};
	const response = await client.http({
		method: kind === 'calendar' ? 'MKCALENDAR' : 'MKCOL',
		url,
		headers: XML,
		body: kind === 'calendar' ? mkcalendarBody(props, components ?? ['VEVENT']) : mkcolBody(props),
		// A refused property fails the whole request (403/409/424) with the per-property answer in the body.
		// 405: the URL is taken (RFC 4918 9.3.1), which after a lost answer may be our own first request.
		accept: [207, 403, 405, 409, 424],
		write: {
			reconcile: async () => {
				answerLost = true;
				return (await isOurs()) ? { created: true } : undefined;
			},
		},
	});
	const statuses = response.reconciled ? [] : propertyStatuses(response);
	const repeatFoundOurs =
		answerLost && [403, 405, 409].includes(response.status) && (await isOurs());
	if (
		!response.reconciled &&
		!repeatFoundOurs &&
		response.status >= 300 &&
		response.status !== 207
	) {
		const refused = refusedOf(statuses);
		throw refusal(
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
		const retried = await patchSettled(client, kind, url, { [field]: props[field] });
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
 * PROPPATCH sets values, so sending it again cannot do anything twice: after a lost answer the collection
 * is read, and when it holds every value sent the write is proven applied; otherwise it goes again.
 */
async function patchSettled(
	client: DavClient,
	kind: DataKind,
	url: string,
	props: CollectionProps,
): Promise<DavHttpResponse> {
	const write = `updating ${LABEL[kind].the}`;
	return await client.http({
		method: 'PROPPATCH',
		url,
		headers: XML,
		body: proppatchBody(kind, props),
		accept: [207, 403, 409, 424],
		write: {
			reconcile: async () => {
				const found = await proving(write, url, () => probeCollection(client, url, kind));
				if (found === 'absent') throw unsettled(write, url, 'nothing: the collection is gone');
				if (found === 'other')
					throw unsettled(write, url, `something that is not ${LABEL[kind].the}`);
				return compareWithStored(props, found, []).length === 0 ? { patched: true } : undefined;
			},
		},
	});
}

/**
 * PROPPATCH of a collection's properties, compared with what is read back: a server may answer 200 for a
 * property it then does not keep. RFC 4918 makes a PROPPATCH all-or-nothing, yet some servers apply part of
 * it and refuse the rest; the error names both. The URL must be exactly a collection of this kind: a home's
 * or a principal's properties are never changed.
 */
export async function updateCollection(
	client: DavClient,
	kind: DataKind,
	url: string,
	props: CollectionProps,
): Promise<{ collection: DavCollection; notApplied: NotApplied[] }> {
	const what = LABEL[kind].the;
	await requireKind(client, url, { operation: `Update ${LABEL[kind].title}`, want: kind });
	const response = await patchSettled(client, kind, url, props);
	const statuses = response.reconciled ? [] : propertyStatuses(response);
	// 424 Failed Dependency: not applied because another property failed; it names no cause of its own.
	const refused = refusedOf(statuses).filter((entry) => entry.status !== 424);
	if (
		!response.reconciled &&
		(refused.length > 0 || (response.status >= 300 && response.status !== 207))
	) {
		const collection = await readCollection(client, url, kind).catch(() => undefined);
		const missing = collection ? compareWithStored(props, collection, statuses) : undefined;
		const kept = missing
			? Object.keys(props).filter(
					(key) =>
						props[key as keyof CollectionProps] !== undefined &&
						!missing.some((entry) => entry.property === key),
				)
			: [];
		const error = new DavError(
			`Updating ${what} was refused by the server: ${refused.length ? listOf(refused) : `status ${response.status}`}`,
			`${kept.length ? `Applied nonetheless: ${kept.join(', ')}. ` : ''}The server does not let this account change the refused properties; leave them out.`,
			refused[0]?.status ?? response.status,
		);
		throw withOutcome(error, kept.length ? 'applied' : 'not-applied');
	}
	const collection = await readCollection(client, url, kind);
	return { collection, notApplied: compareWithStored(props, collection, statuses) };
}

/**
 * DELETE of a whole calendar or address book, after its `resourcetype` shows it is exactly that: never a
 * home, a principal, a plain collection, the other kind or an object. Servers that keep collections fixed
 * answer 403/405, which says so. A lost answer is settled by reading the URL: nothing there is deleted
 * (by this request or another client's at the same moment); still there, the DELETE goes again.
 */
export async function deleteCollection(
	client: DavClient,
	kind: DataKind,
	url: string,
): Promise<{ goneAfterLostAnswer?: true }> {
	const what = LABEL[kind].plain;
	const write = `deleting the ${what}`;
	await requireKind(client, url, {
		operation: `Delete ${LABEL[kind].title}`,
		want: kind,
		nothing: 'Nothing was deleted.',
	});
	let answerLost = false;
	const response = await client.http({
		method: 'DELETE',
		url,
		headers: {},
		accept: [207, 403, 404, 405, 409, 410],
		write: {
			reconcile: async () => {
				answerLost = true;
				const found = await proving(write, url, () => probeCollection(client, url, kind));
				if (found === 'other') throw unsettled(write, url, `something that is not a ${what}`);
				return found === 'absent' ? { gone: true } : undefined;
			},
		},
	});
	if (response.reconciled) return { goneAfterLostAnswer: true };
	if (response.status === 404 || response.status === 410) {
		if (answerLost) return { goneAfterLostAnswer: true };
		throw refusal(
			`The ${what} does not exist (${response.status})`,
			'It was deleted already, or the URL is wrong. Nothing was deleted.',
			response.status,
		);
	}
	if (response.status === 403 || response.status === 405 || response.status === 409) {
		throw refusal(
			`The server does not allow deleting this ${what} (${response.status})`,
			`Nothing was deleted. Delete it in the server's own interface, or ask its administrator.`,
			response.status,
		);
	}
	if (response.status === 207) {
		const gone = failures(parseMultistatus(response.body, url).responses).every(
			(entry) => entry.status === 404 || entry.status === 410,
		);
		if (answerLost && gone) return { goneAfterLostAnswer: true };
	}
	client.checkInnerStatuses(response, url, `Deleting the ${what}`);
	return {};
}
