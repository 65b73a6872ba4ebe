import type { DavClient, StoredObject } from './client';
import { DavError } from './errors';
import { parseCalendar, uidOf } from './icalendar';
import type { Multistatus } from './multistatus';
import { objectsFrom } from './objects';
import { calendarQueryBody } from './requests';

function uidIn(data: string): string | undefined {
	try {
		return uidOf(parseCalendar(data));
	} catch {
		return undefined;
	}
}

/**
 * The event whose UID is exactly `uid`. CalDAV's text-match has no exact match type, and servers match
 * substrings, so the answer is filtered here; two objects with the same UID (another client broke
 * RFC 4791's uniqueness) are an error naming both.
 */
export async function findEventByUid(
	client: DavClient,
	calendarUrl: string,
	uid: string,
): Promise<StoredObject | undefined> {
	const result = (await client.report(
		calendarUrl,
		'1',
		calendarQueryBody({ uid }),
		'Searching the event by UID',
	)) as Multistatus;
	const exact = objectsFrom(result, 'calendar').filter((object) => uidIn(object.data) === uid);
	if (exact.length > 1) {
		throw new DavError(
			`${exact.length} objects in this calendar share the UID "${uid}": ${exact.map((object) => object.url).join(', ')}`,
			'A UID must be unique within a calendar; another client stored it twice. Get each by URL, keep one and delete the others.',
		);
	}
	return exact[0];
}
