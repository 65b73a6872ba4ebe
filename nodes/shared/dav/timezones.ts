import ICAL from 'ical.js';

type Component = InstanceType<typeof ICAL.Component>;

/** Whether the runtime's time-zone database (ICU) knows the IANA name. */
export function isKnownZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

/** The zone's UTC offset in minutes at an instant, from the runtime's time-zone database. */
export function offsetMinutes(zone: string, epochMs: number): number {
	const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
		.formatToParts(new Date(epochMs))
		.find((part) => part.type === 'timeZoneName')?.value;
	const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? '');
	if (!match) return 0;
	return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
}

function shortName(zone: string, epochMs: number): string | undefined {
	return new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
		.formatToParts(new Date(epochMs))
		.find((part) => part.type === 'timeZoneName')?.value;
}

interface Transition {
	at: number;
	from: number;
	to: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function transitionsIn(zone: string, year: number): Transition[] {
	const found: Transition[] = [];
	const end = Date.UTC(year + 1, 0, 1);
	for (let t = Date.UTC(year, 0, 1); t < end; t += DAY) {
		const before = offsetMinutes(zone, t);
		const after = offsetMinutes(zone, t + DAY);
		if (before === after) continue;
		let low = t;
		let high = t + DAY;
		while (high - low > 60_000) {
			const middle = low + Math.floor((high - low) / 2);
			if (offsetMinutes(zone, middle) === before) low = middle;
			else high = middle;
		}
		found.push({ at: high, from: before, to: after });
	}
	return found;
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** The yearly rule a transition follows, written the usual way (e.g. last Sunday of March). */
function yearlyRule(local: Date): InstanceType<typeof ICAL.Recur> {
	const day = local.getUTCDate();
	const daysInMonth = new Date(
		Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0),
	).getUTCDate();
	const nth = day + 7 > daysInMonth ? -1 : Math.ceil(day / 7);
	return ICAL.Recur.fromString(
		`FREQ=YEARLY;BYMONTH=${local.getUTCMonth() + 1};BYDAY=${nth}${WEEKDAYS[local.getUTCDay()]}`,
	);
}

const RULE_START_YEAR = 1970;

/** The day a BYMONTH/BYDAY rule falls on in another year, at the same local time of day. */
function ruleDateIn(year: number, local: Date, rule: InstanceType<typeof ICAL.Recur>): Date {
	const [, nthText, weekday] =
		/^(-?\d+)([A-Z]{2})$/.exec(String(rule.parts.BYDAY?.[0] ?? '')) ?? [];
	const month = local.getUTCMonth();
	const wanted = WEEKDAYS.indexOf(weekday);
	const nth = Number(nthText);
	const timeOfDay = local.getTime() - Date.UTC(local.getUTCFullYear(), month, local.getUTCDate());
	let day: number;
	if (nth > 0) {
		const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay();
		day = 1 + ((wanted - firstWeekday + 7) % 7) + (nth - 1) * 7;
	} else {
		const last = new Date(Date.UTC(year, month + 1, 0));
		day = last.getUTCDate() - ((last.getUTCDay() - wanted + 7) % 7);
	}
	return new Date(Date.UTC(year, month, day) + timeOfDay);
}

function localTime(epochMs: number): InstanceType<typeof ICAL.Time> {
	const date = new Date(epochMs);
	return ICAL.Time.fromData({
		year: date.getUTCFullYear(),
		month: date.getUTCMonth() + 1,
		day: date.getUTCDate(),
		hour: date.getUTCHours(),
		minute: date.getUTCMinutes(),
		second: 0,
		isDate: false,
	});
}

/**
 * A VTIMEZONE for an IANA zone, derived from the runtime's time-zone database (Node ships full ICU), so
 * that events with local times carry their own definition as RFC 5545 requires.
 */
export function vtimezoneFor(zone: string, year: number): Component {
	const component = new ICAL.Component('vtimezone');
	component.addPropertyWithValue('tzid', zone);
	const transitions = transitionsIn(zone, year);
	if (transitions.length === 0) {
		const at = Date.UTC(year, 0, 1);
		const offset = offsetMinutes(zone, at);
		const standard = new ICAL.Component('standard');
		standard.addPropertyWithValue(
			'dtstart',
			ICAL.Time.fromData({
				year: 1970,
				month: 1,
				day: 1,
				hour: 0,
				minute: 0,
				second: 0,
				isDate: false,
			}),
		);
		standard.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(offset * 60));
		standard.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(offset * 60));
		const name = shortName(zone, at);
		if (name) standard.addPropertyWithValue('tzname', name);
		component.addSubcomponent(standard);
		return component;
	}
	const offsets = transitions.map((transition) => transition.to);
	for (const transition of transitions) {
		const daylight = transition.to > Math.min(...offsets, transition.from);
		const observance = new ICAL.Component(daylight ? 'daylight' : 'standard');
		// DTSTART of an observance is the local time just before the change, in the offset being left.
		const local = new Date(transition.at + transition.from * 60_000);
		if (transitions.length === 2) {
			// A yearly rule, starting early enough to cover series that began years ago.
			const rule = yearlyRule(local);
			observance.addPropertyWithValue(
				'dtstart',
				localTime(ruleDateIn(RULE_START_YEAR, local, rule).getTime()),
			);
			observance.addPropertyWithValue('rrule', rule);
		} else {
			observance.addPropertyWithValue('dtstart', localTime(local.getTime()));
		}
		observance.addPropertyWithValue(
			'tzoffsetfrom',
			ICAL.UtcOffset.fromSeconds(transition.from * 60),
		);
		observance.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(transition.to * 60));
		const name = shortName(zone, transition.at + HOUR);
		if (name) observance.addPropertyWithValue('tzname', name);
		component.addSubcomponent(observance);
	}
	return component;
}

