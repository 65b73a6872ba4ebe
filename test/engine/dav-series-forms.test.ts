// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Series written by other clients, and writes whose first attempt was uncertain, against real Radicale and
 * Xandikos (issue #37 items 2-6, issue #35 item 8): an override named in UTC is one occurrence (Get Many
 * and the Calendar Trigger); a local time skipped by DST is shifted forward; a moved occurrence of a
 * floating series stays floating; "this and following" where nothing is left before the occurrence changes
 * the whole series; a create stored by the server while a proxy answered 503 is found by its UID, once.
 */
import { request } from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import { byUrl, CALENDAR, CALENDAR_TRIGGER, pollDav, runDavNode } from '../dav/engine';
import { DAV_SERVERS, type DavServer } from '../dav/servers';
import {
	startForwardingProxy,
	type ForwardingProxy,
	type LostRequest,
	type SeenRequest,
} from './dav/forwarding-proxy';

const ics = (...vevents: string[][]) =>
	[
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Other client//EN',
		...vevents.flatMap((props) => [
			'BEGIN:VEVENT',
			'DTSTAMP:20300101T000000Z',
			...props,
			'END:VEVENT',
		]),
		'END:VCALENDAR',
		'',
	].join('\r\n');

const UTC_OVERRIDE = ics(
	[
		'UID:utc-override',
		'DTSTART;TZID=Europe/Berlin:20310601T090000',
		'DTEND;TZID=Europe/Berlin:20310601T100000',
		'RRULE:FREQ=DAILY;COUNT=3',
		'SUMMARY:Daily',
	],
	[
		'UID:utc-override',
		'RECURRENCE-ID:20310602T070000Z',
		'DTSTART:20310602T073000Z',
		'DTEND:20310602T083000Z',
		'SUMMARY:Daily (later)',
	],
);

/** Another client's change, meanwhile: the update the proxy lost, with its attendees' answers swapped. */
async function storeSwapped(lost: LostRequest) {
	const swapped = lost.body
		.toString()
		.replace(/PARTSTAT=ACCEPTED/g, 'PARTSTAT=X-SWAP')
		.replace(/PARTSTAT=DECLINED/g, 'PARTSTAT=ACCEPTED')
		.replace(/PARTSTAT=X-SWAP/g, 'PARTSTAT=DECLINED');
	await new Promise<void>((resolve, reject) => {
		const other = request(lost.url, {
			method: 'PUT',
			headers: { ...lost.headers, 'content-length': String(Buffer.byteLength(swapped)) },
		});
		other.on('response', (answer) => {
			answer.resume();
			answer.on('end', resolve);
		});
		other.on('error', reject);
		other.end(swapped);
	});
}

const isCreate = (seen: SeenRequest) => seen.method === 'PUT' && seen.ifNoneMatch === '*';
const isUpdate = (seen: SeenRequest) => seen.method === 'PUT' && seen.ifMatch !== undefined;

