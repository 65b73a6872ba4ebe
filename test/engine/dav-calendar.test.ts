// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * The Calendar node through n8n's engine against a real Radicale: discovery, calendar create/update, event
 * CRUD with ETags, a 412 conflict and its re-apply, raw iCalendar from another client keeping its unknown
 * properties through an update, lookup by UID and recurring series expanded into occurrences.
 */
import type { IDataObject } from 'n8n-workflow';

import { byUrl, CALENDAR, runDavNode } from '../dav/engine';
import { DAV_SERVERS, type DavServer } from '../dav/servers';

describe.each(DAV_SERVERS)('$name', (server) => {
	let radicale: DavServer;
	let work: string;
	beforeAll(async () => {
		radicale = await server.start();
		work = await radicale.mkcalendar('work', { displayName: 'Work' });
	});
	afterAll(async () => await radicale?.stop());

	const run = (parameters: IDataObject, options?: Parameters<typeof runDavNode>[3]) =>
		runDavNode(radicale, CALENDAR, parameters, options);

	describe('calendars', () => {
		it('deletes a calendar with its events', async () => {
			const doomed = await radicale.mkcalendar('doomed', { displayName: 'Doomed' });
			const deleted = await run({
				resource: 'calendar',
				operation: 'delete',
				calendar: byUrl(doomed),
			});
			expect(deleted.error).toBeUndefined();
			expect(deleted.json).toEqual([
				{
					deleted: true,
					url: doomed,
					shared: false,
					result: 'calendarDeleted',
					outcome: 'applied',
				},
			]);
			// Radicale answers 404; Xandikos a 207 whose only response is an inner 404.
			const after = await radicale.send('PROPFIND', doomed, { headers: { Depth: '0' } });
			expect(after.status === 404 || /<[^>]*status>HTTP\/1\.1 404/.test(after.body)).toBe(true);
			const listed = await run({ resource: 'calendar', operation: 'getAll' });
			expect(listed.json.map((calendar) => calendar.url)).not.toContain(doomed);
		});

		it('discovers calendars, creates one and updates its properties', async () => {
			const listed = await run({ resource: 'calendar', operation: 'getAll' });
			expect(listed.error).toBeUndefined();
			expect(listed.json).toEqual([
				expect.objectContaining({
					url: work,
					displayName: 'Work',
					id: 'work',
					shared: false,
					components: expect.arrayContaining(['VEVENT']),
					syncToken: expect.any(String),
				}),
			]);

			const created = await run({
				resource: 'calendar',
				operation: 'create',
				displayName: 'Team',
				components: ['VEVENT', 'VTODO'],
				additionalFields: { color: '#FF0000FF', description: 'Team events' },
			});
			expect(created.error).toBeUndefined();
			if (server.name === 'Xandikos') {
				// Xandikos 0.2.8: MKCALENDAR creates the calendar but refuses colour, description and component set
				// (404); a PROPPATCH then takes the colour and refuses the description (409). Nothing is hidden.
				expect(created.json[0]).toMatchObject({
					displayName: 'Team',
					color: '#FF0000FF',
					description: undefined,
				});
				expect(created.json[0].notApplied).toEqual([
					{ property: 'description', requested: 'Team events', status: 409 },
					{
						property: 'components',
						requested: ['VEVENT', 'VTODO'],
						stored: ['VEVENT', 'VFREEBUSY', 'VJOURNAL', 'VTODO'],
						status: 404,
					},
				]);
				const failing = await run({
					resource: 'calendar',
					operation: 'create',
					displayName: 'Strict',
					components: ['VEVENT'],
					additionalFields: { description: 'x' },
					options: { ifNotApplied: 'error' },
				});
				expect(failing.error?.message).toMatch(
					/did not store every property of the calendar: description \(409\).*components \(404\)/,
				);
			} else {
				expect(created.json[0]).toMatchObject({
					displayName: 'Team',
					color: '#FF0000FF',
					description: 'Team events',
					components: expect.arrayContaining(['VEVENT', 'VTODO']),
					notApplied: [],
				});
			}

			const updated = await run({
				resource: 'calendar',
				operation: 'update',
				calendar: byUrl(String(created.json[0].url)),
				displayName: 'Team (renamed)',
				updateFields: { order: 3 },
			});
			if (server.name === 'Xandikos') {
				// Xandikos answers 200 to calendar-order yet does not keep it: read back, the output says so.
				expect(updated.error).toBeUndefined();
				expect(updated.json[0]).toMatchObject({
					displayName: 'Team (renamed)',
					notApplied: [{ property: 'order', requested: 3 }],
				});
				return;
			}
			expect(updated.error).toBeUndefined();
			expect(updated.json[0]).toMatchObject({
				displayName: 'Team (renamed)',
				order: 3,
				color: '#FF0000FF',
				notApplied: [],
			});
		});
	});

	describe('events', () => {
		it('creates, gets, lists, updates and deletes an event with ETag preconditions', async () => {
			const created = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				summary: 'Planning – Köln',
				start: '2030-03-04T09:00:00',
				end: '2030-03-04T10:30:00',
				additionalFields: {
					timezone: 'Europe/Berlin',
					location: 'Raum 1',
					attendees: 'ana@example.com, ben@example.com',
					reminders: '15',
				},
				options: { includeRaw: true },
			});
			expect(created.error).toBeUndefined();
			const event = created.json[0];
			expect(event).toMatchObject({
				summary: 'Planning – Köln',
				start: '2030-03-04T08:00:00.000Z',
				end: '2030-03-04T09:30:00.000Z',
				timezone: 'Europe/Berlin',
				location: 'Raum 1',
				reminders: [15],
			});
			expect(String(event.url)).toMatch(new RegExp(`^${work}[0-9a-f-]+\\.ics$`));
			expect(String(event.etag)).toMatch(/^"/);
			expect(String(event.iCalendar)).toContain('BEGIN:VTIMEZONE');
			expect(String(event.iCalendar)).toContain('\r\n');

			const got = await run({
				resource: 'event',
				operation: 'get',
				getBy: 'uid',
				calendar: byUrl(work),
				uid: event.uid,
			});
			expect(got.json).toEqual([expect.objectContaining({ url: event.url, etag: event.etag })]);

			const listed = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(work),
				timeMin: '2030-03-04T00:00:00Z',
				timeMax: '2030-03-05T00:00:00Z',
			});
			expect(listed.json.map((item) => item.uid)).toEqual([event.uid]);
			const outside = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(work),
				timeMin: '2030-03-05T00:00:00Z',
				timeMax: '2030-03-06T00:00:00Z',
			});
			expect(outside.json).toEqual([]);

			const updated = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: event.url,
				updateFields: { start: '2030-03-04T11:00:00' },
				options: { etag: event.etag },
			});
			expect(updated.error).toBeUndefined();
			// Moving keeps the length and the zone; the rest stays.
			expect(updated.json[0]).toMatchObject({
				start: '2030-03-04T10:00:00.000Z',
				end: '2030-03-04T11:30:00.000Z',
				location: 'Raum 1',
				summary: 'Planning – Köln',
			});
			expect(updated.json[0].etag).not.toEqual(event.etag);

			// The old ETag is stale now: a conflict, with the current ETag offered.
			const stale = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: event.url,
				updateFields: { summary: 'x' },
				options: { etag: event.etag },
			});
			expect(stale.error?.message).toMatch(/changed on the server/);
			expect(stale.error?.description).toContain(String(updated.json[0].etag));
			const reapplied = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: event.url,
				updateFields: { summary: 'Re-applied' },
				options: { etag: event.etag, reapplyOnConflict: true },
			});
			expect(reapplied.json[0]).toMatchObject({ summary: 'Re-applied' });

			// A stale Delete: the object is read again and kept; the error names the other client's ETag.
			const staleDelete = await run({
				resource: 'event',
				operation: 'delete',
				eventUrl: event.url,
				options: { etag: event.etag },
			});
			expect(staleDelete.error?.message).toBe(
				'The event was changed by another client since it was read (412); it was not deleted',
			);
			expect(staleDelete.error?.description).toContain(String(reapplied.json[0].etag));
			expect((await radicale.send('GET', String(event.url))).status).toBe(200);
			// Only the explicit opt-in deletes it, and returns the version that was deleted.
			const deleted = await run({
				resource: 'event',
				operation: 'delete',
				eventUrl: event.url,
				options: { etag: event.etag, deleteIfChanged: true },
			});
			expect(deleted.error).toBeUndefined();
			expect(deleted.json).toEqual([
				{
					deleted: true,
					url: event.url,
					etag: reapplied.json[0].etag,
					changedByOtherClient: expect.objectContaining({
						summary: 'Re-applied',
						etag: reapplied.json[0].etag,
					}),
					outcome: 'applied',
				},
			]);
			const gone = await run({
				resource: 'event',
				operation: 'get',
				getBy: 'url',
				eventUrl: event.url,
			});
			expect(gone.error?.message).toMatch(/Not found \(404\)/);
		});

		it('Delete expects the etag of its input item: an edit made after the workflow read the event is kept', async () => {
			const created = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				summary: 'Read by the workflow',
				start: '2030-05-01T09:00:00Z',
				end: '2030-05-01T10:00:00Z',
			});
			expect(created.error).toBeUndefined();
			const seen = created.json[0];
			// Another client edits the event after the workflow read it.
			const edited = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: seen.url,
				updateFields: { summary: 'Edited elsewhere' },
			});
			expect(edited.error).toBeUndefined();
			const kept = await run(
				{ resource: 'event', operation: 'delete', eventUrl: '={{ $json.url }}' },
				{ items: [seen] },
			);
			expect(kept.error?.message).toBe(
				'The event was changed by another client since it was read (412); it was not deleted',
			);
			expect((await radicale.send('GET', String(seen.url))).status).toBe(200);
			// The item of the current version deletes it.
			const deleted = await run(
				{ resource: 'event', operation: 'delete', eventUrl: '={{ $json.url }}' },
				{ items: [edited.json[0]] },
			);
			expect(deleted.error).toBeUndefined();
			expect((await radicale.send('GET', String(seen.url))).status).toBe(404);
		});

		it('keeps properties it does not know when updating an event another client wrote', async () => {
			const foreign = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//Other Client//EN',
				'X-WR-CALNAME:Other',
				'BEGIN:VEVENT',
				'UID:foreign-1@example.com',
				'DTSTAMP:20300101T000000Z',
				'DTSTART:20300110T100000Z',
				'DTEND:20300110T110000Z',
				'SUMMARY:From another client',
				'X-OTHER-CLIENT-COLOR:teal',
				'CATEGORIES:alpha,beta',
				'BEGIN:VALARM',
				'ACTION:AUDIO',
				'TRIGGER:-PT5M',
				'END:VALARM',
				'END:VEVENT',
				'END:VCALENDAR',
				'',
			].join('\r\n');
			const put = await radicale.send('PUT', `${work}foreign.ics`, {
				body: foreign,
				headers: { 'content-type': 'text/calendar' },
			});
			expect(put.status).toBe(201);

			const updated = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: `${work}foreign.ics`,
				updateFields: { summary: 'Renamed by n8n' },
				options: { includeRaw: true },
			});
			expect(updated.error).toBeUndefined();
			const stored = (await radicale.send('GET', `${work}foreign.ics`)).body;
			expect(stored).toContain('SUMMARY:Renamed by n8n');
			expect(stored).toContain('X-OTHER-CLIENT-COLOR:teal');
			expect(stored).toContain('CATEGORIES:alpha,beta');
			expect(stored).toContain('X-WR-CALNAME:Other');
			expect(stored).toContain('ACTION:AUDIO');
			expect(stored).toContain('UID:foreign-1@example.com');
		});

		it('stores raw iCalendar and expands a recurring series with exceptions', async () => {
			const series = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//Test//EN',
				'BEGIN:VEVENT',
				'UID:daily-standup',
				'DTSTAMP:20300101T000000Z',
				'DTSTART:20300201T090000Z',
				'DTEND:20300201T091500Z',
				'RRULE:FREQ=DAILY;COUNT=5',
				'EXDATE:20300203T090000Z',
				'SUMMARY:Stand-up',
				'END:VEVENT',
				'BEGIN:VEVENT',
				'UID:daily-standup',
				'DTSTAMP:20300101T000000Z',
				'RECURRENCE-ID:20300204T090000Z',
				'DTSTART:20300204T140000Z',
				'DTEND:20300204T141500Z',
				'SUMMARY:Stand-up (moved)',
				'END:VEVENT',
				'END:VCALENDAR',
			].join('\r\n');
			const created = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: series,
			});
			expect(created.error).toBeUndefined();
			expect(created.json[0]).toMatchObject({
				uid: 'daily-standup',
				recurring: true,
				exceptions: 1,
			});

			const expanded = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(work),
				timeMin: '2030-02-01T00:00:00Z',
				timeMax: '2030-02-10T00:00:00Z',
				expand: true,
			});
			expect(expanded.error).toBeUndefined();
			expect(expanded.json.map((item) => [item.start, item.summary])).toEqual([
				['2030-02-01T09:00:00.000Z', 'Stand-up'],
				['2030-02-02T09:00:00.000Z', 'Stand-up'],
				['2030-02-04T14:00:00.000Z', 'Stand-up (moved)'],
				['2030-02-05T09:00:00.000Z', 'Stand-up'],
			]);
			expect(expanded.json[2].recurrenceId).toBe('2030-02-04T09:00:00.000Z');
			// Each occurrence carries what addresses it: the object's URL and ETag, the UID and the original start.
			expect(
				expanded.json.map((item) => [item.url, item.etag, item.uid, item.recurrenceId]),
			).toEqual(
				['2030-02-01', '2030-02-02', '2030-02-04', '2030-02-05'].map((day) => [
					created.json[0].url,
					created.json[0].etag,
					'daily-standup',
					`${day}T09:00:00.000Z`,
				]),
			);
		});

		it('a second object with a UID the calendar holds is refused naming the conflict; Get by UID finds exactly one', async () => {
			const raw = (uid: string, summary: string) =>
				[
					'BEGIN:VCALENDAR',
					'VERSION:2.0',
					'PRODID:-//T//EN',
					'BEGIN:VEVENT',
					`UID:${uid}`,
					'DTSTAMP:20300101T000000Z',
					'DTSTART:20300301T100000Z',
					`SUMMARY:${summary}`,
					'END:VEVENT',
					'END:VCALENDAR',
				].join('\r\n');
			const first = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: raw('uid-team', 'First'),
			});
			expect(first.error).toBeUndefined();
			// A longer UID containing the first: servers match text-match as a substring.
			expect(
				(
					await run({
						resource: 'event',
						operation: 'create',
						calendar: byUrl(work),
						input: 'raw',
						iCalendar: raw('uid-team-offsite', 'Longer'),
					})
				).error,
			).toBeUndefined();
			// Xandikos answers 207 with an inner 412 and CALDAV:no-uid-conflict; Radicale answers 409 with it.
			const second = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: raw('uid-team', 'Second'),
			});
			expect(second.error?.message).toBe(
				`An event with the same UID already exists in this collection (${server.name === 'Xandikos' ? 412 : 409})`,
			);
			expect(second.error?.description).toMatch(/^Nothing was stored\./);
			const got = await run({
				resource: 'event',
				operation: 'get',
				getBy: 'uid',
				calendar: byUrl(work),
				uid: 'uid-team',
			});
			expect(got.error).toBeUndefined();
			expect(got.json.map((item) => [item.uid, item.summary])).toEqual([['uid-team', 'First']]);
		});

		it('raw iCalendar with a TZID but no VTIMEZONE is stored with the VTIMEZONE added (both servers would store it without)', async () => {
			const raw = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//T//EN',
				'BEGIN:VEVENT',
				'UID:zoned-raw',
				'DTSTAMP:20300101T000000Z',
				'DTSTART;TZID=Europe/Berlin:20300701T100000',
				'SUMMARY:Zoned',
				'END:VEVENT',
				'END:VCALENDAR',
			].join('\r\n');
			const created = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: raw,
			});
			expect(created.error).toBeUndefined();
			expect(created.json[0]).toMatchObject({ start: '2030-07-01T08:00:00.000Z' });
			const stored = (await radicale.send('GET', String(created.json[0].url))).body;
			expect(stored).toMatch(/BEGIN:VTIMEZONE\r\nTZID:Europe\/Berlin/);
			const refused = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: raw
					.replace(/Europe\/Berlin/g, 'Office Time')
					.replace('zoned-raw', 'zoned-raw-2'),
			});
			expect(refused.error?.message).toBe(
				'The iCalendar object uses the time zone "Office Time" without its VTIMEZONE',
			);
		});

		it('changes one occurrence (an override) and cancels another (EXDATE); the rest of the series stays', async () => {
			const series = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//T//EN',
				'BEGIN:VEVENT',
				'UID:weekly-sync',
				'DTSTAMP:20300101T000000Z',
				'DTSTART;TZID=Europe/Berlin:20300401T100000',
				'DTEND;TZID=Europe/Berlin:20300401T110000',
				'RRULE:FREQ=DAILY;COUNT=4',
				'SUMMARY:Sync',
				'X-KEEP:yes',
				'END:VEVENT',
				'END:VCALENDAR',
			].join('\r\n');
			const created = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: series,
			});
			expect(created.error).toBeUndefined();
			const url = String(created.json[0].url);
			const range = {
				timeMin: '2030-04-01T00:00:00Z',
				timeMax: '2030-04-10T00:00:00Z',
				expand: true,
			};
			const occurrences = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(work),
				...range,
			});
			const mine = occurrences.json.filter((item) => item.uid === 'weekly-sync');
			expect(mine.map((item) => item.recurrenceId)).toEqual([
				'2030-04-01T08:00:00.000Z',
				'2030-04-02T08:00:00.000Z',
				'2030-04-03T08:00:00.000Z',
				'2030-04-04T08:00:00.000Z',
			]);

			const changed = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: url,
				updateFields: { summary: 'Sync (in room 2)' },
				options: { occurrence: mine[1].recurrenceId, etag: mine[1].etag },
			});
			expect(changed.error).toBeUndefined();
			// The item shows the occurrence that changed, not the series.
			expect(changed.json[0]).toMatchObject({
				url,
				uid: 'weekly-sync',
				summary: 'Sync (in room 2)',
				recurrenceId: '2030-04-02T08:00:00.000Z',
				start: '2030-04-02T08:00:00.000Z',
				end: '2030-04-02T09:00:00.000Z',
				recurring: true,
			});
			const cancelled = await run({
				resource: 'event',
				operation: 'delete',
				eventUrl: url,
				options: { occurrence: mine[2].recurrenceId },
			});
			expect(cancelled.error).toBeUndefined();
			expect(cancelled.json[0]).toMatchObject({
				cancelled: true,
				url,
				recurrenceId: '2030-04-03T08:00:00.000Z',
			});

			const after = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(work),
				...range,
			});
			expect(
				after.json
					.filter((item) => item.uid === 'weekly-sync')
					.map((item) => [item.recurrenceId, item.summary]),
			).toEqual([
				['2030-04-01T08:00:00.000Z', 'Sync'],
				['2030-04-02T08:00:00.000Z', 'Sync (in room 2)'],
				['2030-04-04T08:00:00.000Z', 'Sync'],
			]);
			const stored = (await radicale.send('GET', url)).body;
			expect(stored).toMatch(/EXDATE;TZID=Europe\/Berlin:20300403T100000/);
			expect(stored).toMatch(/RECURRENCE-ID;TZID=Europe\/Berlin:20300402T100000/);
			expect(stored.match(/X-KEEP:yes/g)).toHaveLength(2);
		});

		it('"this and following" ends the series before the occurrence and starts a new one there with the change', async () => {
			const series = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//T//EN',
				'BEGIN:VEVENT',
				'UID:split-me',
				'DTSTAMP:20300101T000000Z',
				'DTSTART;TZID=Europe/Berlin:20300501T100000',
				'DTEND;TZID=Europe/Berlin:20300501T110000',
				'RRULE:FREQ=DAILY;COUNT=4',
				'SUMMARY:Retro',
				'END:VEVENT',
				'END:VCALENDAR',
			].join('\r\n');
			const created = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: series,
			});
			expect(created.error).toBeUndefined();
			const split = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: created.json[0].url,
				updateFields: { summary: 'Retro (new format)' },
				options: { occurrence: '2030-05-03T08:00:00.000Z', scope: 'following' },
			});
			expect(split.error).toBeUndefined();
			expect(split.json[0]).toMatchObject({
				uid: 'split-me',
				summary: 'Retro',
				following: expect.objectContaining({
					summary: 'Retro (new format)',
					start: '2030-05-03T08:00:00.000Z',
				}),
			});
			const after = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(work),
				timeMin: '2030-05-01T00:00:00Z',
				timeMax: '2030-05-10T00:00:00Z',
				expand: true,
			});
			expect(after.json.map((item) => [item.start, item.summary])).toEqual([
				['2030-05-01T08:00:00.000Z', 'Retro'],
				['2030-05-02T08:00:00.000Z', 'Retro'],
				['2030-05-03T08:00:00.000Z', 'Retro (new format)'],
				['2030-05-04T08:00:00.000Z', 'Retro (new format)'],
			]);
		});

		it('"this and following" keeps cancelled occurrences cancelled and changes a moved one, as the server expands them', async () => {
			const series = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//Other client//EN',
				'BEGIN:VEVENT',
				'UID:split-hard',
				'DTSTAMP:20300101T000000Z',
				'DTSTART;VALUE=DATE:20300901',
				'DTEND;VALUE=DATE:20300902',
				'RRULE:FREQ=DAILY;COUNT=6',
				'EXDATE;VALUE=DATE:20300902,20300905',
				'SUMMARY:Shift',
				'END:VEVENT',
				'BEGIN:VEVENT',
				'UID:split-hard',
				'DTSTAMP:20300101T000000Z',
				'RECURRENCE-ID;VALUE=DATE:20300904',
				'DTSTART;VALUE=DATE:20300903',
				'DTEND;VALUE=DATE:20300904',
				'SUMMARY:Shift',
				'END:VEVENT',
				'END:VCALENDAR',
			].join('\r\n');
			const created = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(work),
				input: 'raw',
				iCalendar: series,
			});
			expect(created.error).toBeUndefined();
			const split = await run({
				resource: 'event',
				operation: 'update',
				eventUrl: created.json[0].url,
				updateFields: { summary: 'Shift (new team)' },
				options: { occurrence: '2030-09-04', scope: 'following' },
			});
			expect(split.error).toBeUndefined();
			const after = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(work),
				timeMin: '2030-08-31T00:00:00Z',
				timeMax: '2030-09-10T00:00:00Z',
				expand: true,
			});
			expect(
				after.json
					.filter((item) => String(item.summary).startsWith('Shift'))
					.map((item) => [item.recurrenceId, item.start, item.summary])
					.sort(([a], [b]) => String(a).localeCompare(String(b))),
			).toEqual([
				['2030-09-01', '2030-09-01', 'Shift'],
				['2030-09-03', '2030-09-03', 'Shift'],
				['2030-09-04', '2030-09-03', 'Shift (new team)'],
				['2030-09-06', '2030-09-06', 'Shift (new team)'],
			]);
		});

		it('finds a recurring series by a later occurrence, on servers that match a time range against its first one only', async () => {
			// Xandikos 0.2.8 answers a time-range calendar-query without expanding recurrences: a weekly series
			// that began before the range is missing from its answer. The node asks for recurring series apart.
			const later = await radicale.mkcalendar('later-occurrences');
			const weekly = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//T//EN',
				'BEGIN:VEVENT',
				'UID:weekly-later',
				'DTSTAMP:20300101T000000Z',
				'DTSTART:20300603T090000Z',
				'DTEND:20300603T100000Z',
				'RRULE:FREQ=WEEKLY;COUNT=10',
				'SUMMARY:Weekly',
				'END:VEVENT',
				'END:VCALENDAR',
			].join('\r\n');
			const ended = weekly
				.replace('weekly-later', 'weekly-ended')
				.replace('COUNT=10', 'COUNT=2')
				.replace('SUMMARY:Weekly', 'SUMMARY:Ended');
			for (const iCalendar of [weekly, ended]) {
				const created = await run({
					resource: 'event',
					operation: 'create',
					calendar: byUrl(later),
					input: 'raw',
					iCalendar,
				});
				expect(created.error).toBeUndefined();
			}
			const range = { timeMin: '2030-07-01T00:00:00Z', timeMax: '2030-07-08T00:00:00Z' };
			const expanded = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(later),
				...range,
				expand: true,
			});
			expect(expanded.error).toBeUndefined();
			expect(expanded.json.map((item) => [item.uid, item.start])).toEqual([
				['weekly-later', '2030-07-01T09:00:00.000Z'],
			]);
			const series = await run({
				resource: 'event',
				operation: 'getAll',
				calendar: byUrl(later),
				...range,
			});
			expect(series.json.map((item) => item.uid)).toEqual(['weekly-later']);
		});

		it('refuses a VTODO for a calendar that only takes events, before storing anything', async () => {
			const eventsOnly = await radicale.mkcalendar('events-only', { components: ['VEVENT'] });
			const todo = [
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//T//EN',
				'BEGIN:VTODO',
				'UID:t1',
				'DTSTAMP:20300101T000000Z',
				'SUMMARY:Task',
				'END:VTODO',
				'END:VCALENDAR',
			].join('\r\n');
			const result = await run({
				resource: 'event',
				operation: 'create',
				calendar: byUrl(eventsOnly),
				input: 'raw',
				iCalendar: todo,
			});
			if (server.ignoresComponentSet) {
				// Xandikos keeps no component set (every calendar takes every component): the task is stored.
				expect(result.error).toBeUndefined();
				expect((await radicale.send('GET', String(result.json[0].url))).body).toContain(
					'BEGIN:VTODO',
				);
				return;
			}
			expect(result.error?.message).toMatch(/does not accept VTODO/);
		});
	});
});
