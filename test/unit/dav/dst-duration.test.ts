// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Events near DST changes (Europe/Berlin, America/New_York): a start in a gap or a repeated hour, DURATION
 * and DTEND lengths across spring-forward and fall-back, P1D against PT24H, series whose instances cross a
 * change, EXDATE and RECURRENCE-ID in a gap. The reference is dst-reference.json, computed by
 * dst-reference.py with Python's zoneinfo and dateutil: nothing shared with the pack or ical.js.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nock from 'nock';

import { describeCalendarData, expandCalendarData } from '../../../nodes/shared/dav/event-view';
import { patchEventData } from '../../../nodes/shared/dav/icalendar';
import {
	cancelOccurrence,
	splitSeries,
	updateOccurrence,
} from '../../../nodes/shared/dav/recurrence';
import {
	answeredByNock,
	byUrl,
	DAV,
	etagProp,
	found,
	multistatus,
	poll,
	xmlText,
} from './poll-context';

interface ReferenceCase {
	name: string;
	ics: string;
	/** "recurrenceId start end" in UTC ("-" for an event without recurrence), earliest start first. */
	occurrences: string[];
}

const CASES = JSON.parse(
	readFileSync(path.join(__dirname, 'dst-reference.json'), 'utf8'),
) as ReferenceCase[];

const NOW = new Date('2027-01-15T00:00:00Z');
const FROM = Date.parse('2027-01-01T00:00:00Z') / 1000;
const TO = Date.parse('2028-01-01T00:00:00Z') / 1000;

const expanded = (text: string, from = FROM, to = TO) =>
	expandCalendarData(text, from, to).map(
		(item) => `${item.recurrenceId ?? '-'} ${item.start} ${item.end}`,
	);
const seconds = (iso: string) => Date.parse(iso) / 1000;
const fields = (line: string) => line.split(' ') as [string, string, string];
const lengthOf = (line: string) => seconds(fields(line)[2]) - seconds(fields(line)[1]);

/**
 * The occurrences worth editing one by one: all of a short series; of a long one the first, the last and
 * those a DST change makes longer or shorter than the others (a long weekly series has 35).
 */
function targets(occurrences: string[]): string[] {
	if (occurrences.length <= 6) return occurrences;
	const usual = lengthOf(occurrences[1]);
	return occurrences.filter(
		(line, index) => index === 0 || index === occurrences.length - 1 || lengthOf(line) !== usual,
	);
}

describe.each(CASES)('$name', ({ ics, occurrences }) => {
	const recurring = occurrences[0].startsWith('-') === false;

	it('Get Many gives the reference starts and ends', () => {
		expect(expanded(ics)).toEqual(occurrences);
	});

	it('a time range holds an occurrence until its end, not after', () => {
		for (const line of targets(occurrences)) {
			const [, start, end] = fields(line);
			const holds = (from: number, to: number) =>
				expandCalendarData(ics, from, to).some((item) => item.start === start);
			expect([line, holds(seconds(end) - 60, seconds(end) + 3600)]).toEqual([line, true]);
			expect([line, holds(seconds(end), seconds(end) + 3600)]).toEqual([line, false]);
		}
	});

	if (!recurring) {
		it('Get shows the reference start and end', () => {
			const [, start, end] = fields(occurrences[0]);
			expect(describeCalendarData(ics)).toMatchObject({ start, end });
		});
		return;
	}

	it('changing one occurrence keeps every start and end', () => {
		for (const line of targets(occurrences)) {
			const [recurrenceId] = fields(line);
			const changed = updateOccurrence(ics, recurrenceId, { summary: 'Edited' }, 'UTC', NOW);
			expect([recurrenceId, expanded(changed)]).toEqual([recurrenceId, occurrences]);
		}
	});

	it('cancelling one occurrence removes exactly that one', () => {
		for (const line of targets(occurrences)) {
			const [recurrenceId] = fields(line);
			const cancelled = cancelOccurrence(ics, recurrenceId, NOW);
			expect([recurrenceId, expanded(cancelled)]).toEqual([
				recurrenceId,
				occurrences.filter((other) => other !== line),
			]);
		}
	});

	it('"this and following" at the second occurrence keeps every start and end', () => {
		const [recurrenceId] = fields(occurrences[1]);
		const split = splitSeries(ics, recurrenceId, { summary: 'Later' }, 'new', 'UTC', NOW);
		const both = [...expanded(split.original), ...expanded(split.following)];
		expect(both.sort()).toEqual([...occurrences].sort());
	});
});

describe('moving an event keeps its exact length (RFC 5545 3.8.5.3), as the reference reads it', () => {
	it.each([
		['Europe/Berlin', 'across spring-forward, PT8H', '20270328T070000'],
		['America/New_York', 'across fall-back, PT8H', '20271107T050000'],
	])('%s: a night of 8 hours moved onto the night %s', (zone, name, wallEnd) => {
		const reference = CASES.find(
			(item) => item.name === `${zone} ${name} (its VTIMEZONE in the object)`,
		)!;
		const [, start, end] = fields(reference.occurrences[0]);
		const local = /DTSTART;TZID=[^:]+:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})/.exec(
			reference.ics,
		)!;
		// The same night of 8 hours on 1 March, far from any change, then moved onto the reference's night.
		const night = reference.ics
			.replace(/DTSTART;TZID=[^\r]+/, `DTSTART;TZID=${zone}:20270301T220000`)
			.replace('DURATION:PT8H', `DTEND;TZID=${zone}:20270302T060000`);
		const iso = `${local[1]}-${local[2]}-${local[3]}T${local[4]}:${local[5]}:${local[6]}`;
		const moved = patchEventData(night, { start: iso }, zone, NOW);
		expect(describeCalendarData(moved)).toMatchObject({ start, end });
		expect(moved).toContain(`DTEND;TZID=${zone}:${wallEnd}`);
	});
});

describe('Event Starts Soon near a DST gap', () => {
	answeredByNock();

	it.each(CASES.filter((item) => /in the gap, (UTC|local) form/.test(item.name)))(
		'$name: the occurrences the reference has, at their start',
		async ({ ics, occurrences }) => {
			const path = '/cal/dst/';
			const body = multistatus(
				found(
					`${path}dst.ics`,
					`${etagProp('"1"')}<C:calendar-data>${xmlText(ics)}</C:calendar-data>`,
				),
			);
			const [, first] = fields(occurrences[0]);
			jest.spyOn(Date, 'now').mockReturnValue(Date.parse(first) - 60_000);
			nock(DAV).intercept(path, 'REPORT').times(3).reply(207, body);
			const minutes = 4 * 24 * 60;
			const run = await poll(
				'calendar',
				{ calendar: byUrl(path), trigger: 'startsWithin', minutes },
				{},
				'manual',
			);
			expect(run.items.map((item) => `${item.recurrenceId} ${item.start} ${item.end}`)).toEqual(
				occurrences,
			);
		},
	);
});
