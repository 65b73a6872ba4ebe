// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Overrides and occurrences written in other forms than the pack writes them (issue #37): a RECURRENCE-ID in
 * UTC for a zoned series, a local time skipped by a DST change, floating and all-day series, "this and
 * following" where nothing would be left before the occurrence. Run also with TZ=America/New_York and
 * TZ=Pacific/Auckland: nothing may depend on the process zone.
 */
import { expandCalendarData } from '../../../nodes/shared/dav/event-view';
import {
	cancelOccurrence,
	followingScope,
	replaceFromOccurrence,
	splitSeries,
	updateOccurrence,
} from '../../../nodes/shared/dav/recurrence';
import { sameContent } from '../../../nodes/shared/dav/same-content';
import { expandIndependently, type Occurrence } from './independent-expander';

const now = new Date('2030-01-15T00:00:00Z');
const lines = (...parts: string[]) => parts.join('\r\n') + '\r\n';

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

const view = (occurrences: Occurrence[]) =>
	[...occurrences]
		.sort((a, b) => a.recurrenceId.localeCompare(b.recurrenceId))
		.map((occurrence) => `${occurrence.recurrenceId} ${occurrence.start} ${occurrence.summary}`);
const expanded = (text: string, from: string, to: string) =>
	expandCalendarData(text, Date.parse(from) / 1000, Date.parse(to) / 1000).map(
		(item) => `${item.recurrenceId} ${item.start} ${item.summary}`,
	);

// Berlin 09:00 daily; the second occurrence's override names it in UTC (07:00Z), as several clients write it.
const UTC_OVERRIDE = calendar(
	[
		'UID:utc-id',
		'DTSTART;TZID=Europe/Berlin:20310601T090000',
		'DTEND;TZID=Europe/Berlin:20310601T100000',
		'RRULE:FREQ=DAILY;COUNT=3',
		'SUMMARY:Daily',
	],
	[
		'UID:utc-id',
		'RECURRENCE-ID:20310602T070000Z',
		'DTSTART:20310602T080000Z',
		'DTEND:20310602T090000Z',
		'SUMMARY:Moved',
	],
);

// 02:30 Berlin does not exist on 30 March 2031 (clocks go from 02:00 to 03:00).
const DST_GAP = calendar([
	'UID:gap',
	'DTSTART;TZID=Europe/Berlin:20310328T023000',
	'DURATION:PT30M',
	'RRULE:FREQ=DAILY;COUNT=4',
	'SUMMARY:Night',
]);

describe('a RECURRENCE-ID in another form than DTSTART names the same occurrence (as an instant)', () => {
	it('expansion shows the overridden occurrence once', () => {
		expect(expanded(UTC_OVERRIDE, '2031-05-31T00:00:00Z', '2031-06-10T00:00:00Z')).toEqual([
			'2031-06-01T07:00:00.000Z 2031-06-01T07:00:00.000Z Daily',
			'2031-06-02T07:00:00.000Z 2031-06-02T08:00:00.000Z Moved',
			'2031-06-03T07:00:00.000Z 2031-06-03T07:00:00.000Z Daily',
		]);
		expect(view(expandIndependently(UTC_OVERRIDE))).toEqual([
			'2031-06-01T07:00:00.000Z 2031-06-01T07:00:00.000Z Daily',
			'2031-06-02T07:00:00.000Z 2031-06-02T08:00:00.000Z Moved',
			'2031-06-03T07:00:00.000Z 2031-06-03T07:00:00.000Z Daily',
		]);
	});

	it('an all-day series whose override names its day as a date-time: once, on that day', () => {
		const text = calendar(
			[
				'UID:days',
				'DTSTART;VALUE=DATE:20310601',
				'DTEND;VALUE=DATE:20310602',
				'RRULE:FREQ=DAILY;COUNT=3',
				'SUMMARY:Day',
			],
			[
				'UID:days',
				'RECURRENCE-ID:20310602T000000Z',
				'DTSTART;VALUE=DATE:20310602',
				'DTEND;VALUE=DATE:20310603',
				'SUMMARY:Other day',
			],
		);
		expect(expanded(text, '2031-05-31T00:00:00Z', '2031-06-10T00:00:00Z')).toEqual([
			'2031-06-01 2031-06-01 Day',
			'2031-06-02 2031-06-02 Other day',
			'2031-06-03 2031-06-03 Day',
		]);
	});

	it('changing and cancelling that occurrence patch or remove its override, leaving no second one', () => {
		const changed = updateOccurrence(
			UTC_OVERRIDE,
			'2031-06-02T07:00:00.000Z',
			{ summary: 'Edited' },
			'UTC',
			now,
		);
		expect(changed.match(/RECURRENCE-ID/g)).toHaveLength(1);
		expect(view(expandIndependently(changed))).toEqual([
			'2031-06-01T07:00:00.000Z 2031-06-01T07:00:00.000Z Daily',
			'2031-06-02T07:00:00.000Z 2031-06-02T08:00:00.000Z Edited',
			'2031-06-03T07:00:00.000Z 2031-06-03T07:00:00.000Z Daily',
		]);
		const cancelled = cancelOccurrence(UTC_OVERRIDE, '2031-06-02T07:00:00.000Z', now);
		expect(cancelled).not.toContain('RECURRENCE-ID');
		expect(view(expandIndependently(cancelled))).toEqual([
			'2031-06-01T07:00:00.000Z 2031-06-01T07:00:00.000Z Daily',
			'2031-06-03T07:00:00.000Z 2031-06-03T07:00:00.000Z Daily',
		]);
	});

	it('"this and following" carries the override to the new series once', () => {
		const split = splitSeries(
			UTC_OVERRIDE,
			'2031-06-02T07:00:00.000Z',
			{ summary: 'Later' },
			'new',
			'UTC',
			now,
		);
		expect(
			view([...expandIndependently(split.original), ...expandIndependently(split.following)]),
		).toEqual([
			'2031-06-01T07:00:00.000Z 2031-06-01T07:00:00.000Z Daily',
			'2031-06-02T07:00:00.000Z 2031-06-02T08:00:00.000Z Later',
			'2031-06-03T07:00:00.000Z 2031-06-03T07:00:00.000Z Later',
		]);
		expect(expanded(split.following, '2031-05-31T00:00:00Z', '2031-06-10T00:00:00Z')).toHaveLength(
			2,
		);
	});
});

