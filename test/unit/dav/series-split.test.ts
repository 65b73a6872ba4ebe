// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * "This and following" against an expander that is not the pack's own (independent-expander.ts). These run
 * under several process time zones (npm test repeats the zone-sensitive tests with TZ=America/New_York and
 * TZ=Pacific/Auckland): the result must be the same in every one.
 */
import {
	cancelOccurrence,
	splitSeries,
	updateOccurrence,
} from '../../../nodes/shared/dav/recurrence';
import { expandIndependently, type Occurrence } from './independent-expander';

const lines = (...parts: string[]) => parts.join('\r\n') + '\r\n';
const now = new Date('2030-01-15T00:00:00Z');

function calendar(...vevents: string[][]): string {
	return lines(
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
	);
}

function both(split: { original: string; following: string }): Occurrence[] {
	return [...expandIndependently(split.original), ...expandIndependently(split.following)].sort(
		(a, b) => a.recurrenceId.localeCompare(b.recurrenceId),
	);
}

const view = (occurrences: Occurrence[]) =>
	occurrences.map(
		(occurrence) => `${occurrence.recurrenceId} ${occurrence.start} ${occurrence.summary}`,
	);

describe('this and following (split)', () => {
	it('an EXDATE property holding values on both sides of the cut is split between the series: no cancelled occurrence comes back', () => {
		const series = calendar([
			'UID:s',
			'DTSTART:20300901T100000Z',
			'DTEND:20300901T110000Z',
			'RRULE:FREQ=DAILY;COUNT=6',
			'EXDATE:20300902T100000Z,20300905T100000Z',
			'SUMMARY:Daily',
		]);
		const split = splitSeries(
			series,
			'2030-09-04T10:00:00.000Z',
			{ summary: 'Later' },
			'new',
			'UTC',
			now,
		);
		expect(view(both(split))).toEqual([
			'2030-09-01T10:00:00.000Z 2030-09-01T10:00:00.000Z Daily',
			'2030-09-03T10:00:00.000Z 2030-09-03T10:00:00.000Z Daily',
			'2030-09-04T10:00:00.000Z 2030-09-04T10:00:00.000Z Later',
			'2030-09-06T10:00:00.000Z 2030-09-06T10:00:00.000Z Later',
		]);
		expect(split.original).toContain('EXDATE:20300902T100000Z\r\n');
		expect(split.following).toContain('EXDATE:20300905T100000Z\r\n');
	});

	it('an all-day series ends the day before the cut (UNTIL as a DATE): the split day exists once', () => {
		const series = calendar([
			'UID:s',
			'DTSTART;VALUE=DATE:20300913',
			'DTEND;VALUE=DATE:20300914',
			'RRULE:FREQ=DAILY;COUNT=5',
			'SUMMARY:Day',
		]);
		const split = splitSeries(series, '2030-09-15', { summary: 'Later day' }, 'new', 'UTC', now);
		expect(split.original).toContain('RRULE:FREQ=DAILY;UNTIL=20300914\r\n');
		expect(view(both(split))).toEqual([
			'2030-09-13 2030-09-13 Day',
			'2030-09-14 2030-09-14 Day',
			'2030-09-15 2030-09-15 Later day',
			'2030-09-16 2030-09-16 Later day',
			'2030-09-17 2030-09-17 Later day',
		]);
	});

	it('a floating series gets a floating UNTIL (RFC 5545 3.3.10), the same in every process time zone', () => {
		const series = calendar([
			'UID:s',
			'DTSTART:20300913T090000',
			'DTEND:20300913T100000',
			'RRULE:FREQ=DAILY;COUNT=4',
			'SUMMARY:Local',
		]);
		const split = splitSeries(
			series,
			'2030-09-15T09:00:00',
			{ summary: 'Later' },
			'new',
			'UTC',
			now,
		);
		expect(split.original).toContain('RRULE:FREQ=DAILY;UNTIL=20300915T085959\r\n');
		expect(split.following).toContain('DTSTART:20300915T090000\r\n');
		expect(view(both(split))).toEqual([
			'2030-09-13T09:00:00 2030-09-13T09:00:00 Local',
			'2030-09-14T09:00:00 2030-09-14T09:00:00 Local',
			'2030-09-15T09:00:00 2030-09-15T09:00:00 Later',
			'2030-09-16T09:00:00 2030-09-16T09:00:00 Later',
		]);
	});

	it('splitting at an occurrence that was moved changes that occurrence too, not only the ones after it', () => {
		const series = calendar(
			[
				'UID:s',
				'DTSTART;TZID=Europe/Berlin:20300901T100000',
				'DTEND;TZID=Europe/Berlin:20300901T110000',
				'RRULE:FREQ=DAILY;COUNT=4',
				'SUMMARY:Daily',
			],
			[
				'UID:s',
				'RECURRENCE-ID;TZID=Europe/Berlin:20300903T100000',
				'DTSTART;TZID=Europe/Berlin:20300903T150000',
				'DTEND;TZID=Europe/Berlin:20300903T160000',
				'SUMMARY:Daily',
			],
		);
		const split = splitSeries(
			series,
			'2030-09-03T08:00:00.000Z',
			{ summary: 'Renamed' },
			'new',
			'UTC',
			now,
		);
		expect(view(both(split))).toEqual([
			'2030-09-01T08:00:00.000Z 2030-09-01T08:00:00.000Z Daily',
			'2030-09-02T08:00:00.000Z 2030-09-02T08:00:00.000Z Daily',
			'2030-09-03T08:00:00.000Z 2030-09-03T13:00:00.000Z Renamed',
			'2030-09-04T08:00:00.000Z 2030-09-04T08:00:00.000Z Renamed',
		]);
	});
});

