import type { DavClient } from './client';
import { DavError } from './errors';
import { hrefKey, parseMultistatus, prop, propHref, type DavResource } from './multistatus';
import { NS, qname } from './namespaces';
import { propfindBody, type DataKind } from './requests';
import { withOutcome } from '../errors/outcome';
import { displayUrl } from '../urls';

/**
 * What a URL is on the server, from its `resourcetype` (Depth 0): a write names one kind of target, and a
 * DELETE or PROPPATCH of a home or a principal would take every collection under it.
 */
export type ResourceKind =
	| 'calendar'
	| 'addressbook'
	| 'principal'
	| 'collection'
	| 'object'
	| 'missing'
	| 'not-dav';

export interface ResourceInfo {
	kind: ResourceKind;
	url: string;
	/** The status the server gave when it answered no multistatus (missing, not-dav). */
	status?: number;
}

// Answers to a PROPFIND that say "nothing DAV here" rather than a failure worth retrying or raising.
export const NOT_DAV_STATUSES = [200, 204, 400, 404, 405, 410, 415, 501];

const KIND_PROPS = [qname(NS.DAV, 'resourcetype'), qname(NS.DAV, 'current-user-principal')];

async function propfindZero(
	client: DavClient,
	url: string,
): Promise<{ status: number; resource?: DavResource }> {
	const response = await client.http({
		method: 'PROPFIND',
		url,
		headers: { Depth: '0', 'Content-Type': 'application/xml; charset=utf-8' },
		body: propfindBody(KIND_PROPS),
		accept: [207, 403, ...NOT_DAV_STATUSES],
	});
	if (response.status !== 207 || !/multistatus/.test(response.body))
		return { status: response.status === 207 ? 200 : response.status };
	let responses: DavResource[];
	try {
		responses = parseMultistatus(response.body, url).responses;
	} catch {
		return { status: 200 };
	}
	const self = hrefKey(url);
	const resource = responses.find((entry) => entry.key === self) ?? responses[0];
	if (resource?.status !== undefined && resource.status >= 400) return { status: resource.status };
	return { status: 207, resource };
}

function kindOf(resource: DavResource): ResourceKind {
	const type = prop(resource, NS.DAV, 'resourcetype');
	const has = (ns: string, name: string) =>
		(type?.children ?? []).some((entry) => entry.ns === ns && entry.name === name);
	if (has(NS.CALDAV, 'calendar')) return 'calendar';
	if (has(NS.CARDDAV, 'addressbook')) return 'addressbook';
	if (has(NS.DAV, 'principal')) return 'principal';
	if (has(NS.DAV, 'collection')) return 'collection';
	return 'object';
}

/**
 * The kind of the resource at `url` (PROPFIND Depth 0). When it answers no multistatus, the credential's DAV
 * URL is asked too: a server that answers no multistatus there either is not a CalDAV/CardDAV server.
 */
export async function readResourceKind(client: DavClient, url: string): Promise<ResourceInfo> {
	const found = await propfindZero(client, url);
	if (found.resource) return { kind: kindOf(found.resource), url };
	const root =
		hrefKey(url) === hrefKey(client.rootUrl) ? found : await propfindZero(client, client.rootUrl);
	if (!root.resource) return { kind: 'not-dav', url, status: found.status };
	return { kind: 'missing', url, status: found.status };
}

/** What a write may target: one kind of collection, or an object inside one. */
export type Target = DataKind | 'object';

const TARGET_TEXT: Record<Target, string> = {
	calendar: 'a calendar',
	addressbook: 'an address book',
	object: 'a single object (an event or a contact)',
};