/** TZIDs used in a calendar without a VTIMEZONE of their own get one from the time-zone database, if it knows them. */
export function registerMissingZones(vcalendar: Component, year: number): void {
	const defined = new Set(
		vcalendar
			.getAllSubcomponents('vtimezone')
			.map((tz) => String(tz.getFirstPropertyValue('tzid'))),
	);
	const used = new Set<string>();
	const visit = (component: Component) => {
		for (const property of component.getAllProperties()) {
			const tzid = property.getParameter('tzid');
			if (typeof tzid === 'string') used.add(tzid);
		}
		component.getAllSubcomponents().forEach(visit);
	};
	visit(vcalendar);
	for (const tzid of used) {
		if (defined.has(tzid) || ICAL.TimezoneService.has(tzid) || !isKnownZone(tzid)) continue;
		ICAL.TimezoneService.register(new ICAL.Timezone({ component: vtimezoneFor(tzid, year), tzid }));
	}
}

/** Wall-clock fields of an instant in a zone. */
export function wallClock(
	zone: string,
	epochMs: number,
): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
	const local = new Date(epochMs + offsetMinutes(zone, epochMs) * 60_000);
	return {
		year: local.getUTCFullYear(),
		month: local.getUTCMonth() + 1,
		day: local.getUTCDate(),
		hour: local.getUTCHours(),
		minute: local.getUTCMinutes(),
		second: local.getUTCSeconds(),
	};
}

/**
 * RFC 5545 3.6.5: every TZID used needs its VTIMEZONE in the object. Adds the ones the time-zone database
 * knows; a TZID it does not know (a client's own name) cannot be completed and is refused by the caller.
 * Returns the TZIDs that stay undefined.
 */
export function addMissingVtimezones(vcalendar: Component, year: number): string[] {
	const defined = new Set(
		vcalendar
			.getAllSubcomponents('vtimezone')
			.map((tz) => String(tz.getFirstPropertyValue('tzid'))),
	);
	const used = new Set<string>();
	const visit = (component: Component) => {
		for (const property of component.getAllProperties()) {
			const tzid = property.getParameter('tzid');
			if (typeof tzid === 'string') used.add(tzid);
		}
		component.getAllSubcomponents().forEach(visit);
	};
	visit(vcalendar);
	const unknown: string[] = [];
	for (const tzid of used) {
		if (defined.has(tzid)) continue;
		if (isKnownZone(tzid)) vcalendar.addSubcomponent(vtimezoneFor(tzid, year));
		else unknown.push(tzid);
	}
	return unknown;
}

/**
 * The instant of a wall-clock time in a zone (a time in a DST gap takes the offset before the gap, as
 * RFC 5545 3.3.5 has it). `wall` is the wall-clock fields packed as a UTC epoch.
 */
export function instantOfWall(zone: string, wall: number): number {
	const first = wall - offsetMinutes(zone, wall) * 60_000;
	const second = wall - offsetMinutes(zone, first) * 60_000;
	return offsetMinutes(zone, second) * 60_000 === wall - second ? second : Math.max(first, second);
}
