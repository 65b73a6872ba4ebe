// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Calendar Trigger "event starts within N minutes" over expanded occurrences, and what both triggers return
 * in a manual test ("Fetch Test Event"): a sample of recent objects or upcoming occurrences, nothing saved.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { utcBasic } from '../../../nodes/shared/dav/requests';
import { withDurableCursors } from '../durable-env';
import {
	answeredByNock,
	byUrl,
	collectionProps,
	DAV,
	etagProp,
	found,
	ics,
	multistatus,
	poll,
	vcard,
	xmlText,
	type SentRequest,
} from './poll-context';

answeredByNock();

const at = (iso: string) => jest.spyOn(Date, 'now').mockReturnValue(Date.parse(iso));
const calData = (data: string) => `<C:calendar-data>${xmlText(data)}</C:calendar-data>`;
const timeRange = (request: SentRequest) =>
	/<c:time-range start="(\w+)" end="(\w+)"\/>/.exec(request.body)?.slice(1);
const rangeQuery = (body: string) => body.includes('<c:time-range');
/**
 * The queries for recurring series (RRULE, RDATE) that follow every range query: some servers match a
 * series against a time range by its first instance only (range-query.ts).
 */
const recurringQueries = (path: string, body = multistatus('')) => {
	for (const name of ['RRULE', 'RDATE'])
		nock(DAV)
			.intercept(path, 'REPORT', (sent: string) => sent.includes(`<c:prop-filter name="${name}"/>`))
			.reply(207, body);
};

// Hourly from 09:00 on 4 March 2030; 10:00 is excluded (EXDATE), 11:00 moved to 11:20.
const SERIES = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//Other//EN',
	'BEGIN:VEVENT',
	'UID:standup',
	'DTSTAMP:20300101T000000Z',
	'DTSTART:20300304T090000Z',
	'DURATION:PT15M',
	'RRULE:FREQ=HOURLY;COUNT=48',
	'EXDATE:20300304T100000Z',
	'SUMMARY:Stand-up',
	'END:VEVENT',
	'BEGIN:VEVENT',
	'UID:standup',
	'DTSTAMP:20300101T000000Z',
	'RECURRENCE-ID:20300304T110000Z',
	'DTSTART:20300304T112000Z',
	'DURATION:PT15M',
	'SUMMARY:Stand-up (moved)',
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');

