import ICAL from 'ical.js';

type Time = InstanceType<typeof ICAL.Time>;

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
		const at =
			Date.UTC(
				change.year,
				change.month - 1,
				change.day,
				change.hour,
				change.minute,
				change.second,
			) / 1000;
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
