// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Events in a time range on servers that match a recurring series by its first instance only (Xandikos):
 * the recurring series are asked for apart and expanded in the pack; a server that refuses that filter is
 * asked for every event instead.
 */
import { DavClient } from '../../../nodes/shared/dav/client';
import type { DavHttpRequest } from '../../../nodes/shared/dav/http';
import { eventsInRange } from '../../../nodes/shared/dav/range-query';

const lines = (...parts: string[]) => parts.join('\r\n') + '\r\n';
const event = (uid: string, start: string, rule?: string) =>
	lines(
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//T//EN',
		'BEGIN:VEVENT',
		`UID:${uid}`,
		'DTSTAMP:20300101T000000Z',
		`DTSTART:${start}`,
		'DURATION:PT1H',
		...(rule ? [rule] : []),
		'END:VEVENT',
		'END:VCALENDAR',
	);
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const answer = (objects: Record<string, string>) =>
	`<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">${Object.entries(objects)
		.map(
			([name, data]) =>
				`<d:response><d:href>/cal/${name}</d:href><d:propstat><d:prop><d:getetag>"${name}"</d:getetag><c:calendar-data>${escape(data)}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`,
		)
		.join('')}</d:multistatus>`;

const WEEKLY = event('weekly', '20300603T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=10');
const ENDED = event('ended', '20300603T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=2');
const DATES = event('dates', '20300101T090000Z', 'RDATE:20300702T090000Z');
const SINGLE = event('single', '20300702T120000Z');
const range = { start: new Date('2030-07-01T00:00:00Z'), end: new Date('2030-07-08T00:00:00Z') };

function server(refuseFilter: boolean) {
	const seen: string[] = [];
	const http = async (request: DavHttpRequest) => {
		const body = request.body ?? '';
		const kind = body.includes('time-range')
			? 'range'
			: (/prop-filter name="(\w+)"/.exec(body)?.[1] ?? 'all');
		seen.push(kind);
		// Like Xandikos: the range answer holds only what starts in the range (no recurrence expansion).
		if (kind === 'range')
			return { status: 207, headers: {}, body: answer({ 'single.ics': SINGLE }) };
		if (refuseFilter && kind !== 'all')
			return {
				status: 403,
				headers: {},
				body: '<d:error xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><c:supported-filter/></d:error>',
			};
		const byKind: Record<string, Record<string, string>> = {
			RRULE: { 'weekly.ics': WEEKLY, 'ended.ics': ENDED },
			RDATE: { 'dates.ics': DATES },
			all: { 'weekly.ics': WEEKLY, 'ended.ics': ENDED, 'dates.ics': DATES, 'single.ics': SINGLE },
		};
		return { status: 207, headers: {}, body: answer(byKind[kind]) };
	};
	return { client: new DavClient(http, 'https://dav.example/', 'event'), seen };
}

describe('events in a time range', () => {
	it('adds the recurring series (RRULE or RDATE) the range answer lacks when an occurrence falls in the range', async () => {
		const { client, seen } = server(false);
		const found = await eventsInRange(client, 'https://dav.example/cal/', range, 'Querying events');
		expect(found.map((object) => object.url.split('/').pop())).toEqual([
			'single.ics',
			'weekly.ics',
			'dates.ics',
		]);
		expect(seen).toEqual(['range', 'RRULE', 'RDATE']);
	});

	it('asks for every event when the server refuses the property filter (403 supported-filter)', async () => {
		const { client, seen } = server(true);
		const found = await eventsInRange(client, 'https://dav.example/cal/', range, 'Querying events');
		expect(found.map((object) => object.url.split('/').pop())).toEqual([
			'single.ics',
			'weekly.ics',
			'dates.ics',
		]);
		expect(seen).toEqual(['range', 'RRULE', 'all']);
	});

	it('without a start bound the first instance decides, which every server answers right: one query', async () => {
		const { client, seen } = server(false);
		await eventsInRange(client, 'https://dav.example/cal/', { end: range.end }, 'Querying events');
		expect(seen).toEqual(['range']);
	});
});