describe('Event Starts Soon', () => {
	const path = '/cal/soon/';
	const params = { calendar: byUrl(path), trigger: 'startsWithin', minutes: 150 };
	const answer = (...objects: Array<[string, string]>) =>
		multistatus(
			objects
				.map(([name, data]) => found(`${path}${name}`, etagProp(`"${name}"`) + calData(data)))
				.join(''),
		);

	it('announces each occurrence in the window once: exceptions and moved instances applied, the first poll only records', async () => {
		const staticData: IDataObject = {};
		at('2030-03-04T08:50:00Z');
		nock(DAV)
			.intercept(path, 'REPORT', rangeQuery)
			.reply(207, answer(['early.ics', ics('early', 'Early', '20300304T090500Z')]));
		recurringQueries(path);
		const first = await poll('calendar', params, staticData);
		expect(first.emitted).toBeNull();
		expect(first.requests[0].headers.depth).toBe('1');
		expect(first.requests[0].body).toContain('<c:comp-filter name="VEVENT">');
		// The window widened by 14 hours either side, for floating times (their zone is the workflow's).
		expect(timeRange(first.requests[0])).toEqual(['20300303T185000Z', '20300305T012000Z']);

		at('2030-03-04T08:51:00Z');
		nock(DAV)
			.intercept(path, 'REPORT', rangeQuery)
			.reply(
				207,
				answer(['early.ics', ics('early', 'Early', '20300304T090500Z')], ['standup.ics', SERIES]),
			);
		recurringQueries(path, answer(['standup.ics', SERIES]));
		const second = await poll('calendar', params, staticData);
		expect(
			second.items.map((item) => [
				item.summary,
				item.start,
				item.recurrenceId ?? null,
				item.minutesUntilStart,
			]),
		).toEqual([
			['Stand-up', '2030-03-04T09:00:00.000Z', '2030-03-04T09:00:00.000Z', 9],
			['Stand-up (moved)', '2030-03-04T11:20:00.000Z', '2030-03-04T11:00:00.000Z', 149],
		]);
		expect(second.items[0]).toMatchObject({
			event: 'startsSoon',
			url: `${DAV}${path}standup.ics`,
			etag: '"standup.ics"',
			uid: 'standup',
			recurring: true,
		});

		at('2030-03-04T09:50:00Z');
		nock(DAV)
			.intercept(path, 'REPORT', rangeQuery)
			.reply(207, answer(['standup.ics', SERIES]));
		recurringQueries(path, answer(['standup.ics', SERIES]));
		const third = await poll('calendar', params, staticData);
		expect(third.items.map((item) => item.start)).toEqual(['2030-03-04T12:00:00.000Z']);

		at('2030-03-04T09:55:00Z');
		nock(DAV)
			.intercept(path, 'REPORT', rangeQuery)
			.reply(207, answer(['standup.ics', SERIES]));
		recurringQueries(path, answer(['standup.ics', SERIES]));
		expect((await poll('calendar', params, staticData)).emitted).toBeNull();
		// Only occurrences still ahead are remembered.
		expect(Object.keys((staticData.starts as { notified: object }).notified).sort()).toEqual([
			`${DAV}${path}standup.ics|2030-03-04T11:20:00.000Z`,
			`${DAV}${path}standup.ics|2030-03-04T12:00:00.000Z`,
		]);
	});

	it('gives each occurrence the same eventId when the same static data is polled again (a crash before n8n kept it)', async () => {
		const staticData: IDataObject = {};
		at('2030-03-04T08:50:00Z');
		nock(DAV).intercept(path, 'REPORT', rangeQuery).reply(207, answer());
		recurringQueries(path);
		await poll('calendar', params, staticData);
		const saved = structuredClone(staticData);
		const due = () => {
			nock(DAV)
				.intercept(path, 'REPORT', rangeQuery)
				.reply(207, answer(['standup.ics', SERIES]));
			recurringQueries(path, answer(['standup.ics', SERIES]));
		};
		const ids = (run: { items: IDataObject[] }) =>
			run.items.map((item) => [item.start, item.eventId]);
		at('2030-03-04T08:51:00Z');
		due();
		const second = await poll('calendar', params, staticData);
		at('2030-03-04T08:53:00Z');
		due();
		const replayed = await poll('calendar', params, saved);
		expect(ids(second)).toHaveLength(2);
		expect(ids(replayed)).toEqual(ids(second));
		expect(ids(second)[0][1]).not.toBe(ids(second)[1][1]);
	});

	it("with n8n's durable poll cursors the first poll emits one empty batch, so n8n commits the state it staged", async () => {
		const staticData: IDataObject = {};
		at('2030-03-04T08:50:00Z');
		nock(DAV).intercept(path, 'REPORT', rangeQuery).reply(207, answer());
		recurringQueries(path);
		const first = await withDurableCursors(async () => await poll('calendar', params, staticData));
		expect(first.emitted).toEqual([[]]);
		expect(staticData.starts).toMatchObject({ collection: `${DAV}${path}` });
	});

	it('skips all-day events and occurrences that already started', async () => {
		const staticData: IDataObject = { starts: { collection: `${DAV}${path}`, notified: {} } };
		at('2030-03-04T09:05:00Z');
		const allDay = ics('holiday', 'Holiday', '20300304')
			.replace('DTSTART:20300304', 'DTSTART;VALUE=DATE:20300304')
			.replace('DURATION:PT30M', 'DURATION:P1D');
		nock(DAV)
			.intercept(path, 'REPORT', rangeQuery)
			.reply(
				207,
				answer(
					['holiday.ics', allDay],
					['started.ics', ics('started', 'Started', '20300304T090000Z')],
					['standup.ics', SERIES],
				),
			);
		recurringQueries(path, answer(['standup.ics', SERIES]));
		const result = await poll('calendar', params, staticData);
		expect(result.items.map((item) => item.summary)).toEqual(['Stand-up (moved)']);
	});
});