/** The account's homes and principal, asked only to word a refusal; nothing else depends on them. */
async function accountRoles(client: DavClient, url: string): Promise<string[]> {
	const key = hrefKey(url);
	const roles: string[] = [];
	try {
		const root = await propfindZero(client, client.rootUrl);
		const principal = root.resource
			? propHref(root.resource, NS.DAV, 'current-user-principal', client.rootUrl)
			: undefined;
		if (!principal) return roles;
		if (hrefKey(principal) === key) roles.push('the account’s principal');
		const homes = await client.propfind(principal, '0', [
			qname(NS.CALDAV, 'calendar-home-set'),
			qname(NS.CARDDAV, 'addressbook-home-set'),
		]);
		const resource = homes.responses[0];
		if (!resource) return roles;
		const calendarHome = propHref(resource, NS.CALDAV, 'calendar-home-set', principal);
		const bookHome = propHref(resource, NS.CARDDAV, 'addressbook-home-set', principal);
		if (calendarHome && hrefKey(calendarHome) === key) roles.push('its calendar home');
		if (bookHome && hrefKey(bookHome) === key) roles.push('its address book home');
	} catch {
		// Only the wording is poorer without them.
	}
	return roles;
}

/** "a calendar", "the account's principal and its calendar home (…)", … for a refusal's message. */
export async function describeResource(client: DavClient, info: ResourceInfo): Promise<string> {
	switch (info.kind) {
		case 'calendar':
			return 'a calendar';
		case 'addressbook':
			return 'an address book';
		case 'object':
			return 'a single object (an event or a contact), not a collection';
		case 'missing':
			return info.status === 403
				? 'not readable with this credential (403)'
				: `not found on the DAV server (${info.status ?? 404})`;
		case 'not-dav':
			return `not on a CalDAV/CardDAV server: the server answers no WebDAV PROPFIND there or at the credential's DAV URL (${info.status ?? 'no multistatus'})`;
		default: {
			const roles = await accountRoles(client, info.url);
			const what = info.kind === 'principal' ? 'a principal (an account)' : 'a plain collection';
			const named =
				roles.length > 1
					? `${roles.slice(0, -1).join(', ')} and ${roles[roles.length - 1]}`
					: roles[0];
			return roles.length
				? `${named} (it holds the account’s collections)`
				: `${what}, which may hold collections and is neither a calendar nor an address book`;
		}
	}
}

/** What to pick instead, given what the URL is and what the operation needs. */
function pickInstead(operation: string, want: Target, info: ResourceInfo): string {
	if (info.kind === 'not-dav')
		return "Check the DAV URL in the credential: it must be the server's CalDAV/CardDAV address (the one a calendar app would use).";
	if (info.kind === 'missing' && info.status === 403)
		return 'Use a credential of the account that owns it, or pick one from the list (Get Many shows every URL).';
	if (info.kind === 'missing')
		return want === 'object'
			? 'It was deleted already, or the URL is wrong. Get Many lists the URLs that exist.'
			: 'It was deleted already, or the URL is wrong. Pick one from the list (Get Many shows every URL).';
	if (want === 'object') {
		const node =
			info.kind === 'calendar'
				? 'To delete the whole calendar, use Calendar → Delete Calendar, which checks it is one.'
				: info.kind === 'addressbook'
					? 'To delete the whole address book, use Contacts → Delete Address Book.'
					: 'Nothing this node manages lives at this URL.';
		return `${operation} acts on one object: give its URL (the url field of Get or Get Many). ${node}`;
	}
	const list =
		want === 'calendar'
			? 'Pick a calendar from the list (Calendar → Get Many shows each calendar’s URL).'
			: 'Pick an address book from the list (Contacts → Get Many Address Books shows each URL).';
	if (info.kind === 'object')
		return `${list} To act on this one ${want === 'calendar' ? 'event, use the Event' : 'contact, use the Contact'} operations.`;
	if (info.kind === 'calendar' || info.kind === 'addressbook')
		return `${list} ${info.kind === 'calendar' ? 'Calendars are changed in the Calendar node.' : 'Address books are changed in the Contacts node.'}`;
	return `${list} The node never ${operation.toLowerCase().startsWith('delete') ? 'deletes' : 'changes'} a home, a principal or a plain collection: that would take every collection inside it.`;
}