describe('this and following in another time zone', () => {
	it('the new series, its later EXDATE and overrides move to the new zone at the same place in the rule', () => {
		const series = calendar(
			[
				'UID:s',
				'DTSTART;TZID=Europe/Berlin:20300901T100000',
				'DTEND;TZID=Europe/Berlin:20300901T110000',
				'RRULE:FREQ=DAILY;UNTIL=20300906T080000Z',
				'EXDATE;TZID=Europe/Berlin:20300902T100000,20300905T100000',
				'SUMMARY:Daily',
			],
			[
				'UID:s',
				'RECURRENCE-ID;TZID=Europe/Berlin:20300906T100000',
				'DTSTART;TZID=Europe/Berlin:20300906T100000',
				'DTEND;TZID=Europe/Berlin:20300906T110000',
				'SUMMARY:Last one',
			],
		);
		const split = splitSeries(
			series,
			'2030-09-04T08:00:00.000Z',
			{ start: '2030-09-04T09:00:00', timezone: 'America/New_York' },
			'new',
			'UTC',
			now,
		);
		expect(split.following).toContain('EXDATE;TZID=America/New_York:20300905T090000\r\n');
		expect(view(both(split))).toEqual([
			'2030-09-01T08:00:00.000Z 2030-09-01T08:00:00.000Z Daily',
			'2030-09-03T08:00:00.000Z 2030-09-03T08:00:00.000Z Daily',
			'2030-09-04T13:00:00.000Z 2030-09-04T13:00:00.000Z Daily',
			'2030-09-06T13:00:00.000Z 2030-09-06T13:00:00.000Z Last one',
		]);
	});
});

describe('this and following: All Day switched', () => {
	const series = calendar([
		'UID:s',
		'DTSTART;VALUE=DATE:20300901',
		'RRULE:FREQ=DAILY;COUNT=6',
		'EXDATE;VALUE=DATE:20300905',
		'SUMMARY:Day',
	]);

	it('is refused, before anything is stored, when later occurrences were cancelled or changed', () => {
		expect(() =>
			splitSeries(
				series,
				'2030-09-03',
				{ allDay: false, start: '2030-09-03T10:00:00' },
				'new',
				'UTC',
				now,
			),
		).toThrow('"This and Following" cannot switch All Day');
	});

	it('works when no later occurrence was cancelled or changed', () => {
		const split = splitSeries(
			series,
			'2030-09-06',
			{ allDay: false, start: '2030-09-06T10:00:00', end: '2030-09-06T11:00:00', timezone: 'UTC' },
			'new',
			'UTC',
			now,
		);
		expect(view(both(split))).toEqual([
			'2030-09-01 2030-09-01 Day',
			'2030-09-02 2030-09-02 Day',
			'2030-09-03 2030-09-03 Day',
			'2030-09-04 2030-09-04 Day',
			'2030-09-06T10:00:00.000Z 2030-09-06T10:00:00.000Z Day',
		]);
	});
});

