/**
 * A recurrence expander for tests that shares no code with the pack: its own line parser, the `rrule`
 * package for RRULE and the runtime's time-zone database (Intl) for TZID, RFC 5545 sections 3.8.5.1-3 and
 * 3.8.4.4 for EXDATE, RDATE and RECURRENCE-ID. It knows the subset the series tests generate: DTSTART as a
 * DATE, a floating or UTC date-time, or a date-time with an IANA TZID; DATE/DATE-TIME EXDATE and RDATE.
 */
import { RRule } from 'rrule';

interface Property {
	name: string;
	params: Record<string, string>;
	value: string;
}

interface Vevent {
	props: Property[];
}

/** Unfolds the text and returns the VEVENTs with their properties (alarms and time zones skipped). */
function vevents(text: string): Vevent[] {
	const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
	const events: Vevent[] = [];
	const stack: string[] = [];
	let current: Vevent | undefined;
	for (const line of lines) {
		if (!line) continue;
		const [, head, value] = /^([^:]*):(.*)$/.exec(line) ?? [];
		if (head === undefined) throw new Error(`unparsable line ${line}`);
		if (head === 'BEGIN') {
			stack.push(value);
			if (value === 'VEVENT') events.push((current = { props: [] }));
			continue;
		}
		if (head === 'END') {
			stack.pop();
			if (value === 'VEVENT') current = undefined;
			continue;
		}
		if (!current || stack[stack.length - 1] !== 'VEVENT') continue;
		const [name, ...params] = head.split(';');
		current.props.push({
			name: name.toUpperCase(),
			params: Object.fromEntries(
				params.map((param) => {
					const [key, raw] = param.split('=');
					return [key.toUpperCase(), raw.replace(/^"|"$/g, '')];
				}),
			),
			value,
		});
	}
	return events;
}

/** The kind of an iCalendar time value, and its wall-clock fields. */
interface Stamp {
	kind: 'date' | 'floating' | 'utc' | 'zoned';
	/** Wall-clock fields packed as a UTC epoch (the rrule convention). */
	wall: number;
	zone?: string;
}

function parseStamp(value: string, params: Record<string, string>): Stamp {
	const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value);
	if (!match) throw new Error(`unsupported time ${value}`);
	const wall = Date.UTC(
		+match[1],
		+match[2] - 1,
		+match[3],
		+(match[4] ?? 0),
		+(match[5] ?? 0),
		+(match[6] ?? 0),
	);
	if (match[4] === undefined) return { kind: 'date', wall };
	if (match[7]) return { kind: 'utc', wall };
	if (params.TZID) return { kind: 'zoned', wall, zone: params.TZID };
	return { kind: 'floating', wall };
}

/** The zone's offset (ms) at an instant, from Intl. */
function offsetAt(zone: string, epoch: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(epoch));
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	return (
		Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) -
		epoch
	);
}

/**
 * Wall clock in a zone → instant, RFC 5545 3.3.5: a time in a gap takes the offset before the gap (it is
 * shifted forward); a time that occurs twice is the first of the two.
 */
export function instantOf(zone: string, wall: number): number {
	const day = 86_400_000;
	const candidates = [
		...new Set([wall - offsetAt(zone, wall - day), wall - offsetAt(zone, wall + day)]),
	];
	const real = candidates.filter((instant) => offsetAt(zone, instant) === wall - instant);
	return real.length > 0 ? Math.min(...real) : wall - offsetAt(zone, wall - day);
}

export function wallOf(zone: string, epoch: number): number {
	return epoch + offsetAt(zone, epoch);
}

/** A time as Get Many shows it: a date, a floating wall-clock time, or an instant in UTC. */
export function keyOf(stamp: Stamp): string {
	const iso = new Date(stamp.wall).toISOString();
	if (stamp.kind === 'date') return iso.slice(0, 10);
	if (stamp.kind === 'floating') return iso.slice(0, 19);
	const instant = stamp.kind === 'zoned' ? instantOf(stamp.zone!, stamp.wall) : stamp.wall;
	return new Date(instant).toISOString();
}

export interface Occurrence {
	uid: string;
	/** The original start (what Get Many returns as recurrenceId). */
	recurrenceId: string;
	start: string;
	summary: string;
}

function first(event: Vevent, name: string): Property | undefined {
	return event.props.find((prop) => prop.name === name);
}

function values(event: Vevent, name: string): Stamp[] {
	return event.props
		.filter((prop) => prop.name === name)
		.flatMap((prop) => prop.value.split(',').map((value) => parseStamp(value, prop.params)));
}

const LIMIT = 2000;

/** Every occurrence of every series in the object (RRULE, RDATE, EXDATE and overrides applied). */
export function expandIndependently(text: string): Occurrence[] {
	const events = vevents(text);
	const result: Occurrence[] = [];
	const uids = [...new Set(events.map((event) => first(event, 'UID')!.value))];
	for (const uid of uids) {
		const group = events.filter((event) => first(event, 'UID')!.value === uid);
		const master = group.find((event) => !first(event, 'RECURRENCE-ID'));
		const overrides = new Map(
			group
				.filter((event) => event !== master)
				.map((event) => {
					const id = first(event, 'RECURRENCE-ID')!;
					return [keyOf(parseStamp(id.value, id.params)), event] as const;
				}),
		);
		if (!master) throw new Error('overrides without a series');
		const dtstartProp = first(master, 'DTSTART')!;
		const start = parseStamp(dtstartProp.value, dtstartProp.params);
		const summary = first(master, 'SUMMARY')?.value ?? '';
		const walls = new Set<number>([start.wall]);
		const rrule = first(master, 'RRULE');
		if (rrule) {
			const options = RRule.parseString(rrule.value);
			let until: Date | undefined;
			const untilText = /UNTIL=([0-9TZ]+)/.exec(rrule.value)?.[1];
			if (untilText) {
				const stamp = parseStamp(untilText, {});
				// RFC 5545 3.3.10: UNTIL is UTC when DTSTART has a zone; compare in the series' wall clock.
				const wall =
					start.kind === 'zoned' && stamp.kind === 'utc'
						? wallOf(start.zone!, stamp.wall)
						: stamp.kind === 'date'
							? stamp.wall + 86_400_000 - 1
							: stamp.wall;
				until = new Date(wall);
			}
			const rule = new RRule({ ...options, dtstart: new Date(start.wall), until, tzid: null });
			for (const date of rule.all((_, index) => index < LIMIT)) walls.add(date.getTime());
		}
		for (const rdate of values(master, 'RDATE')) walls.add(rdate.wall);
		const excluded = new Set(values(master, 'EXDATE').map(keyOf));
		for (const wall of [...walls].sort((a, b) => a - b)) {
			const stamp: Stamp = { ...start, wall };
			const key = keyOf(stamp);
			if (excluded.has(key)) continue;
			const override = overrides.get(key);
			if (!override) {
				result.push({ uid, recurrenceId: key, start: key, summary });
				continue;
			}
			const moved = first(override, 'DTSTART')!;
			result.push({
				uid,
				recurrenceId: key,
				start: keyOf(parseStamp(moved.value, moved.params)),
				summary: first(override, 'SUMMARY')?.value ?? '',
			});
		}
	}
	return result;
}