export interface KindCheck {
	/** "Delete Calendar", "Create Event": the operation as the user picked it. */
	operation: string;
	/** What the operation needs at the URL. */
	want: Target;
	/** How the description opens: what this failure left unchanged. */
	nothing?: string;
}

/** A write (or read) whose target is not the kind it names; `refused`: nothing was sent. */
export async function wrongKindError(
	client: DavClient,
	check: KindCheck,
	info: ResourceInfo,
	verb: 'refused' | 'failed' = 'refused',
): Promise<DavError> {
	const error = new DavError(
		`${check.operation} ${verb}: ${info.url} is ${await describeResource(client, info)}, not ${TARGET_TEXT[check.want]}`,
		`${check.nothing ?? 'Nothing was changed.'} ${pickInstead(check.operation, check.want, info)}`,
		info.status,
		{ kind: info.kind === 'not-dav' || info.kind === 'missing' ? 'api' : 'input' },
	);
	return withOutcome(error, 'not-applied');
}

/**
 * Reads the kind of `url` before a write and refuses unless it is exactly the one wanted: Delete Calendar
 * deletes a calendar, never a home, a principal, an address book or an event; an object delete an object.
 */
export async function requireKind(
	client: DavClient,
	url: string,
	check: KindCheck,
): Promise<ResourceInfo> {
	const info = await readResourceKind(client, url);
	if (info.kind === check.want) return info;
	if (check.want === 'object' && info.kind === 'missing' && info.status !== 403) {
		throw withOutcome(
			new DavError(
				`The ${client.objectLabel} does not exist (${info.status ?? 404})`,
				`${check.nothing ?? 'Nothing was changed.'} It was deleted already, or the URL is wrong.`,
				info.status ?? 404,
			),
			'not-applied',
		);
	}
	throw await wrongKindError(client, check, info);
}

// Statuses after which the URL's kind is worth reading: the server refused the request as such.
const DIAGNOSED = [400, 403, 404, 405, 409, 410, 415, 422, 501];

/** The HTTP status an error carries: a DavError's status or an n8n error's httpCode (a string there). */
export function statusOfError(error: unknown): number | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	const holder = error as { status?: unknown; httpCode?: unknown };
	const status = Number(holder.status ?? holder.httpCode);
	return Number.isInteger(status) && status > 0 ? status : undefined;
}

/**
 * After a 4xx to a request on `url` (a collection, or an object): when the URL is not the kind the operation
 * needs, that is the cause to name — an event stored into an address book answers "400 bad data", a server
 * that is not DAV "404" — else undefined and the original error stands. A failed look changes nothing.
 */
export async function kindDiagnosis(
	client: DavClient,
	url: string,
	check: KindCheck,
	error: unknown,
): Promise<DavError | undefined> {
	const status = statusOfError(error);
	if (status === undefined || !DIAGNOSED.includes(status)) return undefined;
	try {
		const info = await readResourceKind(client, url);
		if (info.kind === check.want) return undefined;
		// An object not found is what the original 404 already says.
		if (check.want === 'object' && info.kind === 'missing') return undefined;
		return await wrongKindError(client, check, info, 'failed');
	} catch {
		return undefined;
	}
}

/** Runs `work`; a 4xx it fails with is replaced by what `url` really is, when that is the cause. */
export async function explainingKind<T>(
	client: DavClient,
	url: string,
	check: KindCheck,
	work: () => Promise<T>,
): Promise<T> {
	try {
		return await work();
	} catch (error) {
		throw (await kindDiagnosis(client, url, check, error)) ?? error;
	}
}

/** The error for a DAV URL in the credential whose server answered no multistatus to PROPFIND. */
export function notDavServerError(rootUrl: string, status: number): DavError {
	return new DavError(
		`The DAV URL ${displayUrl(rootUrl)} is not a CalDAV/CardDAV server: it answered ${status} to PROPFIND`,
		"Nothing was changed. Check the DAV URL in the credential: it must be the server's CalDAV/CardDAV address (the one a calendar app would use), not a web page.",
		status,
	);
}
