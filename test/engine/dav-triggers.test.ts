// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * The Calendar and Contacts triggers through n8n-core's poll context against a real Radicale: first
 * activation records state and emits nothing; created, updated and deleted objects each fire exactly once;
 * a quiet poll is a single sync-collection request; a rejected token falls back to a full comparison;
 * "starts within N minutes" announces each occurrence once.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	CALENDAR,
	CALENDAR_TRIGGER,
	CONTACTS,
	CONTACTS_TRIGGER,
	byUrl,
	pollDav,
	runDavNode,
} from '../dav/engine';
import { DAV_SERVERS, type DavServer } from '../dav/servers';

describe.each(DAV_SERVERS)('$name', (server) => {
	let radicale: DavServer;
	beforeAll(async () => (radicale = await server.start()));
	afterAll(async () => await radicale?.stop());

	const ics = (uid: string, summary: string, start: string) =>
		[
			'BEGIN:VCALENDAR',
			'VERSION:2.0',
			'PRODID:-//Other//EN',
			'BEGIN:VEVENT',
			`UID:${uid}`,
			'DTSTAMP:20300101T000000Z',
			`DTSTART:${start}`,
			'DURATION:PT30M',
			`SUMMARY:${summary}`,
			'END:VEVENT',
			'END:VCALENDAR',
			'',
		].join('\r\n');

	describe('Calendar Trigger', () => {
		it('emits created, updated and deleted events once each, then nothing', async () => {
			const calendar = await radicale.mkcalendar('trigger-cal');
			await radicale.send('PUT', `${calendar}existing.ics`, {
				body: ics('existing', 'Existing', '20300301T090000Z'),
			});
			const parameters = {
				calendar: byUrl(calendar),
				trigger: 'changes',
				events: ['created', 'updated', 'deleted'],
			};

			const first = await pollDav(radicale, CALENDAR_TRIGGER, parameters);
			expect(first.emitted).toBeNull();
			const state = first.nodeStaticData.dav as IDataObject;
			expect(state).toMatchObject({ collection: calendar, sync: true, token: expect.any(String) });
			expect(Object.keys(state.etags as object)).toEqual([`${calendar}existing.ics`]);

			const created = await runDavNode(radicale, CALENDAR, {
				resource: 'event',
				operation: 'create',
				calendar: byUrl(calendar),
				summary: 'New',
				start: '2030-03-02T10:00:00Z',
			});
			await radicale.send('PUT', `${calendar}existing.ics`, {
				body: ics('existing', 'Existing (edited)', '20300301T090000Z'),
			});
			const second = await pollDav(radicale, CALENDAR_TRIGGER, parameters, first.staticData);
			expect(second.items.map((item) => [item.json.event, item.json.summary]).sort()).toEqual([
				['created', 'New'],
				['updated', 'Existing (edited)'],
			]);

			const quiet = await pollDav(radicale, CALENDAR_TRIGGER, parameters, second.staticData);
			expect(quiet.emitted).toBeNull();

			await radicale.send('DELETE', `${calendar}existing.ics`);
			await runDavNode(radicale, CALENDAR, {
				resource: 'event',
				operation: 'delete',
				eventUrl: created.json[0].url,
			});
			const third = await pollDav(radicale, CALENDAR_TRIGGER, parameters, quiet.staticData);
			expect(
				third.items
					.map((item) => item.json)
					.sort((a, b) => String(a.url).localeCompare(String(b.url))),
			).toEqual(
				[
					{
						event: 'deleted',
						eventId: expect.any(String),
						url: created.json[0].url,
						etag: expect.any(String),
					},
					{
						event: 'deleted',
						eventId: expect.any(String),
						url: `${calendar}existing.ics`,
						etag: expect.any(String),
					},
				].sort((a, b) => String(a.url).localeCompare(String(b.url))),
			);
			expect(
				(await pollDav(radicale, CALENDAR_TRIGGER, parameters, third.staticData)).emitted,
			).toBeNull();
		});

		it('falls back to an ETag comparison when the server rejects the sync-token', async () => {
			const calendar = await radicale.mkcalendar('bad-token');
			const parameters = {
				calendar: byUrl(calendar),
				trigger: 'changes',
				events: ['created', 'updated', 'deleted'],
			};
			const first = await pollDav(radicale, CALENDAR_TRIGGER, parameters);
			const staticData = structuredClone(first.staticData) as Record<string, { dav: IDataObject }>;
			staticData['node:Trigger'].dav.token = 'http://radicale.org/ns/sync/not-a-token';
			await radicale.send('PUT', `${calendar}a.ics`, {
				body: ics('a', 'After bad token', '20300301T090000Z'),
			});
			const second = await pollDav(radicale, CALENDAR_TRIGGER, parameters, staticData);
			expect(second.items.map((item) => [item.json.event, item.json.summary])).toEqual([
				['created', 'After bad token'],
			]);
			expect(
				(await pollDav(radicale, CALENDAR_TRIGGER, parameters, second.staticData)).emitted,
			).toBeNull();
		});

		it('announces an event starting within N minutes once', async () => {
			const calendar = await radicale.mkcalendar('soon');
			const parameters = { calendar: byUrl(calendar), trigger: 'startsWithin', minutes: 60 };
			const first = await pollDav(radicale, CALENDAR_TRIGGER, parameters);
			expect(first.emitted).toBeNull();
			const inTenMinutes = new Date(Date.now() + 10 * 60_000)
				.toISOString()
				.replace(/[-:]/g, '')
				.replace(/\.\d{3}/, '');
			const inTwoHours = new Date(Date.now() + 120 * 60_000)
				.toISOString()
				.replace(/[-:]/g, '')
				.replace(/\.\d{3}/, '');
			await radicale.send('PUT', `${calendar}soon.ics`, {
				body: ics('soon', 'Soon', inTenMinutes),
			});
			await radicale.send('PUT', `${calendar}later.ics`, {
				body: ics('later', 'Later', inTwoHours),
			});
			const second = await pollDav(radicale, CALENDAR_TRIGGER, parameters, first.staticData);
			expect(second.items.map((item) => item.json)).toEqual([
				expect.objectContaining({
					event: 'startsSoon',
					summary: 'Soon',
					minutesUntilStart: expect.any(Number),
				}),
			]);
			expect(
				(await pollDav(radicale, CALENDAR_TRIGGER, parameters, second.staticData)).emitted,
			).toBeNull();
		});
	});

	describe('Calendar Trigger, recurring series', () => {
		it('announces a weekly series that began weeks ago when its next occurrence comes due', async () => {
			// Xandikos matches a time range against a series' first instance only; the node asks for recurring
			// series apart and expands them itself.
			const calendar = await radicale.mkcalendar('soon-weekly');
			const parameters = { calendar: byUrl(calendar), trigger: 'startsWithin', minutes: 60 };
			const first = await pollDav(radicale, CALENDAR_TRIGGER, parameters);
			expect(first.emitted).toBeNull();
			const threeWeeksAgo = new Date(Date.now() + 10 * 60_000 - 21 * 24 * 60 * 60_000)
				.toISOString()
				.replace(/[-:]/g, '')
				.replace(/\.\d{3}/, '');
			await radicale.send('PUT', `${calendar}weekly.ics`, {
				body: ics('weekly', 'Weekly', threeWeeksAgo).replace(
					'DURATION:PT30M',
					'DURATION:PT30M\r\nRRULE:FREQ=WEEKLY;COUNT=10',
				),
			});
			const second = await pollDav(radicale, CALENDAR_TRIGGER, parameters, first.staticData);
			expect(
				second.items.map((item) => [item.json.event, item.json.summary, item.json.recurring]),
			).toEqual([['startsSoon', 'Weekly', true]]);
			expect(
				(await pollDav(radicale, CALENDAR_TRIGGER, parameters, second.staticData)).emitted,
			).toBeNull();
		});
	});

	describe('Contacts Trigger', () => {
		it('emits created, updated and deleted contacts once each', async () => {
			const book = await radicale.mkaddressbook('trigger-book');
			const parameters = { addressBook: byUrl(book), events: ['created', 'updated', 'deleted'] };
			const first = await pollDav(radicale, CONTACTS_TRIGGER, parameters);
			expect(first.emitted).toBeNull();

			const created = await runDavNode(radicale, CONTACTS, {
				resource: 'contact',
				operation: 'create',
				addressBook: byUrl(book),
				fullName: 'Grace Hopper',
			});
			const second = await pollDav(radicale, CONTACTS_TRIGGER, parameters, first.staticData);
			expect(second.items.map((item) => [item.json.event, item.json.fullName])).toEqual([
				['created', 'Grace Hopper'],
			]);

			await runDavNode(radicale, CONTACTS, {
				resource: 'contact',
				operation: 'update',
				contactUrl: created.json[0].url,
				updateFields: { title: 'Rear Admiral' },
			});
			const third = await pollDav(radicale, CONTACTS_TRIGGER, parameters, second.staticData);
			expect(third.items.map((item) => [item.json.event, item.json.title])).toEqual([
				['updated', 'Rear Admiral'],
			]);

			await runDavNode(radicale, CONTACTS, {
				resource: 'contact',
				operation: 'delete',
				contactUrl: created.json[0].url,
			});
			const fourth = await pollDav(radicale, CONTACTS_TRIGGER, parameters, third.staticData);
			expect(fourth.items.map((item) => item.json.event)).toEqual(['deleted']);
			expect(
				(await pollDav(radicale, CONTACTS_TRIGGER, parameters, fourth.staticData)).emitted,
			).toBeNull();
		});
	});
});
