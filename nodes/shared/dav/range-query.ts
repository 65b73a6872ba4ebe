import type { DavClient, StoredObject } from './client';
import { expandCalendarData } from './event-view';
import { hrefKey, type Multistatus } from './multistatus';
import { objectsFrom } from './objects';
import { calendarQueryBody } from './requests';

const RECURRENCE_PROPERTIES = ['RRULE', 'RDATE'];
/** Answers of a server that does not support a query's filter. */
const FILTER_REFUSED = [400, 403, 412, 415, 422, 501];

/** Whether any occurrence of the object overlaps [start, end). */
function occursIn(data: string, start: Date, end: Date | undefined): boolean {
	try {
		const to = end ? end.getTime() / 1000 : Number.MAX_SAFE_INTEGER;
		return expandCalendarData(data, start.getTime() / 1000, to, 1).length > 0;
	} catch {
		// An object the pack cannot read is shown rather than hidden; the caller describes it as it can.
		return true;
	}
}

/**
 * Events in a time range (calendar-query with time-range). RFC 4791 9.9 has the server match a recurring
 * series by any of its instances, but some servers (Xandikos 0.2.8) match only the first one, so a series
 * that began before the range is missing from their answer. Recurring series are therefore asked for apart
 * (a prop-filter on RRULE and on RDATE, which every server answers alike) and the ones the range answer
 * lacks are expanded here and added when an occurrence falls in the range. Without a start bound the
 * first instance decides, which every server gets right, so no second query is made.
 */
export async function eventsInRange(
	client: DavClient,
	calendarUrl: string,
	range: { start?: Date; end?: Date },
	what: string,
): Promise<StoredObject[]> {
	const found = objectsFrom(
		(await client.report(calendarUrl, '1', calendarQueryBody(range), what)) as Multistatus,
		'calendar',
	);
	if (!range.start) return found;
	const known = new Set(found.map((object) => hrefKey(object.url)));
	const query = async (hasProperty?: string) => {
		const answer = await client.report(
			calendarUrl,
			'1',
			calendarQueryBody({ hasProperty }),
			`${what} (recurring events)`,
			hasProperty ? FILTER_REFUSED : [],
		);
		return 'responses' in answer ? objectsFrom(answer, 'calendar') : undefined;
	};
	let series: StoredObject[] = [];
	for (const property of RECURRENCE_PROPERTIES) {
		const answer = await query(property);
		if (answer) {
			series.push(...answer);
			continue;
		}
		// RFC 4791 7.7 lets a server refuse a filter it does not support (CALDAV:supported-filter): then
		// every event is fetched and the recurring ones are found here.
		series = (await query()) ?? [];
		break;
	}
	for (const object of series) {
		const key = hrefKey(object.url);
		if (known.has(key) || !occursIn(object.data, range.start, range.end)) continue;
		known.add(key);
		found.push(object);
	}
	return found;
}