describe('a local time skipped by a DST change is shifted forward (RFC 5545 3.3.5)', () => {
	it('expands at 03:30 CEST (01:30Z) on the day of the change, as the independent expander does', () => {
		const own = expandCalendarData(
			DST_GAP,
			Date.parse('2031-03-27T00:00:00Z') / 1000,
			Date.parse('2031-04-05T00:00:00Z') / 1000,
		).map((item) => `${item.recurrenceId} ${item.start} ${item.end}`);
		expect(own).toEqual([
			'2031-03-28T01:30:00.000Z 2031-03-28T01:30:00.000Z 2031-03-28T02:00:00.000Z',
			'2031-03-29T01:30:00.000Z 2031-03-29T01:30:00.000Z 2031-03-29T02:00:00.000Z',
			'2031-03-30T01:30:00.000Z 2031-03-30T01:30:00.000Z 2031-03-30T02:00:00.000Z',
			'2031-03-31T00:30:00.000Z 2031-03-31T00:30:00.000Z 2031-03-31T01:00:00.000Z',
		]);
		expect(view(expandIndependently(DST_GAP)).map((line) => line.slice(0, 49))).toEqual(
			own.map((line) => line.slice(0, 49)),
		);
	});

	it('the occurrence Get Many shows on that day can be changed and cancelled', () => {
		const changed = updateOccurrence(
			DST_GAP,
			'2031-03-30T01:30:00.000Z',
			{ summary: 'Edited' },
			'UTC',
			now,
		);
		expect(changed).toContain('RECURRENCE-ID;TZID=Europe/Berlin:20310330T023000');
		const cancelled = cancelOccurrence(DST_GAP, '2031-03-30T01:30:00.000Z', now);
		expect(cancelled).toContain('EXDATE;TZID=Europe/Berlin:20310330T023000');
	});
});

