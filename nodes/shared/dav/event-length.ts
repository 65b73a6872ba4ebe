import ICAL from 'ical.js';

import { instantSeconds, utcTimeAt, wallTimeAt } from './instants';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;
type Duration = InstanceType<typeof ICAL.Duration>;

const DAY_SECONDS = 86_400;

/**
 * How long an event (or each instance of a series) lasts, as RFC 5545 reads it. DTEND gives every instance
 * the exact time between DTSTART and DTEND (3.8.5.3); DURATION's weeks and days are nominal, the same
 * wall-clock time days later, and its hours, minutes and seconds exact (3.3.6). ical.js adds both to the
 * wall clock, which is wrong for a length that crosses a DST change or a start a DST gap moved.
 */
export interface EventLength {
	days: number;
	seconds: number;
}

/** The event's length: DTEND minus DTSTART (exact; days for all-day), DURATION, or RFC 5545's default. */
export function lengthOf(vevent: Component): EventLength {
	const start = vevent.getFirstPropertyValue('dtstart') as Time | null;
	const end = vevent.getFirstPropertyValue('dtend') as Time | null;
	const duration = vevent.getFirstPropertyValue('duration') as Duration | null;
	if (start && end) {
		const seconds = instantSeconds(end) - instantSeconds(start);
		return start.isDate
			? { days: Math.round(seconds / DAY_SECONDS), seconds: 0 }
			: { days: 0, seconds };
	}
	if (duration) {
		const sign = duration.isNegative ? -1 : 1;
		return {
			days: sign * (duration.weeks * 7 + duration.days),
			seconds: sign * (duration.hours * 3600 + duration.minutes * 60 + duration.seconds),
		};
	}
	// RFC 5545 3.6.1: an all-day event without either lasts the day, a timed one has no length.
	return { days: start?.isDate ? 1 : 0, seconds: 0 };
}

function hasZone(time: Time): boolean {
	const tzid = time.zone?.tzid;
	return !!tzid && tzid !== 'floating' && tzid !== 'UTC';
}

/**
 * Where an instance starting at `start` ends: a date for all-day events, a wall-clock time for floating
 * ones (no DST to cross), else a UTC time: the nominal days on the start's actual wall clock in its zone
 * (a time a gap skips on arrival takes the offset before the gap, RFC 5545 3.3.5), then the exact part.
 */
export function endAfter(start: Time, length: EventLength): Time {
	if (start.isDate || !hasZone(start)) {
		const end = start.clone();
		end.adjust(length.days, 0, 0, start.isDate ? 0 : length.seconds);
		return end;
	}
	let instant = instantSeconds(start);
	if (length.days !== 0) {
		const wall = wallTimeAt(start.zone!, instant);
		wall.adjust(length.days, 0, 0, 0);
		instant = instantSeconds(wall);
	}
	return utcTimeAt(instant + length.seconds);
}

/** Where an event ends: its DTEND as written, else its start plus its DURATION (or the default length). */
export function endOf(vevent: Component): Time | undefined {
	const start = vevent.getFirstPropertyValue('dtstart') as Time | null;
	if (!start) return undefined;
	if (vevent.hasProperty('dtend')) return vevent.getFirstPropertyValue('dtend') as Time;
	return endAfter(start, lengthOf(vevent));
}

/**
 * A UTC end written as the wall clock of the start's zone, for a DTEND beside a zoned DTSTART; it stays in
 * UTC when that wall clock would name another instant (the second pass of a repeated hour).
 */
export function inZoneOf(end: Time, start: Time): Time {
	if (end.isDate || !hasZone(start) || end.zone?.tzid !== 'UTC') return end;
	const instant = instantSeconds(end);
	const wall = wallTimeAt(start.zone!, instant);
	return instantSeconds(wall) === instant ? wall : end;
}
