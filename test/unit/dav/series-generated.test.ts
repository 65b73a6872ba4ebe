// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Generated series (seeded, so every run sees the same ones) checked against an expander that is not the
 * pack's own (independent-expander.ts: the rrule package, its own parser, Intl for zones). For every
 * occurrence of every series: cancel it, change it alone, and split there ("this and following"); the set
 * of occurrences afterwards must differ from the set before by exactly the intended change. The pack's own
 * expansion (Get Many) must agree with the independent one as well. npm test runs this file also with
 * TZ=America/New_York and TZ=Pacific/Auckland.
 */
import { expandCalendarData } from '../../../nodes/shared/dav/event-view';
import type { EventFields } from '../../../nodes/shared/dav/icalendar';
import {
	cancelOccurrence,
	followingScope,
	replaceFromOccurrence,
	splitSeries,
	updateOccurrence,
} from '../../../nodes/shared/dav/recurrence';
import { expandIndependently, instantOf, wallOf, type Occurrence } from './independent-expander';

const NOW = new Date('2030-01-15T00:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** mulberry32: a small seeded generator, so a failure names a case that can be run again. */
function generator(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
	return {
		int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
		pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
		chance: (p: number) => next() < p,
	};
}

const VTIMEZONES: Record<string, string[]> = {
	'America/New_York': [
		'BEGIN:VTIMEZONE',
		'TZID:America/New_York',
		'BEGIN:DAYLIGHT',
		'TZOFFSETFROM:-0500',
		'TZOFFSETTO:-0400',
		'TZNAME:EDT',
		'DTSTART:20070311T020000',
		'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
		'END:DAYLIGHT',
		'BEGIN:STANDARD',
		'TZOFFSETFROM:-0400',
		'TZOFFSETTO:-0500',
		'TZNAME:EST',
		'DTSTART:20071104T020000',
		'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
		'END:STANDARD',
		'END:VTIMEZONE',
	],
	'Europe/Berlin': [
		'BEGIN:VTIMEZONE',
		'TZID:Europe/Berlin',
		'BEGIN:DAYLIGHT',
		'TZOFFSETFROM:+0100',
		'TZOFFSETTO:+0200',
		'TZNAME:CEST',
		'DTSTART:19810329T020000',
		'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
		'END:DAYLIGHT',
		'BEGIN:STANDARD',
		'TZOFFSETFROM:+0200',
		'TZOFFSETTO:+0100',
		'TZNAME:CET',
		'DTSTART:19961027T030000',
		'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
		'END:STANDARD',
		'END:VTIMEZONE',
	],
};

/** Days just before a DST change, so that daily and weekly series cross it. */
const NEAR_DST: Record<string, string[]> = {
	'America/New_York': ['2030-03-06', '2030-03-08', '2030-10-29', '2030-11-01'],
	'Europe/Berlin': ['2030-03-26', '2030-03-29', '2030-10-22', '2030-10-25'],
};

type Kind = 'utc' | 'zoned' | 'floating' | 'date';

interface Case {
	name: string;
	text: string;
	kind: Kind;
	zone?: string;
	/** DTSTART as the expander keys it (whether it is cancelled or not). */
	firstKey: string;
}

const compact = (wall: number) => new Date(wall).toISOString().slice(0, 19).replace(/[-:]/g, '');

/** How a wall-clock time (UTC-packed) is written in a series of this kind. */
function writer(kind: Kind, zone?: string) {
	return {
		params: kind === 'zoned' ? `;TZID=${zone}` : kind === 'date' ? ';VALUE=DATE' : '',
		value: (wall: number) =>
			kind === 'date' ? compact(wall).slice(0, 8) : compact(wall) + (kind === 'utc' ? 'Z' : ''),
	};
}

/** Wall clock (UTC-packed) of an occurrence key as the expander gives it. */
function wallOfKey(key: string, kind: Kind, zone?: string): number {
	if (kind === 'date') return Date.parse(`${key}T00:00:00Z`);
	if (kind === 'floating') return Date.parse(`${key}Z`);
	return kind === 'zoned' ? wallOf(zone!, Date.parse(key)) : Date.parse(key);
}

/** The wall clock the rule gave an occurrence: for one a DST change skipped, an hour before its instant's. */
function nominalWall(key: string, kind: Kind, zone?: string): number {
	const wall = wallOfKey(key, kind, zone);
	return kind === 'zoned' && keyOfWall(wall - HOUR, kind, zone) === key ? wall - HOUR : wall;
}

function keyOfWall(wall: number, kind: Kind, zone?: string): string {
	const iso = new Date(wall).toISOString();
	if (kind === 'date') return iso.slice(0, 10);
	if (kind === 'floating') return iso.slice(0, 19);
	return new Date(kind === 'zoned' ? instantOf(zone!, wall) : wall).toISOString();
}

function wrap(...events: string[][]): string {
	return (
		[
			'BEGIN:VCALENDAR',
			'VERSION:2.0',
			'PRODID:-//Generated//EN',
			...events.flat(),
			'END:VCALENDAR',
		].join('\r\n') + '\r\n'
	);
}

function generate(seed: number): Case {
	const random = generator(seed);
	// Draws for the forms other clients write (issue #37), apart so the earlier cases stay as they were.
	const other = generator(seed * 31 + 7);
	const kind = random.pick<Kind>(['utc', 'zoned', 'zoned', 'floating', 'date']);
	const zone = kind === 'zoned' ? random.pick(Object.keys(VTIMEZONES)) : undefined;
	const day = zone
		? random.pick(NEAR_DST[zone])
		: `2030-0${random.int(1, 9)}-${random.int(10, 28)}`;
	const picked =
		kind === 'date'
			? 'T00:00:00Z'
			: random.pick(['T09:00:00Z', 'T10:30:00Z', 'T18:15:00Z', 'T23:30:00Z']);
	// 02:30 local does not exist on the spring day and occurs twice on the autumn day.
	const time = zone && other.chance(0.3) ? 'T02:30:00Z' : picked;
	const startWall = Date.parse(day + time);
	const freq = random.pick(['DAILY', 'WEEKLY', 'MONTHLY']);
	const interval = freq === 'MONTHLY' ? 1 : random.int(1, 2);
	const count = random.int(4, 7);
	const write = writer(kind, zone);
	const master = [
		'BEGIN:VEVENT',
		`UID:series-${seed}`,
		'DTSTAMP:20300101T000000Z',
		`DTSTART${write.params}:${write.value(startWall)}`,
		kind === 'date'
			? `DTEND;VALUE=DATE:${write.value(startWall + DAY)}`
			: `DTEND${write.params}:${write.value(startWall + HOUR)}`,
		`RRULE:FREQ=${freq}${interval > 1 ? `;INTERVAL=${interval}` : ''};COUNT=${count}`,
		'SUMMARY:Series',
	];
	// The rule's own instances, from the independent expander, to place exceptions on.
	const plain = expandIndependently(wrap([...master, 'END:VEVENT']));
	const walls = plain.map((occurrence) => wallOfKey(occurrence.recurrenceId, kind, zone));
	if (random.chance(0.4)) {
		// UNTIL instead of COUNT, in the form RFC 5545 wants for this DTSTART, inclusive of the last one.
		const last = walls[walls.length - 1];
		const until =
			kind === 'zoned'
				? compact(instantOf(zone!, last)) + 'Z'
				: write.value(last + (kind === 'date' ? 0 : random.int(0, 1) * 60_000));
		master[5] = master[5].replace(/COUNT=\d+/, `UNTIL=${until}`);
	}
	const later = walls.slice(1);
	const excluded = later.filter(() => random.chance(0.25));
	// DTSTART itself cancelled: the first visible occurrence is a later one.
	if (other.chance(0.15)) excluded.unshift(walls[0]);
	if (excluded.length > 0) {
		if (random.chance(0.5))
			master.push(`EXDATE${write.params}:${excluded.map(write.value).join(',')}`);
		else
			for (const wall of excluded)
				master.push(
					// A zoned series may list EXDATEs in UTC (RFC 5545 3.8.5.1); the instant must match.
					kind === 'zoned' && random.chance(0.5)
						? `EXDATE:${compact(instantOf(zone!, wall))}Z`
						: `EXDATE${write.params}:${write.value(wall)}`,
				);
	}
	if (random.chance(0.4)) {
		const extra =
			walls[walls.length - 1] + random.int(3, 40) * DAY + (kind === 'date' ? 0 : 3 * HOUR);
		master.push(`RDATE${write.params}:${write.value(extra)}`);
	}
	master.push('END:VEVENT');
	const overrides = later
		.filter((wall) => !excluded.includes(wall) && random.chance(0.3))
		.map((wall, index) => {
			const moved = random.chance(0.5) ? wall + (kind === 'date' ? DAY : 2 * HOUR) : wall;
			return [
				'BEGIN:VEVENT',
				`UID:series-${seed}`,
				'DTSTAMP:20300101T000000Z',
				// Several clients name an override of a zoned series in UTC; it is the same occurrence.
				kind === 'zoned' && other.chance(0.5)
					? `RECURRENCE-ID:${compact(instantOf(zone!, wall))}Z`
					: `RECURRENCE-ID${write.params}:${write.value(wall)}`,
				`DTSTART${write.params}:${write.value(moved)}`,
				kind === 'date'
					? `DTEND;VALUE=DATE:${write.value(moved + DAY)}`
					: `DTEND${write.params}:${write.value(moved + HOUR)}`,
				`SUMMARY:${random.chance(0.5) ? 'Series' : `Override ${index}`}`,
				'END:VEVENT',
			];
		});
	const text = wrap(...(zone ? [VTIMEZONES[zone]] : []), master, ...overrides);
	return {
		name: `seed ${seed}: ${kind}${zone ? ` ${zone}` : ''} ${freq}${time === 'T02:30:00Z' ? ' 02:30' : ''}`,
		text,
		kind,
		zone,
		firstKey: keyOfWall(walls[0], kind, zone),
	};
}

const line = (occurrence: Occurrence) =>
	`${occurrence.recurrenceId} ${occurrence.start} ${occurrence.summary}`;
const sorted = (occurrences: Occurrence[]) =>
	[...occurrences].sort((a, b) => a.recurrenceId.localeCompare(b.recurrenceId));

const CASES = Array.from({ length: 60 }, (_, index) => generate(1000 + index));

describe.each(CASES)('$name', ({ text, kind, zone, firstKey }) => {
	const before = sorted(expandIndependently(text));
	const rdateOnly = new Set(
		before
			.map((occurrence) => occurrence.recurrenceId)
			.filter(
				(id) =>
					!expandIndependently(text.replace(/^RDATE.*\r\n/m, '')).some(
						(occurrence) => occurrence.recurrenceId === id,
					),
			),
	);

	it('Get Many expands it as the independent expander does', () => {
		const own = expandCalendarData(
			text,
			Date.parse('2029-01-01T00:00:00Z') / 1000,
			Date.parse('2032-01-01T00:00:00Z') / 1000,
		);
		expect(own.map((view) => `${view.recurrenceId} ${view.start} ${view.summary}`).sort()).toEqual(
			before.map(line).sort(),
		);
	});

	it('cancelling one occurrence removes exactly that one', () => {
		for (const target of before) {
			const after = sorted(expandIndependently(cancelOccurrence(text, target.recurrenceId, NOW)));
			expect(after.map(line)).toEqual(before.filter((item) => item !== target).map(line));
		}
	});

	it('changing one occurrence changes exactly that one', () => {
		for (const target of before) {
			const after = sorted(
				expandIndependently(
					updateOccurrence(text, target.recurrenceId, { summary: 'Edited' }, 'UTC', NOW),
				),
			);
			expect(after.map(line)).toEqual(
				before.map((item) => line(item === target ? { ...item, summary: 'Edited' } : item)),
			);
		}
	});

	it('"this and following" at every occurrence: the earlier ones stay, the later ones change, none is lost or doubled', () => {
		for (const [index, target] of before.entries()) {
			const expected = before.map((item) => {
				if (compareKeys(item.recurrenceId, target.recurrenceId) < 0) return line(item);
				const keepsOwnText = item.summary !== 'Series' && item.recurrenceId !== target.recurrenceId;
				return line({ ...item, summary: keepsOwnText ? item.summary : 'After' });
			});
			if (index === 0) {
				// Nothing before it: the whole series at DTSTART, else (DTSTART cancelled) the object replaced.
				const scope = followingScope(text, target.recurrenceId);
				expect(scope).toBe(target.recurrenceId === firstKey ? 'series' : 'replace');
				if (scope === 'replace') {
					const replaced = replaceFromOccurrence(
						text,
						target.recurrenceId,
						{ summary: 'After' },
						'UTC',
						NOW,
					);
					expect(sorted(expandIndependently(replaced)).map(line)).toEqual(expected);
				}
				continue;
			}
			expect(followingScope(text, target.recurrenceId)).toBe('split');
			if (rdateOnly.has(target.recurrenceId)) {
				expect(() =>
					splitSeries(text, target.recurrenceId, { summary: 'After' }, 'new', 'UTC', NOW),
				).toThrow('added to the series by an RDATE');
				continue;
			}
			const split = splitSeries(text, target.recurrenceId, { summary: 'After' }, 'new', 'UTC', NOW);
			const old = expandIndependently(split.original);
			const following = expandIndependently(split.following);
			expect(
				old
					.map((item) => item.uid)
					.every((uid) => uid === `series-${text.match(/UID:series-(\d+)/)![1]}`),
			).toBe(true);
			expect(following.every((item) => item.uid === 'new')).toBe(true);
			expect(sorted([...old, ...following]).map(line)).toEqual(expected);
			expect(
				old
					.map((item) => item.recurrenceId)
					.every((id) => compareKeys(id, target.recurrenceId) < 0),
			).toBe(true);
		}
	});

	if (kind === 'utc' || kind === 'zoned') {
		it('"this and following" one hour later: the later occurrences, their exceptions and overrides move with the series', () => {
			for (const [index, target] of before.entries()) {
				if (index === 0 || rdateOnly.has(target.recurrenceId)) continue;
				const targetWall = nominalWall(target.recurrenceId, kind, zone);
				const fields: EventFields = {
					start:
						kind === 'utc'
							? new Date(targetWall + HOUR).toISOString()
							: new Date(targetWall + HOUR).toISOString().slice(0, 19),
				};
				const split = splitSeries(text, target.recurrenceId, fields, 'new', 'UTC', NOW);
				const after = sorted([
					...expandIndependently(split.original),
					...expandIndependently(split.following),
				]);
				const shifted = (key: string) => keyOfWall(nominalWall(key, kind, zone) + HOUR, kind, zone);
				const expected = sorted(
					before.map((item) => {
						if (compareKeys(item.recurrenceId, target.recurrenceId) < 0) return item;
						// A later override that was moved keeps its own start; the chosen one takes the new start.
						const moved = item.start !== item.recurrenceId && item !== target;
						return {
							...item,
							recurrenceId: shifted(item.recurrenceId),
							start: moved ? item.start : shifted(item.recurrenceId),
						};
					}),
				);
				expect(after.map(line)).toEqual(expected.map(line));
			}
		});
	}
});

function compareKeys(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