describe('an override keeps the form of its series', () => {
	it('moving one occurrence of a floating series keeps it floating (no TZID of the workflow zone)', () => {
		const floating = calendar([
			'UID:float',
			'DTSTART:20311030T081500',
			'DTEND:20311030T091500',
			'RRULE:FREQ=DAILY;COUNT=4',
			'SUMMARY:Float',
		]);
		const moved = updateOccurrence(
			floating,
			'2031-10-31T08:15:00',
			{ start: '2031-10-31T09:15:00' },
			'Europe/Berlin',
			now,
		);
		expect(moved).toContain('\r\nDTSTART:20311031T091500\r\n');
		expect(moved).toContain('\r\nDTEND:20311031T101500\r\n');
		expect(moved).not.toContain('TZID');
		expect(view(expandIndependently(moved))).toContain(
			'2031-10-31T08:15:00 2031-10-31T09:15:00 Float',
		);
	});

	it("an all-day series' override stays a date unless All Day is switched off", () => {
		const days = calendar([
			'UID:days',
			'DTSTART;VALUE=DATE:20311030',
			'DTEND;VALUE=DATE:20311031',
			'RRULE:FREQ=DAILY;COUNT=4',
			'SUMMARY:Day',
		]);
		const moved = updateOccurrence(
			days,
			'2031-10-31',
			{ start: '2031-11-05T10:00:00' },
			'Europe/Berlin',
			now,
		);
		expect(moved).toContain('DTSTART;VALUE=DATE:20311105');
		const timed = updateOccurrence(
			days,
			'2031-10-31',
			{ start: '2031-11-05T10:00:00', allDay: false },
			'Europe/Berlin',
			now,
		);
		expect(timed).toContain('DTSTART;TZID=Europe/Berlin:20311105T100000');
	});
});

describe('"this and following" with nothing before the occurrence', () => {
	const daily = [
		'UID:first',
		'DTSTART:20310901T100000Z',
		'DTEND:20310901T110000Z',
		'RRULE:FREQ=DAILY;COUNT=4',
		'SUMMARY:Daily',
	];

	it('at the first occurrence it is the whole series', () => {
		expect(followingScope(calendar(daily), '2031-09-01T10:00:00.000Z')).toBe('series');
		expect(followingScope(calendar(daily), '2031-09-02T10:00:00.000Z')).toBe('split');
	});

	it('with DTSTART cancelled, at the first visible occurrence the object becomes the new part: same UID, no empty series', () => {
		const cancelledFirst = calendar(
			[...daily, 'EXDATE:20310901T100000Z', 'SEQUENCE:2', 'CREATED:20300101T000000Z'],
			[
				'UID:first',
				'RECURRENCE-ID:20310903T100000Z',
				'DTSTART:20310903T120000Z',
				'DTEND:20310903T130000Z',
				'SUMMARY:Moved',
			],
		);
		expect(followingScope(cancelledFirst, '2031-09-02T10:00:00.000Z')).toBe('replace');
		const replaced = replaceFromOccurrence(
			cancelledFirst,
			'2031-09-02T10:00:00.000Z',
			{ summary: 'After' },
			'UTC',
			now,
		);
		expect(replaced.match(/^UID:first\r$/gm)).toHaveLength(2);
		expect(replaced).toContain('SEQUENCE:3');
		expect(replaced).toContain('CREATED:20300101T000000Z');
		// COUNT=4 from 1 September, the first cancelled: three remain, none lost or doubled.
		expect(view(expandIndependently(replaced))).toEqual([
			'2031-09-02T10:00:00.000Z 2031-09-02T10:00:00.000Z After',
			'2031-09-03T10:00:00.000Z 2031-09-03T12:00:00.000Z Moved',
			'2031-09-04T10:00:00.000Z 2031-09-04T10:00:00.000Z After',
		]);
	});
});

describe('"same content" after a lost update answer compares each component by itself', () => {
	const attendee = (partstat: string) => `ATTENDEE;PARTSTAT=${partstat}:mailto:ana@example.com`;
	const object = (series: string, exception: string) =>
		calendar(
			[
				'UID:p',
				'DTSTART:20310901T100000Z',
				'RRULE:FREQ=DAILY;COUNT=3',
				'SUMMARY:S',
				attendee(series),
			],
			[
				'UID:p',
				'RECURRENCE-ID:20310902T100000Z',
				'DTSTART:20310902T100000Z',
				'SUMMARY:S',
				attendee(exception),
			],
		);

	it('a PARTSTAT swapped between the series and its exception is another state', () => {
		expect(sameContent(object('DECLINED', 'ACCEPTED'), object('ACCEPTED', 'DECLINED'))).toBe(false);
	});

	it('the same components in another order, refolded, with server stamps, are the same', () => {
		const sent = object('ACCEPTED', 'DECLINED');
		const [head, series, exception] = sent.split(/(?=BEGIN:VEVENT)/);
		const stored = (
			head +
			exception.replace('END:VCALENDAR\r\n', '') +
			series +
			'END:VCALENDAR\r\n'
		)
			.replace('DTSTAMP:20300101T000000Z', 'DTSTAMP:20310101T000000Z')
			.replace(/\r\n/g, '\n');
		expect(sameContent(stored, sent)).toBe(true);
	});
});