describe('this and following: alarms', () => {
	it('the new series gets new alarm identities (X-WR-ALARMUID, UID), so no two objects share one', () => {
		const series = calendar([
			'UID:s',
			'DTSTART:20300901T100000Z',
			'DTEND:20300901T110000Z',
			'RRULE:FREQ=DAILY;COUNT=4',
			'SUMMARY:Daily',
			'BEGIN:VALARM',
			'ACTION:DISPLAY',
			'DESCRIPTION:Daily',
			'TRIGGER:-PT15M',
			'UID:5E3B1F52-0000-4000-8000-000000000001',
			'X-WR-ALARMUID:5E3B1F52-0000-4000-8000-000000000001',
			'END:VALARM',
		]);
		const split = splitSeries(
			series,
			'2030-09-03T10:00:00.000Z',
			{ summary: 'Later' },
			'new',
			'UTC',
			now,
		);
		expect(split.original).toContain('X-WR-ALARMUID:5E3B1F52-0000-4000-8000-000000000001');
		expect(split.following).not.toContain('5E3B1F52-0000-4000-8000-000000000001');
		expect(split.following.match(/X-WR-ALARMUID:[0-9A-F-]{36}\r\n/g)).toHaveLength(1);
		expect(split.following).toContain('TRIGGER:-PT15M');
	});
});

describe('one occurrence, in any process time zone', () => {
	const zoned = calendar([
		'UID:z',
		'DTSTART;TZID=Europe/Berlin:20300913T100000',
		'DTEND;TZID=Europe/Berlin:20300913T110000',
		'RRULE:FREQ=DAILY;COUNT=3',
		'SUMMARY:Zoned',
	]);
	const floating = calendar([
		'UID:f',
		'DTSTART:20300913T090000',
		'DTEND:20300913T100000',
		'RRULE:FREQ=DAILY;COUNT=3',
		'SUMMARY:Floating',
	]);
	const allDay = calendar([
		'UID:d',
		'DTSTART;VALUE=DATE:20300913',
		'RRULE:FREQ=DAILY;COUNT=3',
		'SUMMARY:Day',
	]);

	it('a recurrenceId without Z or offset is the wall-clock time of the series, never of the process', () => {
		expect(cancelOccurrence(zoned, '2030-09-14T10:00:00', now)).toContain(
			'EXDATE;TZID=Europe/Berlin:20300914T100000\r\n',
		);
		expect(cancelOccurrence(zoned, '2030-09-14T08:00:00.000Z', now)).toContain(
			'EXDATE;TZID=Europe/Berlin:20300914T100000\r\n',
		);
		expect(() => cancelOccurrence(zoned, '2030-09-14T08:00:00', now)).toThrow(
			'The series has no occurrence starting at 2030-09-14T08:00:00',
		);
	});

	it('a new start in a form without zone that is not ISO is refused rather than read in the process time zone', () => {
		expect(() =>
			updateOccurrence(zoned, '2030-09-14T10:00:00', { start: 'Sep 14 2030 11:00' }, 'UTC', now),
		).toThrow('"Sep 14 2030 11:00" is not a valid date or time');
		expect(
			updateOccurrence(
				zoned,
				'2030-09-14T10:00:00',
				{ start: 'Sep 14 2030 11:00 GMT+0200' },
				'UTC',
				now,
			),
		).toContain('DTSTART;TZID=Europe/Berlin:20300914T110000');
	});

	it('cancels and changes floating and all-day occurrences by what Get Many shows for them', () => {
		expect(
			view(expandIndependently(cancelOccurrence(floating, '2030-09-14T09:00:00', now))),
		).toEqual([
			'2030-09-13T09:00:00 2030-09-13T09:00:00 Floating',
			'2030-09-15T09:00:00 2030-09-15T09:00:00 Floating',
		]);
		expect(view(expandIndependently(cancelOccurrence(allDay, '2030-09-14', now)))).toEqual([
			'2030-09-13 2030-09-13 Day',
			'2030-09-15 2030-09-15 Day',
		]);
		const changed = updateOccurrence(
			floating,
			'2030-09-15T09:00:00',
			{ summary: 'Last' },
			'UTC',
			now,
		);
		expect(changed).toContain('RECURRENCE-ID:20300915T090000\r\n');
		expect(view(expandIndependently(changed))).toEqual([
			'2030-09-13T09:00:00 2030-09-13T09:00:00 Floating',
			'2030-09-14T09:00:00 2030-09-14T09:00:00 Floating',
			'2030-09-15T09:00:00 2030-09-15T09:00:00 Last',
		]);
		const day = updateOccurrence(allDay, '2030-09-14', { summary: 'Middle' }, 'UTC', now);
		expect(day).toContain('RECURRENCE-ID;VALUE=DATE:20300914\r\n');
		expect(view(expandIndependently(day))).toEqual([
			'2030-09-13 2030-09-13 Day',
			'2030-09-14 2030-09-14 Middle',
			'2030-09-15 2030-09-15 Day',
		]);
	});
});
