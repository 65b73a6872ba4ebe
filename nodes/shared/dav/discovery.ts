import type { DavClient } from './client';
import { DavError } from './errors';
import {
	hrefKey,
	parseMultistatus,
	prop,
	propHref,
	propText,
	type DavResource,
} from './multistatus';
import { NS, qname } from './namespaces';
import { propfindBody, type DataKind } from './requests';
import { NOT_DAV_STATUSES, notDavServerError } from './resource-kind';
import { children, child, textOf } from './xml';
import { displayUrl } from '../urls';

export interface DavCollection {
	url: string;
	/** The last path segment, e.g. `work` or `shared-42`. */
	id: string;
	kind: DataKind;
	displayName: string;
	color?: string;
	description?: string;
	order?: number;
	/** Supported component types (calendars); empty when the server does not say (then anything goes). */
	components: string[];
	privileges: string[];
	/** Undefined when the server did not send a report set: then nothing is known either way. */
	supportedReports?: string[];
	syncToken?: string;
	ctag?: string;
	/** A calendar shared into this account: `shared-<calendarId>`. */
	shared: boolean;
}

const HOME_PROP: Record<DataKind, { ns: string; name: string }> = {
	calendar: qname(NS.CALDAV, 'calendar-home-set'),
	addressbook: qname(NS.CARDDAV, 'addressbook-home-set'),
};

const LABEL: Record<DataKind, string> = { calendar: 'Calendar', addressbook: 'Address book' };

/** current-user-principal → calendar-home-set / addressbook-home-set, as the spec prescribes; nothing is guessed. */
export async function discoverHome(client: DavClient, kind: DataKind): Promise<string> {
	const answer = await client.http({
		method: 'PROPFIND',
		url: client.rootUrl,
		headers: { Depth: '0', 'Content-Type': 'application/xml; charset=utf-8' },
		body: propfindBody([qname(NS.DAV, 'current-user-principal')]),
		// A server that is not DAV answers these (or a web page): say so, not "the object no longer exists".
		accept: [207, ...NOT_DAV_STATUSES],
	});
	if (answer.status !== 207 || !/multistatus/.test(answer.body))
		throw notDavServerError(client.rootUrl, answer.status);
	const root = parseMultistatus(answer.body, client.rootUrl);
	const principal = root.responses
		.map((resource) => propHref(resource, NS.DAV, 'current-user-principal', client.rootUrl))
		.find(Boolean);
	if (!principal) {
		throw new DavError(
			`${LABEL[kind]} discovery failed: the server named no current-user-principal at ${displayUrl(client.rootUrl)}`,
			"Set the DAV URL in the credential to the server's root (the URL a calendar app would use).",
		);
	}
	const principalProps = await client.propfind(
		principal,
		'0',
		[HOME_PROP[kind]],
		`${LABEL[kind]} discovery`,
	);
	const home = principalProps.responses
		.map((resource) => propHref(resource, HOME_PROP[kind].ns, HOME_PROP[kind].name, principal))
		.find(Boolean);
	if (!home) {
		throw new DavError(
			`${LABEL[kind]} discovery failed: the principal has no ${HOME_PROP[kind].name}`,
			kind === 'calendar'
				? 'The server or account offers no calendars (CalDAV).'
				: 'The server or account offers no address books (CardDAV).',
		);
	}
	return home;
}

const COLLECTION_PROPS = [
	qname(NS.DAV, 'displayname'),
	qname(NS.DAV, 'resourcetype'),
	qname(NS.DAV, 'current-user-privilege-set'),
	qname(NS.DAV, 'supported-report-set'),
	qname(NS.DAV, 'sync-token'),
	qname(NS.CALDAV, 'supported-calendar-component-set'),
	qname(NS.CALDAV, 'calendar-description'),
	qname(NS.CARDDAV, 'addressbook-description'),
	qname(NS.APPLE_ICAL, 'calendar-color'),
	qname(NS.APPLE_ICAL, 'calendar-order'),
	qname(NS.CALSERVER, 'getctag'),
];

function isKind(resource: DavResource, kind: DataKind): boolean {
	const type = prop(resource, NS.DAV, 'resourcetype');
	return child(type, kind === 'calendar' ? NS.CALDAV : NS.CARDDAV, kind) !== undefined;
}