describe('Event Starts Soon, floating times', () => {
	const path = '/cal/floating/';
	const params = { calendar: byUrl(path), trigger: 'startsWithin', minutes: 30 };
	// 09:00 without a zone (RFC 5545 3.3.5 floating): 09:00 wherever the calendar's user is.
	const FLOATING = ics('floating', 'Floating', '20300304T090000');

	async function dueAt(zone: string) {
		at('2030-03-04T13:50:00Z');
		const body = multistatus(found(`${path}floating.ics`, etagProp('"f"') + calData(FLOATING)));
		nock(DAV).intercept(path, 'REPORT', rangeQuery).reply(207, body);
		recurringQueries(path);
		const staticData: IDataObject = { starts: { collection: `${DAV}${path}`, notified: {} } };
		return await poll('calendar', params, staticData, 'trigger', zone);
	}

	it("is read in the workflow's time zone, never in the zone of the process running n8n", async () => {
		// 09:00 in New York on 4 March 2030 is 14:00 UTC: due within 30 minutes of 13:50 UTC.
		const newYork = await dueAt('America/New_York');
		expect(newYork.items.map((item) => [item.summary, item.start, item.minutesUntilStart])).toEqual(
			[['Floating', '2030-03-04T09:00:00', 10]],
		);
		// In a workflow on UTC the same event began at 09:00 UTC, hours ago.
		expect((await dueAt('UTC')).emitted).toBeNull();
	});
});

