// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
import { describeCalendarData, expandCalendarData } from '../../../nodes/shared/dav/event-view';
import {
	createEventData,
	normaliseRawCalendar,
	patchEventData,
} from '../../../nodes/shared/dav/icalendar';
import {
	cancelOccurrence,
	splitSeries,
	updateOccurrence,
} from '../../../nodes/shared/dav/recurrence';
import { offsetMinutes, vtimezoneFor } from '../../../nodes/shared/dav/timezones';
import {
	createContactData,
	describeVcard,
	patchContactData,
} from '../../../nodes/shared/dav/vcard';

const lines = (...parts: string[]) => parts.join('\r\n') + '\r\n';
const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('iCalendar', () => {
	it('writes a timed event with its VTIMEZONE, CRLF line endings and the instant it means', () => {
		const data = createEventData(
			{
				summary: 'Call',
				start: '2030-07-01T09:00:00',
				end: '2030-07-01T10:00:00',
				timezone: 'America/New_York',
			},
			'uid-1',
			'UTC',
			new Date('2030-01-01T00:00:00Z'),
		);
		expect(data).toMatch(/^BEGIN:VCALENDAR\r\n/);
		expect(data.split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
		expect(data).toContain('BEGIN:VTIMEZONE\r\nTZID:America/New_York');
		expect(data).toContain('DTSTART;TZID=America/New_York:20300701T090000');
		expect(describeCalendarData(data)).toMatchObject({
			uid: 'uid-1',
			start: '2030-07-01T13:00:00.000Z',
			end: '2030-07-01T14:00:00.000Z',
			timezone: 'America/New_York',
		});
	});

	it('derives VTIMEZONE rules that match the time-zone database in winter and summer, past and future', () => {
		const zone = vtimezoneFor('Europe/Berlin', 2030);
		expect(
			zone
				.getAllSubcomponents()
				.map((sub) => sub.name)
				.sort(),
		).toEqual(['daylight', 'standard']);
		for (const iso of [
			'2019-01-15T12:00:00Z',
			'2019-07-15T12:00:00Z',
			'2035-03-31T12:00:00Z',
			'2035-11-01T12:00:00Z',
		]) {
			const local = new Date(
				Date.parse(iso) + offsetMinutes('Europe/Berlin', Date.parse(iso)) * 60_000,
			)
				.toISOString()
				.slice(0, 19);
			const data = createEventData(
				{ summary: 'x', start: local, timezone: 'Europe/Berlin' },
				'u',
				'UTC',
			);
			expect(describeCalendarData(data).start).toBe(new Date(iso).toISOString());
		}
	});

	it('writes all-day events as dates, with an exclusive end one day later by default', () => {
		const data = createEventData(
			{ summary: 'Holiday', start: '2030-12-24', allDay: true },
			'u',
			'Europe/Berlin',
		);
		expect(data).toContain('DTSTART;VALUE=DATE:20301224');
		expect(data).toContain('DTEND;VALUE=DATE:20301225');
		expect(describeCalendarData(data)).toMatchObject({
			allDay: true,
			start: '2030-12-24',
			end: '2030-12-25',
		});
	});

	it('adds attendees, reminders and a recurrence rule; rejects an invalid rule', () => {
		const data = createEventData(
			{
				summary: 'Weekly',
				start: '2030-01-07T08:00:00Z',
				attendees: ['a@example.com'],
				reminders: [10],
				recurrenceRule: 'FREQ=WEEKLY;COUNT=3',
			},
			'u',
			'UTC',
		);
		expect(describeCalendarData(data)).toMatchObject({
			recurring: true,
			recurrenceRule: 'FREQ=WEEKLY;COUNT=3',
			attendees: [{ email: 'a@example.com', status: 'NEEDS-ACTION' }],
			reminders: [10],
		});
		expect(() =>
			createEventData(
				{ summary: 'x', start: '2030-01-01T00:00:00Z', recurrenceRule: 'BYDAY=MO' },
				'u',
				'UTC',
			),
		).toThrow(/has no FREQ|not a valid recurrence rule/);
	});

	it('patches only what it is given: unknown properties, folded lines, exceptions and alarms survive', () => {
		const foreign = lines(
			'BEGIN:VCALENDAR',
			'VERSION:2.0',
			'PRODID:-//Other//EN',
			'BEGIN:VEVENT',
			'UID:series-1',
			'DTSTAMP:20300101T000000Z',
			'DTSTART:20300105T100000Z',
			'DURATION:PT1H',
			'RRULE:FREQ=DAILY;COUNT=3',
			'SUMMARY:Séance',
			'DESCRIPTION:A description long enough to be folded by the other client because it is',
			'  over seventy-five octets.',
			'X-VENDOR-FLAG;X-PARAM=1:keep me',
			'BEGIN:VALARM',
			'ACTION:DISPLAY',
			'TRIGGER:-PT30M',
			'DESCRIPTION:alarm',
			'END:VALARM',
			'END:VEVENT',
			'BEGIN:VEVENT',
			'UID:series-1',
			'DTSTAMP:20300101T000000Z',
			'RECURRENCE-ID:20300106T100000Z',
			'DTSTART:20300106T120000Z',
			'DURATION:PT1H',
			'SUMMARY:Séance (moved)',
			'END:VEVENT',
			'END:VCALENDAR',
		);
		const patched = patchEventData(
			foreign,
			{ location: 'Salle 2' },
			'UTC',
			new Date('2030-02-01T00:00:00Z'),
		);
		expect(patched).toContain('X-VENDOR-FLAG;X-PARAM=1:keep me');
		expect(patched).toContain('RECURRENCE-ID:20300106T100000Z');
		expect(patched).toContain('TRIGGER:-PT30M');
		expect(patched).toContain('LOCATION:Salle 2');
		expect(patched).toContain('SEQUENCE:1');
		expect(describeCalendarData(patched)).toMatchObject({
			summary: 'Séance',
			description:
				'A description long enough to be folded by the other client because it is over seventy-five octets.',
			exceptions: 1,
		});
	});

	it('expands a series with EXDATE, RDATE and a moved instance into occurrences', () => {
		const data = lines(
			'BEGIN:VCALENDAR',
			'VERSION:2.0',
			'PRODID:-//T//EN',
			'BEGIN:VTIMEZONE',
			'TZID:Custom/Berlin',
			'BEGIN:STANDARD',
			'DTSTART:19701025T030000',
			'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
			'TZOFFSETFROM:+0200',
			'TZOFFSETTO:+0100',
			'END:STANDARD',
			'BEGIN:DAYLIGHT',
			'DTSTART:19700329T020000',
			'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
			'TZOFFSETFROM:+0100',
			'TZOFFSETTO:+0200',
			'END:DAYLIGHT',
			'END:VTIMEZONE',
			'BEGIN:VEVENT',
			'UID:s',
			'DTSTAMP:20300101T000000Z',
			'DTSTART;TZID=Custom/Berlin:20300325T090000',
			'DTEND;TZID=Custom/Berlin:20300325T093000',
			'RRULE:FREQ=DAILY;COUNT=4',
			'EXDATE;TZID=Custom/Berlin:20300326T090000',
			'RDATE;TZID=Custom/Berlin:20300401T090000',
			'SUMMARY:Daily',
			'END:VEVENT',
			'BEGIN:VEVENT',
			'UID:s',
			'DTSTAMP:20300101T000000Z',
			'RECURRENCE-ID;TZID=Custom/Berlin:20300328T090000',
			'DTSTART;TZID=Custom/Berlin:20300328T150000',
			'DTEND;TZID=Custom/Berlin:20300328T153000',
			'SUMMARY:Daily (moved)',
			'END:VEVENT',
			'END:VCALENDAR',
		);
		const occurrences = expandCalendarData(
			data,
			seconds('2030-03-20T00:00:00Z'),
			seconds('2030-04-10T00:00:00Z'),
		);
		// Summer time starts on 31 March 2030: 09:00 local is 08:00Z before, 07:00Z after.
		expect(occurrences.map((item) => [item.start, item.summary])).toEqual([
			['2030-03-25T08:00:00.000Z', 'Daily'],
			['2030-03-27T08:00:00.000Z', 'Daily'],
			['2030-03-28T14:00:00.000Z', 'Daily (moved)'],
			['2030-04-01T07:00:00.000Z', 'Daily'],
		]);
		expect(occurrences[2].recurrenceId).toBe('2030-03-28T08:00:00.000Z');
	});

	it('gives a raw object without UID a new one and keeps an existing one', () => {
		const raw = lines(
			'BEGIN:VCALENDAR',
			'VERSION:2.0',
			'PRODID:-//T//EN',
			'BEGIN:VEVENT',
			'DTSTAMP:20300101T000000Z',
			'DTSTART:20300101T100000Z',
			'SUMMARY:No UID',
			'END:VEVENT',
			'END:VCALENDAR',
		);
		expect(normaliseRawCalendar(raw, 'fresh').uid).toBe('fresh');
		expect(normaliseRawCalendar(raw.replace('SUMMARY', 'UID:mine\r\nSUMMARY'), 'fresh').uid).toBe(
			'mine',
		);
		expect(() => normaliseRawCalendar('not ical', 'x')).toThrow(/could not be parsed/);
	});

	it('adds the VTIMEZONE of an IANA TZID a raw object uses without one; refuses a TZID it cannot define', () => {
		const raw = (tzid: string) =>
			lines(
				'BEGIN:VCALENDAR',
				'VERSION:2.0',
				'PRODID:-//T//EN',
				'BEGIN:VEVENT',
				'UID:tz',
				'DTSTAMP:20300101T000000Z',
				`DTSTART;TZID=${tzid}:20300701T100000`,
				'SUMMARY:Zoned',
				'END:VEVENT',
				'END:VCALENDAR',
			);
		const { data } = normaliseRawCalendar(raw('Europe/Berlin'), 'x');
		expect(data).toMatch(
			/BEGIN:VTIMEZONE\r\nTZID:Europe\/Berlin\r\n[\s\S]*TZOFFSETTO:\+0200[\s\S]*END:VTIMEZONE/,
		);
		expect(data).toContain('DTSTART;TZID=Europe/Berlin:20300701T100000');
		// One already there is not duplicated.
		expect(normaliseRawCalendar(data, 'x').data.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
		expect(() => normaliseRawCalendar(raw('My Office Time'), 'x')).toThrow(
			'The iCalendar object uses the time zone "My Office Time" without its VTIMEZONE',
		);
	});
});

describe('one occurrence of a series', () => {
	const series = lines(
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//T//EN',
		'BEGIN:VEVENT',
		'UID:s',
		'DTSTAMP:20300101T000000Z',
		'DTSTART;TZID=Europe/Berlin:20300201T100000',
		'DTEND;TZID=Europe/Berlin:20300201T103000',
		'RRULE:FREQ=DAILY;COUNT=5',
		'SUMMARY:Daily',
		'X-KEEP:yes',
		'END:VEVENT',
		'BEGIN:VEVENT',
		'UID:s',
		'DTSTAMP:20300101T000000Z',
		'RECURRENCE-ID;TZID=Europe/Berlin:20300204T100000',
		'DTSTART;TZID=Europe/Berlin:20300204T150000',
		'DTEND;TZID=Europe/Berlin:20300204T153000',
		'SUMMARY:Moved',
		'END:VEVENT',
		'END:VCALENDAR',
	);
	const now = new Date('2030-01-15T00:00:00Z');

	it('cancel: an EXDATE in the series zone; an override of that occurrence goes too; the rest stays', () => {
		const cancelled = cancelOccurrence(series, '2030-02-04T09:00:00.000Z', now);
		expect(cancelled).toContain('EXDATE;TZID=Europe/Berlin:20300204T100000');
		expect(cancelled).not.toContain('SUMMARY:Moved');
		expect(cancelled).toContain('X-KEEP:yes');
		expect(cancelled).toContain('RRULE:FREQ=DAILY;COUNT=5');
		expect(() => cancelOccurrence(series, '2030-02-04T10:00:00.000Z')).toThrow(
			'The series has no occurrence starting at 2030-02-04T10:00:00.000Z',
		);
	});

	it('this and following: the series ends before it (COUNT becomes UNTIL); a new series with the rest starts there, later overrides with it', () => {
		const { original, following } = splitSeries(
			series,
			'2030-02-03T09:00:00.000Z',
			{ summary: 'Daily (new time)' },
			'new-uid',
			'UTC',
			now,
		);
		// UNTIL is the rule's last instance before the cut (exact even beside a DST gap).
		expect(original).toContain('RRULE:FREQ=DAILY;UNTIL=20300202T090000Z');
		expect(original).not.toContain('SUMMARY:Moved');
		expect(original).toContain('SUMMARY:Daily');
		expect(following).toContain('UID:new-uid');
		expect(following).toContain('DTSTART;TZID=Europe/Berlin:20300203T100000');
		expect(following).toContain('RRULE:FREQ=DAILY;COUNT=3');
		expect(following).toContain('SUMMARY:Daily (new time)');
		expect(following).toContain('SUMMARY:Moved');
		expect(following).toContain('X-KEEP:yes');
		expect(following.match(/UID:new-uid/g)).toHaveLength(2);
	});

	it('this and following after a cancelled occurrence: the EXDATE still used up one of the COUNT', () => {
		const { following } = splitSeries(
			cancelOccurrence(series, '2030-02-02T09:00:00.000Z', now),
			'2030-02-03T09:00:00.000Z',
			{ summary: 'Daily (new time)' },
			'new-uid',
			'UTC',
			now,
		);
		expect(following).toContain('RRULE:FREQ=DAILY;COUNT=3');
	});

	it('change: an override made from the series at the occurrence start and length, then patched; an existing override is patched', () => {
		const changed = updateOccurrence(
			series,
			'2030-02-02T09:00:00.000Z',
			{ summary: 'Only this one' },
			'UTC',
			now,
		);
		const override = changed
			.split('BEGIN:VEVENT')
			.find((block) => block.includes('RECURRENCE-ID;TZID=Europe/Berlin:20300202T100000'));
		expect(override).toBeDefined();
		expect(override).toContain('DTSTART;TZID=Europe/Berlin:20300202T100000');
		expect(override).toContain('DTEND;TZID=Europe/Berlin:20300202T103000');
		expect(override).toContain('SUMMARY:Only this one');
		expect(override).toContain('X-KEEP:yes');
		expect(override).not.toContain('RRULE');
		expect(changed).toContain('SUMMARY:Daily');
		const again = updateOccurrence(
			series,
			'2030-02-04T09:00:00.000Z',
			{ summary: 'Moved and renamed' },
			'UTC',
			now,
		);
		expect(again.match(/RECURRENCE-ID/g)).toHaveLength(1);
		expect(again).toContain('SUMMARY:Moved and renamed');
		expect(again).toContain('DTSTART;TZID=Europe/Berlin:20300204T150000');
	});
});

describe('vCard', () => {
	it('round-trips non-ASCII names, folded long lines and typed values', () => {
		const data = createContactData(
			{
				fullName: 'Łukasz Żółć 東京',
				givenName: 'Łukasz',
				familyName: 'Żółć',
				emails: [{ value: 'l@example.com', type: 'work' }],
				note: 'ü'.repeat(120),
			},
			'c-1',
			new Date('2030-01-01T00:00:00Z'),
		);
		expect(data).toMatch(/^BEGIN:VCARD\r\nVERSION:3.0\r\n/);
		expect(data).toContain('\r\n '); // folded
		expect(describeVcard(data)).toMatchObject({
			uid: 'c-1',
			fullName: 'Łukasz Żółć 東京',
			givenName: 'Łukasz',
			familyName: 'Żółć',
			emails: [{ value: 'l@example.com', type: 'work' }],
			note: 'ü'.repeat(120),
		});
	});

	it('keeps unknown properties, groups and photos when patching', () => {
		const foreign = lines(
			'BEGIN:VCARD',
			'VERSION:3.0',
			'UID:x',
			'FN:Ada',
			'N:Lovelace;Ada;;;',
			'item1.EMAIL;TYPE=INTERNET:ada@example.com',
			'item1.X-ABLabel:_$!<Other>!$_',
			'X-CUSTOM:anything',
			'PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgo=',
			'END:VCARD',
		);
		const patched = patchContactData(foreign, { title: 'Countess' });
		for (const kept of [
			'item1.EMAIL;TYPE=INTERNET:ada@example.com',
			'item1.X-ABLabel:_$!<Other>!$_',
			'X-CUSTOM:anything',
			'PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgo=',
			'N:Lovelace;Ada;;;',
		]) {
			expect(patched.toLowerCase()).toContain(kept.toLowerCase());
		}
		expect(describeVcard(patched)).toMatchObject({
			title: 'Countess',
			fullName: 'Ada',
			familyName: 'Lovelace',
		});
	});

	it('rewrites only the patched properties: every other line stays byte for byte (BDAY date forms, group names, parameters, folding)', () => {
		const photo = `PHOTO;ENCODING=b;TYPE=JPEG:${'QUJD'.repeat(30)}`;
		const foldedPhoto = `${photo.slice(0, 75)}\r\n ${photo.slice(75)}`;
		const foreign = lines(
			'BEGIN:VCARD',
			'VERSION:3.0',
			'PRODID:-//Apple Inc.//iPhone OS 17.0//EN',
			'UID:x',
			'FN:Ada',
			'N:Lovelace;Ada;;;',
			'BDAY:1980-02-03',
			'X-ANNIVERSARY;VALUE=date:19991231',
			'item1.URL;type=pref:https://ada.example',
			'item1.X-ABLabel:_$!<HomePage>!$_',
			'TEL;type=CELL;type=VOICE;type=pref:+49 170 1',
			'TEL;TYPE=WORK:+49 30 2',
			'EMAIL;type=INTERNET;type=HOME:ada@example.com',
			foldedPhoto,
			'X-SOCIALPROFILE;type=twitter;x-user=ada:https://twitter.com/ada',
			'REV:2020-01-01T00:00:00Z',
			'END:VCARD',
		);
		const patched = patchContactData(
			foreign,
			{ title: 'Countess' },
			new Date('2030-01-01T00:00:00Z'),
		);
		// REV is replaced in its place, the new TITLE goes before END:VCARD; nothing else differs.
		expect(patched).toBe(
			foreign.replace('REV:2020-01-01T00:00:00Z\r\n', 'REV:20300101T000000Z\r\nTITLE:Countess\r\n'),
		);
		// Changing the birthday replaces that line only, in its place.
		const reborn = patchContactData(
			foreign,
			{ birthday: '1981-03-04' },
			new Date('2030-01-01T00:00:00Z'),
		);
		expect(reborn).toBe(
			foreign
				.replace('BDAY:1980-02-03', 'BDAY;VALUE=DATE:19810304')
				.replace('REV:2020-01-01T00:00:00Z', 'REV:20300101T000000Z'),
		);
		expect(reborn).toContain(`\r\n${foldedPhoto}\r\n`);
	});

	it('derives FN from name parts and refuses a contact without any name', () => {
		expect(
			describeVcard(createContactData({ givenName: 'Ada', familyName: 'Lovelace' }, 'u')).fullName,
		).toBe('Ada Lovelace');
		expect(() => createContactData({ emails: [{ value: 'a@b.co' }] }, 'u')).toThrow(/needs a name/);
	});
});
