import ICAL from 'ical.js';

type Time = InstanceType<typeof ICAL.Time>;
type Timezone = InstanceType<typeof ICAL.Timezone>;

function wallSeconds(time: Time): number {
	return Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second) / 1000;
}

interface ZoneChange {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	utcOffset: number;
	prevUtcOffset: number;
}

/** When a change happens, in epoch seconds (ical.js keeps its fields in UTC). */
function changeSeconds(change: ZoneChange): number {
	return (
		Date.UTC(change.year, change.month - 1, change.day, change.hour, change.minute, change.second) /
		1000
	);
}

/**
 * The instant (epoch seconds) of an iCalendar time. ical.js gives a local time that does not exist (the
 * hour a DST change skips) the offset after the change; RFC 5545 3.3.5 wants the offset before it, i.e. the
 * time shifted forward (Europe/Berlin 02:30 on the spring day is 03:30 CEST, 01:30Z); a repeated local time is
 * its first instant (ical.js picks the second in some zones, e.g. America/New_York). Floating times and
 * dates count as UTC, as ical.js counts them, whatever zone the process runs in.
 */
export function instantSeconds(time: Time): number {
	const seconds = time.toUnixTime();
	if (time.isDate || !time.zone) return seconds;
	const wall = wallSeconds(time);
	// ical.js' own table of the zone's changes (UTC instants), filled for the time's year by toUnixTime.
	const changes = (time.zone as unknown as { changes?: ZoneChange[] }).changes ?? [];
	for (const change of changes) {
		if (change.utcOffset === change.prevUtcOffset || Math.abs(change.year - time.year) > 1)
			continue;
		const at = changeSeconds(change);
		const low = at + Math.min(change.prevUtcOffset, change.utcOffset);
		const high = at + Math.max(change.prevUtcOffset, change.utcOffset);
		// In the gap or the repeated hour: the offset before the change (the first of the two instants).
		if (wall >= low && wall < high) return wall - change.prevUtcOffset;
	}
	return seconds;
}

/** Orders two times by their instants (a gap time as RFC 5545 reads it). */
export function compareInstants(a: Time, b: Time): number {
	return Math.sign(instantSeconds(a) - instantSeconds(b));
}

/**
 * A zone's UTC offset (seconds) at an instant, from the zone's own definition (the object's VTIMEZONE or
 * the registered one). Not ical.js' convertToZone: it looks the offset up at the UTC wall clock as if it
 * were local, so it is an hour off for up to an hour after a change.
 */
function offsetAt(zone: Timezone, seconds: number): number {
	if (zone === ICAL.Timezone.utcTimezone || zone === ICAL.Timezone.localTimezone || !zone.component)
		return 0;
	const year = new Date(seconds * 1000).getUTCFullYear();
	// Fills ical.js' table of the zone's changes through the year after the instant's.
	zone.utcOffset(ICAL.Time.fromData({ year: year + 1, month: 1, day: 1, isDate: true }));
	const changes = zone.changes as ZoneChange[];
	let offset = changes[0]?.prevUtcOffset ?? 0;
	for (const change of changes) {
		if (changeSeconds(change) > seconds) break;
		offset = change.utcOffset;
	}
	return offset;
}

/** The wall clock of an instant (epoch seconds) in a zone, as a time in that zone. */
export function wallTimeAt(zone: Timezone, seconds: number): Time {
	const wall = new Date((seconds + offsetAt(zone, seconds)) * 1000);
	return ICAL.Time.fromData(
		{
			year: wall.getUTCFullYear(),
			month: wall.getUTCMonth() + 1,
			day: wall.getUTCDate(),
			hour: wall.getUTCHours(),
			minute: wall.getUTCMinutes(),
			second: wall.getUTCSeconds(),
			isDate: false,
		},
		zone,
	);
}

/** A UTC time at an instant (epoch seconds). */
export function utcTimeAt(seconds: number): Time {
	const time = ICAL.Time.fromData(
		{ year: 1970, month: 1, day: 1, hour: 0, isDate: false },
		ICAL.Timezone.utcTimezone,
	);
	time.fromUnixTime(seconds);
	return time;
}