export function collectionFrom(resource: DavResource, kind: DataKind): DavCollection {
	const id = resource.key.split('/').pop() ?? '';
	const privileges = children(
		prop(resource, NS.DAV, 'current-user-privilege-set'),
		NS.DAV,
		'privilege',
	).flatMap((privilege) => privilege.children.map((entry) => entry.name));
	// RFC 3253 wraps each name in <report>; servers in the wild (Xandikos, others) put it directly in <supported-report>.
	const reportSet = prop(resource, NS.DAV, 'supported-report-set');
	const supportedReports = reportSet
		? children(reportSet, NS.DAV, 'supported-report').flatMap((supported) =>
				supported.children.flatMap((entry) =>
					entry.ns === NS.DAV && entry.name === 'report'
						? entry.children.map((report) => report.name)
						: [entry.name],
				),
			)
		: undefined;
	const components = children(
		prop(resource, NS.CALDAV, 'supported-calendar-component-set'),
		NS.CALDAV,
		'comp',
	)
		.map((comp) => comp.attrs.name?.toUpperCase())
		.filter(Boolean);
	const order = Number(propText(resource, NS.APPLE_ICAL, 'calendar-order'));
	const description = propText(
		resource,
		kind === 'calendar' ? NS.CALDAV : NS.CARDDAV,
		kind === 'calendar' ? 'calendar-description' : 'addressbook-description',
	);
	return {
		url: resource.url,
		id,
		kind,
		displayName: textOf(prop(resource, NS.DAV, 'displayname')) || id,
		color: textOf(prop(resource, NS.APPLE_ICAL, 'calendar-color')) || undefined,
		description: description || undefined,
		order:
			Number.isFinite(order) && propText(resource, NS.APPLE_ICAL, 'calendar-order')
				? order
				: undefined,
		components,
		privileges,
		supportedReports,
		syncToken: textOf(prop(resource, NS.DAV, 'sync-token')) || undefined,
		ctag: textOf(prop(resource, NS.CALSERVER, 'getctag')) || undefined,
		shared: /^shared-/.test(id),
	};
}

/** The calendars or address books of the account (listing may make the server create a default one). */
export async function listCollections(client: DavClient, kind: DataKind): Promise<DavCollection[]> {
	const home = await discoverHome(client, kind);
	const listing = await client.propfind(
		home,
		'1',
		COLLECTION_PROPS,
		`Listing ${kind === 'calendar' ? 'calendars' : 'address books'}`,
	);
	const homeKey = hrefKey(home);
	return listing.responses
		.filter((resource) => resource.key !== homeKey && isKind(resource, kind))
		.map((resource) => collectionFrom(resource, kind));
}

/** One collection's properties (Depth 0), e.g. to check its component set before storing a VTODO. */
export async function readCollection(
	client: DavClient,
	url: string,
	kind: DataKind,
): Promise<DavCollection> {
	const listing = await client.propfind(
		url,
		'0',
		COLLECTION_PROPS,
		`Reading the ${kind === 'calendar' ? 'calendar' : 'address book'}`,
	);
	const resource = listing.responses[0];
	if (!resource || !isKind(resource, kind)) {
		throw new DavError(
			`${url} is not ${kind === 'calendar' ? 'a calendar' : 'an address book'}`,
			'Pick the collection from the list, or use a URL that Get Many returned.',
		);
	}
	return collectionFrom(resource, kind);
}

/**
 * A collection's state after a write whose answer was lost (Depth 0): 'absent' when the server has nothing
 * there (404/410, or a 207 whose only response is a 404), 'other' when something not of this kind is there.
 * A failed read throws: the caller then cannot tell.
 */
export async function probeCollection(
	client: DavClient,
	url: string,
	kind: DataKind,
): Promise<DavCollection | 'absent' | 'other'> {
	const answer = await client.http({
		method: 'PROPFIND',
		url,
		headers: { Depth: '0', 'Content-Type': 'application/xml; charset=utf-8' },
		body: propfindBody(COLLECTION_PROPS),
		accept: [207, 404, 410],
	});
	if (answer.status === 404 || answer.status === 410) return 'absent';
	const self = hrefKey(url);
	const responses = parseMultistatus(answer.body, url).responses;
	const resource = responses.find((entry) => entry.key === self) ?? responses[0];
	if (!resource || (resource.status !== undefined && resource.status >= 400)) {
		if (!resource || resource.status === 404 || resource.status === 410) return 'absent';
		throw new DavError(
			`Reading ${url} failed (${resource.status})`,
			'The server refused to show the collection.',
			resource.status,
		);
	}
	return isKind(resource, kind) ? collectionFrom(resource, kind) : 'other';
}