describe('manual test run ("Fetch Test Event")', () => {
	/** The Depth 1 listing of an address book: contact c<day>.vcf for each day, modified that day of 2030. */
	const listContacts = (path: string, days: number[]) => {
		const members = days
			.map((day) =>
				found(
					`${path}c${day}.vcf`,
					`${etagProp(`"c${day}"`)}<D:getlastmodified>${new Date(Date.UTC(2030, 0, day)).toUTCString()}</D:getlastmodified><D:resourcetype/>`,
				),
			)
			.join('');
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '1')
			.reply(
				207,
				multistatus(
					found(path, '<D:resourcetype><D:collection/><A:addressbook/></D:resourcetype>') + members,
				),
			);
	};

	it('Contacts Trigger returns the five most recently modified contacts and saves nothing', async () => {
		const path = '/ab/manual/';
		listContacts(path, [3, 7, 1, 6, 2, 5, 4]);
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '0')
			.reply(
				207,
				collectionProps(path, 'addressbook', ['addressbook-multiget', 'sync-collection']),
			);
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					[7, 6, 5, 4, 3]
						.map((day) =>
							found(
								`${path}c${day}.vcf`,
								`${etagProp(`"c${day}"`)}<A:address-data>${vcard(`c${day}`, `Person ${day}`)}</A:address-data>`,
							),
						)
						.join(''),
				),
			);
		const state = {
			dav: {
				collection: `${DAV}${path}`,
				sync: true,
				multiget: true,
				token: 'tok-9',
				etags: { [`${DAV}${path}c1.vcf`]: '"old"' },
			},
		};
		const staticData: IDataObject = structuredClone(state);
		const result = await poll(
			'contacts',
			{ addressBook: byUrl(path), events: ['created', 'updated', 'deleted'] },
			staticData,
			'manual',
		);
		expect(result.requests[2].body.match(/<d:href>[^<]+<\/d:href>/g)).toEqual(
			[7, 6, 5, 4, 3].map((day) => `<d:href>${path}c${day}.vcf</d:href>`),
		);
		expect(result.items.map((item) => [item.event, item.fullName, item.etag])).toEqual(
			[7, 6, 5, 4, 3].map((day) => ['created', `Person ${day}`, `"c${day}"`]),
		);
		expect(staticData).toEqual(state);
	});

	it('Calendar Trigger (changes) on an empty calendar says so, with what to do, and records nothing', async () => {
		const path = '/cal/empty/';
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '1')
			.reply(
				207,
				multistatus(found(path, '<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>')),
			);
		const staticData: IDataObject = {};
		const failure = poll(
			'calendar',
			{ calendar: byUrl(path), trigger: 'changes', events: ['created'] },
			staticData,
			'manual',
		);
		await expect(failure).rejects.toThrow('The calendar is empty');
		await expect(failure).rejects.toMatchObject({
			description: expect.stringMatching(/Add an event there .*fetch a test event again/),
		});
		expect(staticData).toEqual({});
	});

	it('labels the samples with the first watched event: updated when only updates are watched', async () => {
		const path = '/ab/updates-only/';
		listContacts(path, [2, 1]);
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '0')
			.reply(207, collectionProps(path, 'addressbook', ['addressbook-multiget']));
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					[2, 1]
						.map((day) =>
							found(
								`${path}c${day}.vcf`,
								`${etagProp(`"c${day}"`)}<A:address-data>${vcard(`c${day}`, `Person ${day}`)}</A:address-data>`,
							),
						)
						.join(''),
				),
			);
		const result = await poll(
			'contacts',
			{ addressBook: byUrl(path), events: ['updated', 'deleted'] },
			{},
			'manual',
		);
		expect(result.items.map((item) => [item.event, item.fullName])).toEqual([
			['updated', 'Person 2'],
			['updated', 'Person 1'],
		]);
	});

	it('shapes the samples as deletions (URL and ETag only, nothing fetched) when only deletions are watched', async () => {
		const path = '/ab/deletions-only/';
		listContacts(path, [2, 1]);
		const result = await poll(
			'contacts',
			{ addressBook: byUrl(path), events: ['deleted'] },
			{},
			'manual',
		);
		expect(result.items).toEqual([
			{ event: 'deleted', eventId: expect.any(String), url: `${DAV}${path}c2.vcf`, etag: '"c2"' },
			{ event: 'deleted', eventId: expect.any(String), url: `${DAV}${path}c1.vcf`, etag: '"c1"' },
		]);
		expect(result.requests).toHaveLength(1);
	});

	it('Event Starts Soon with nothing due shows the next occurrences within a year, up to five, and saves nothing', async () => {
		const path = '/cal/manual-soon/';
		at('2030-03-04T06:00:00Z');
		const soon = { calendar: byUrl(path), trigger: 'startsWithin', minutes: 15 };
		const standup = multistatus(found(`${path}standup.ics`, etagProp('"s"') + calData(SERIES)));
		nock(DAV).intercept(path, 'REPORT', rangeQuery).reply(207, multistatus(''));
		recurringQueries(path, standup);
		nock(DAV).intercept(path, 'REPORT', rangeQuery).reply(207, standup);
		recurringQueries(path, standup);
		const staticData: IDataObject = {};
		const result = await poll('calendar', soon, staticData, 'manual');
		const slack = 14 * 60 * 60_000;
		expect(result.requests.map(timeRange).filter(Boolean)).toEqual([
			['20300303T160000Z', '20300304T201500Z'],
			[
				'20300303T160000Z',
				utcBasic(new Date(Date.parse('2030-03-04T06:00:00Z') + 366 * 24 * 60 * 60_000 + slack)),
			],
		]);
		expect(result.items.map((item) => [item.event, item.start])).toEqual([
			['startsSoon', '2030-03-04T09:00:00.000Z'],
			['startsSoon', '2030-03-04T11:20:00.000Z'],
			['startsSoon', '2030-03-04T12:00:00.000Z'],
			['startsSoon', '2030-03-04T13:00:00.000Z'],
			['startsSoon', '2030-03-04T14:00:00.000Z'],
		]);
		expect(result.items[0].minutesUntilStart).toBe(180);
		expect(staticData).toEqual({});
	});

	it('Event Starts Soon with nothing within a year says so, with what to do, and saves nothing', async () => {
		const path = '/cal/manual-nothing/';
		at('2030-03-04T06:00:00Z');
		for (const _ of [1, 2]) {
			nock(DAV).intercept(path, 'REPORT', rangeQuery).reply(207, multistatus(''));
			recurringQueries(path);
		}
		const staticData: IDataObject = {};
		await expect(
			poll(
				'calendar',
				{ calendar: byUrl(path), trigger: 'startsWithin', minutes: 15 },
				staticData,
				'manual',
			),
		).rejects.toThrow('No event of the calendar starts within the next year');
		expect(staticData).toEqual({});
	});

	it('Event Starts Soon with something due shows just that, with one range query (and the recurring series)', async () => {
		const path = '/cal/manual-due/';
		at('2030-03-04T08:50:00Z');
		const standup = multistatus(found(`${path}standup.ics`, etagProp('"s"') + calData(SERIES)));
		nock(DAV).intercept(path, 'REPORT', rangeQuery).reply(207, standup);
		recurringQueries(path, standup);
		const staticData: IDataObject = {};
		const result = await poll(
			'calendar',
			{ calendar: byUrl(path), trigger: 'startsWithin', minutes: 15 },
			staticData,
			'manual',
		);
		expect(result.requests.map(timeRange).filter(Boolean)).toHaveLength(1);
		expect(result.requests).toHaveLength(3);
		expect(result.items.map((item) => item.start)).toEqual(['2030-03-04T09:00:00.000Z']);
		expect(staticData).toEqual({});
	});
});
