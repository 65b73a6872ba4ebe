import { DavError } from './errors';
import { NS } from './namespaces';
import { statusCode } from './multistatus';
import { child, children, parseXml, textOf, type XmlElement } from './xml';

/** A failed precondition or postcondition a server named in its answer to a write (RFC 4918 16, 4791 5.3.2.1, 6352 6.3.2.1). */
export interface WriteCondition {
	/** The element's local name, e.g. `no-uid-conflict`. */
	condition: string;
	/** The status of the response carrying it. */
	status: number;
	/** no-uid-conflict: the object that already has the UID, when the server says which. */
	href?: string;
	/** The server's own words (`responsedescription`), when given. */
	said?: string;
}

const EXPLAIN: Record<string, (condition: WriteCondition, what: string) => [string, string]> = {
	'no-uid-conflict': (c, what) => [
		`An ${what} with the same UID already exists${c.href ? ` at ${c.href}` : ' in this collection'} (${c.status})`,
		`Nothing was stored. UIDs are unique per collection: update the existing ${what}${c.href ? '' : ' (Get by UID finds it)'}, or give this one another UID.`,
	],
	'uid-conflict': (c, what) => EXPLAIN['no-uid-conflict'](c, what),
	'supported-calendar-component': (c) => [
		`The calendar does not accept this kind of component (${c.status})`,
		"Nothing was stored. Use a calendar whose component set includes it (Get Many calendars lists each one's components).",
	],
	'supported-calendar-data': (c) => [
		`The server does not accept this calendar data format (${c.status})`,
		'Nothing was stored. Send iCalendar 2.0 (text/calendar).',
	],
	'supported-address-data': (c) => [
		`The server does not accept this vCard format (${c.status})`,
		'Nothing was stored. Send vCard 3.0 or 4.0 (text/vcard).',
	],
	'valid-calendar-data': (c) => [
		`The server refused the iCalendar data as invalid (${c.status})`,
		'Nothing was stored. Check the iCalendar text (Input: Raw) or the fields.',
	],
	'valid-address-data': (c) => [
		`The server refused the vCard data as invalid (${c.status})`,
		'Nothing was stored. Check the vCard text or the fields.',
	],
	'valid-calendar-object-resource': (c) => [
		`The server refused the object: it breaks CalDAV's rules for one calendar object (${c.status})`,
		'Nothing was stored. One object holds one UID (a series with its exceptions), and every TZID needs its VTIMEZONE.',
	],
	'max-resource-size': (c, what) => [
		`The ${what} is larger than the server allows (${c.status})`,
		'Nothing was stored. Shorten long fields or remove attachments and photos.',
	],
	'min-date-time': (c) => [
		`A date is earlier than the server accepts (${c.status})`,
		'Nothing was stored. Use a later date.',
	],
	'max-date-time': (c) => [
		`A date is later than the server accepts (${c.status})`,
		'Nothing was stored. Use an earlier date.',
	],
	'max-instances': (c) => [
		`The series has more occurrences than the server accepts (${c.status})`,
		'Nothing was stored. Limit the recurrence with COUNT or UNTIL.',
	],
	'max-attendees-per-instance': (c) => [
		`The event has more attendees than the server accepts (${c.status})`,
		'Nothing was stored. Invite fewer attendees.',
	],
	'calendar-collection-location-ok': (c) => [
		`A calendar cannot be created at this place (${c.status})`,
		"Create it in the account's calendar home.",
	],
	'addressbook-collection-location-ok': (c) => [
		`An address book cannot be created at this place (${c.status})`,
		"Create it in the account's address-book home.",
	],
	'need-privileges': (c) => [
		`The account lacks the permission for this change (${c.status})`,
		"Nothing was changed. Ask the collection's owner for write access.",
	],
	'quota-not-exceeded': (c) => [
		`The account's storage quota is exhausted (${c.status})`,
		'Nothing was stored. Free space on the server.',
	],
	'sufficient-disk-space': (c) => [
		`The server is out of disk space (${c.status})`,
		"Nothing was stored. Ask the server's administrator.",
	],
};

function conditionIn(
	error: XmlElement | undefined,
	status: number,
	said: string | undefined,
): WriteCondition | undefined {
	const first = error?.children.find(
		(element) => element.ns === NS.DAV || element.ns === NS.CALDAV || element.ns === NS.CARDDAV,
	);
	if (!first) return undefined;
	const href = textOf(child(first, NS.DAV, 'href'));
	return { condition: first.name, status, ...(href ? { href } : {}), ...(said ? { said } : {}) };
}

/**
 * The condition a write's answer names: a `DAV:error` body (4xx), or an inner response of a 207 that is not
 * 2xx. Undefined when the answer names none (or is not XML).
 */
export function writeCondition(body: string, status: number): WriteCondition | undefined {
	if (!/<([A-Za-z0-9_-]+:)?(error|multistatus)[\s>/]/.test(body)) return undefined;
	let root: XmlElement;
	try {
		root = parseXml(body);
	} catch {
		return undefined;
	}
	if (root.ns === NS.DAV && root.name === 'error') return conditionIn(root, status, undefined);
	if (root.ns !== NS.DAV || root.name !== 'multistatus') return undefined;
	for (const response of children(root, NS.DAV, 'response')) {
		const inner = statusCode(textOf(child(response, NS.DAV, 'status')));
		if (inner >= 200 && inner < 300) continue;
		const said = textOf(child(response, NS.DAV, 'responsedescription'))?.trim() || undefined;
		return (
			conditionIn(child(response, NS.DAV, 'error'), inner, said) ?? {
				condition: '',
				status: inner,
				...(said ? { said } : {}),
			}
		);
	}
	return undefined;
}

/** The error for a write the server refused, naming the condition, its fix and the server's own words. */
export function conditionError(condition: WriteCondition, what: string, url: string): DavError {
	const explain = EXPLAIN[condition.condition];
	const [message, fix] = explain
		? explain(condition, what)
		: [
				`The server refused to store the ${what} (${condition.status}${condition.condition ? `, ${condition.condition}` : ''})`,
				`Nothing was stored at ${url}.`,
			];
	const said = condition.said ? ` The server said: "${condition.said.slice(0, 300)}"` : '';
	return new DavError(message, `${fix}${said}`, condition.status);
}