describe.each(DAV_SERVERS)('$name', (server) => {
	let dav: DavServer;
	let work: string;
	beforeAll(async () => {
		dav = await server.start();
		work = await dav.mkcalendar('forms');
	});
	afterAll(async () => await dav?.stop());
	afterEach(() => jest.restoreAllMocks());

	const run = (parameters: IDataObject) => runDavNode(dav, CALENDAR, parameters);
	const store = async (calendar: string, iCalendar: string) => {
		const created = await run({
			resource: 'event',
			operation: 'create',
			calendar: byUrl(calendar),
			input: 'raw',
			iCalendar,
		});
		expect(created.error).toBeUndefined();
		return String(created.json[0].url);
	};
	const expand = async (calendar: string, timeMin: string, timeMax: string) => {
		const listed = await run({
			resource: 'event',
			operation: 'getAll',
			calendar: byUrl(calendar),
			timeMin,
			timeMax,
			expand: true,
		});
		expect(listed.error).toBeUndefined();
		return listed.json.map((item) => `${item.recurrenceId} ${item.start} ${item.summary}`);
	};

	it('an override whose RECURRENCE-ID is written in UTC is one occurrence in Get Many', async () => {
		const calendar = await dav.mkcalendar('utc-ids');
		await store(calendar, UTC_OVERRIDE);
		expect(await expand(calendar, '2031-05-31T00:00:00Z', '2031-06-10T00:00:00Z')).toEqual([
			'2031-06-01T07:00:00.000Z 2031-06-01T07:00:00.000Z Daily',
			'2031-06-02T07:00:00.000Z 2031-06-02T07:30:00.000Z Daily (later)',
			'2031-06-03T07:00:00.000Z 2031-06-03T07:00:00.000Z Daily',
		]);
	});

	it('the Calendar Trigger announces that override once', async () => {
		const calendar = await dav.mkcalendar('utc-ids-trigger');
		const parameters = { calendar: byUrl(calendar), trigger: 'startsWithin', minutes: 60 };
		jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2031-06-02T05:00:00Z'));
		const first = await pollDav(dav, CALENDAR_TRIGGER, parameters);
		expect(first.emitted).toBeNull();
		await store(calendar, UTC_OVERRIDE);
		jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2031-06-02T06:45:00Z'));
		const second = await pollDav(dav, CALENDAR_TRIGGER, parameters, first.staticData);
		expect(
			second.items.map((item) => [item.json.summary, item.json.start, item.json.recurrenceId]),
		).toEqual([['Daily (later)', '2031-06-02T07:30:00.000Z', '2031-06-02T07:00:00.000Z']]);
	});

	it('a local time skipped by the DST change is expanded shifted forward (03:30 CEST, 01:30Z)', async () => {
		const calendar = await dav.mkcalendar('dst-gap');
		await store(
			calendar,
			ics([
				'UID:dst-gap',
				'DTSTART;TZID=Europe/Berlin:20310328T023000',
				'DURATION:PT30M',
				'RRULE:FREQ=DAILY;COUNT=4',
				'SUMMARY:Night',
			]),
		);
		expect(await expand(calendar, '2031-03-27T00:00:00Z', '2031-04-05T00:00:00Z')).toEqual([
			'2031-03-28T01:30:00.000Z 2031-03-28T01:30:00.000Z Night',
			'2031-03-29T01:30:00.000Z 2031-03-29T01:30:00.000Z Night',
			'2031-03-30T01:30:00.000Z 2031-03-30T01:30:00.000Z Night',
			'2031-03-31T00:30:00.000Z 2031-03-31T00:30:00.000Z Night',
		]);
	});

	it('moving one occurrence of a floating series keeps the override floating', async () => {
		const url = await store(
			work,
			ics([
				'UID:floating-series',
				'DTSTART:20311030T081500',
				'DTEND:20311030T091500',
				'RRULE:FREQ=DAILY;COUNT=4',
				'SUMMARY:Float',
			]),
		);
		const moved = await run({
			resource: 'event',
			operation: 'update',
			eventUrl: url,
			updateFields: { start: '2031-10-31T09:15:00' },
			options: { occurrence: '2031-10-31T08:15:00' },
		});
		expect(moved.error).toBeUndefined();
		expect(moved.json[0]).toMatchObject({ start: '2031-10-31T09:15:00', outcome: 'applied' });
		const stored = (await dav.send('GET', url)).body;
		expect(stored).toMatch(/RECURRENCE-ID:20311031T081500\r\n/);
		expect(stored).toMatch(/DTSTART:20311031T091500\r\n/);
		expect(stored).not.toContain('TZID');
	});

	it('"this and following" at the first occurrence changes the whole series and says so', async () => {
		const calendar = await dav.mkcalendar('first-occurrence');
		const url = await store(
			calendar,
			ics([
				'UID:first-occurrence',
				'DTSTART:20310901T100000Z',
				'DTEND:20310901T110000Z',
				'RRULE:FREQ=DAILY;COUNT=3',
				'SUMMARY:Retro',
			]),
		);
		const changed = await run({
			resource: 'event',
			operation: 'update',
			eventUrl: url,
			updateFields: { summary: 'Retro (new)' },
			options: { occurrence: '2031-09-01T10:00:00.000Z', scope: 'following' },
		});
		expect(changed.error).toBeUndefined();
		expect(changed.json[0]).toMatchObject({
			url,
			uid: 'first-occurrence',
			summary: 'Retro (new)',
			appliedToWholeSeries: true,
		});
		expect(changed.json[0].following).toBeUndefined();
		expect(await expand(calendar, '2031-08-31T00:00:00Z', '2031-09-10T00:00:00Z')).toEqual([
			'2031-09-01T10:00:00.000Z 2031-09-01T10:00:00.000Z Retro (new)',
			'2031-09-02T10:00:00.000Z 2031-09-02T10:00:00.000Z Retro (new)',
			'2031-09-03T10:00:00.000Z 2031-09-03T10:00:00.000Z Retro (new)',
		]);
	});

	it('"this and following" at the first visible occurrence, DTSTART cancelled: no empty series is left', async () => {
		const calendar = await dav.mkcalendar('cancelled-first');
		const url = await store(
			calendar,
			ics([
				'UID:cancelled-first',
				'DTSTART:20310901T100000Z',
				'DTEND:20310901T110000Z',
				'RRULE:FREQ=DAILY;COUNT=4',
				'EXDATE:20310901T100000Z',
				'SUMMARY:Shift',
			]),
		);
		const changed = await run({
			resource: 'event',
			operation: 'update',
			eventUrl: url,
			updateFields: { summary: 'Shift (new)' },
			options: { occurrence: '2031-09-02T10:00:00.000Z', scope: 'following' },
		});
		expect(changed.error).toBeUndefined();
		expect(changed.json[0]).toMatchObject({ url, appliedToWholeSeries: true });
		const listed = await run({ resource: 'event', operation: 'getAll', calendar: byUrl(calendar) });
		expect(listed.json.map((item) => item.uid)).toEqual(['cancelled-first']);
		expect(await expand(calendar, '2031-08-31T00:00:00Z', '2031-09-10T00:00:00Z')).toEqual([
			'2031-09-02T10:00:00.000Z 2031-09-02T10:00:00.000Z Shift (new)',
			'2031-09-03T10:00:00.000Z 2031-09-03T10:00:00.000Z Shift (new)',
			'2031-09-04T10:00:00.000Z 2031-09-04T10:00:00.000Z Shift (new)',
		]);
	});

	describe('an update whose answer was lost while another client swapped PARTSTATs between components', () => {
		let proxy: ForwardingProxy;
		beforeAll(async () => (proxy = await startForwardingProxy(dav.url)));
		afterAll(async () => await proxy?.close());

		it('is not taken for applied: "may have been applied", the other change kept', async () => {
			const calendar = await dav.mkcalendar('swapped');
			const url = await store(
				calendar,
				ics(
					[
						'UID:swapped',
						'DTSTART:20310901T100000Z',
						'DTEND:20310901T110000Z',
						'RRULE:FREQ=DAILY;COUNT=3',
						'SUMMARY:Review',
						'ATTENDEE;PARTSTAT=ACCEPTED:mailto:ana@example.com',
					],
					[
						'UID:swapped',
						'RECURRENCE-ID:20310902T100000Z',
						'DTSTART:20310902T100000Z',
						'DTEND:20310902T110000Z',
						'SUMMARY:Review',
						'ATTENDEE;PARTSTAT=DECLINED:mailto:ana@example.com',
					],
				),
			);
			// The update never reaches the server: meanwhile another client stores what it carried, with its
			// attendees' answers swapped between the series and its exception.
			proxy.faultNext(isUpdate, { lose: 'request', meanwhile: storeSwapped });
			const updated = await runDavNode({ ...dav, url: proxy.url }, CALENDAR, {
				resource: 'event',
				operation: 'update',
				eventUrl: url.replace(dav.url, proxy.url),
				updateFields: { description: 'Agenda attached' },
			});
			expect(updated.error?.message).toMatch(/^The write may have been applied: /);
			const stored = (await dav.send('GET', url)).body;
			expect(stored.indexOf('PARTSTAT=DECLINED')).toBeLessThan(stored.indexOf('RECURRENCE-ID'));
		});
	});

	describe('a create the server stored while the answer was a 503', () => {
		let proxy: ForwardingProxy;
		beforeAll(async () => (proxy = await startForwardingProxy(dav.url)));
		afterAll(async () => await proxy?.close());

		it('is repeated, gets 412, and is found by its UID: created once, applied-after-lost-answer', async () => {
			const calendar = await dav.mkcalendar('lost-creates');
			// The next create is stored, but answered 503.
			proxy.faultNext(isCreate, {
				answer: { status: 503, headers: { 'Retry-After': '0', 'Content-Length': '0' } },
			});
			const created = await runDavNode({ ...dav, url: proxy.url }, CALENDAR, {
				resource: 'event',
				operation: 'create',
				calendar: byUrl(calendar.replace(dav.url, proxy.url)),
				summary: 'Once',
				start: '2031-01-01T10:00:00Z',
				additionalFields: { timezone: 'UTC' },
			});
			expect(created.error).toBeUndefined();
			expect(proxy.requests('PUT')).toEqual([
				{ method: 'PUT', ifNoneMatch: '*' },
				{ method: 'PUT', ifNoneMatch: '*' },
			]);
			expect(created.json[0]).toMatchObject({
				summary: 'Once',
				outcome: 'applied-after-lost-answer',
			});
			const listed = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(calendar),
			});
			expect(listed.json.map((item) => item.summary)).toEqual(['Once']);
		});
	});
});
