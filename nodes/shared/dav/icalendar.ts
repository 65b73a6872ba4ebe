import ICAL from 'ical.js';

import { isEmailAddress } from '../esignature/input';
import { DavDataError } from './errors';
import { endAfter, inZoneOf, lengthOf } from './event-length';
import {
	addMissingVtimezones,
	isKnownZone,
	registerMissingZones,
	vtimezoneFor,
	wallClock,
} from './timezones';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;

export const PRODID = '-//n8n-nodes-cloud-storage//CalDAV//EN';

/** Fields an operation sets; undefined leaves the property as it is. */
export interface EventFields {
	summary?: string;
	description?: string;
	location?: string;
	/** ISO date or date-time; with no offset it is a wall-clock time in `timezone`. */
	start?: string;
	/** For all-day events the day after the last day (exclusive, as iCalendar stores it). */
	end?: string;
	allDay?: boolean;
	/** IANA zone for wall-clock times; "UTC" writes UTC times without a VTIMEZONE. */
	timezone?: string;
	/** E-mail addresses; replaces the attendee list. */
	attendees?: string[];
	/** Minutes before the start; replaces the event's alarms. */
	reminders?: number[];
	/** An RRULE value such as FREQ=WEEKLY;COUNT=10; "" removes the rule. */
	recurrenceRule?: string;
	status?: string;
}

export function parseCalendar(text: string): Component {
	let component: Component | undefined;
	let problem = '';
	try {
		component = new ICAL.Component(ICAL.parse(text) as never);
	} catch (error) {
		// ical.js fails with a TypeError on text that is not line-based at all; its wording means nothing to users.
		problem =
			error instanceof TypeError
				? 'It is not iCalendar text (BEGIN:VCALENDAR … END:VCALENDAR)'
				: (error as Error).message;
	}
	if (!component)
		throw new DavDataError(
			'The iCalendar data could not be parsed',
			`${problem}. Check the raw iCalendar text.`,
		);
	if (component.name !== 'vcalendar')
		throw new DavDataError(
			`Expected a VCALENDAR, found ${component.name.toUpperCase()}`,
			'Pass a complete iCalendar object (BEGIN:VCALENDAR … END:VCALENDAR).',
		);
	return component;
}

/** Component types the object stores (VEVENT, VTODO…), to check against the calendar's supported set. */
export function storedComponents(vcalendar: Component): string[] {
	return [
		...new Set(
			vcalendar
				.getAllSubcomponents()
				.map((sub) => sub.name.toUpperCase())
				.filter((name) => name !== 'VTIMEZONE'),
		),
	];
}

/** The object's main component: the one without RECURRENCE-ID (the series), else the first. */
export function masterComponent(vcalendar: Component): Component | undefined {
	const items = vcalendar.getAllSubcomponents().filter((sub) => sub.name !== 'vtimezone');
	return items.find((sub) => !sub.hasProperty('recurrence-id')) ?? items[0];
}

export function uidOf(vcalendar: Component): string | undefined {
	const uid = masterComponent(vcalendar)?.getFirstPropertyValue('uid');
	return uid === null || uid === undefined ? undefined : String(uid);
}

export const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
export const NAIVE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;

/** ical.js rolls 2030-13-45 over into 2031 silently, so out-of-range parts are refused here. */
function realDateTime(
	year: number,
	month: number,
	day: number,
	hour = 0,
	minute = 0,
	second = 0,
): boolean {
	const date = new Date(Date.UTC(year, month - 1, day));
	return (
		date.getUTCFullYear() === year &&
		date.getUTCMonth() === month - 1 &&
		date.getUTCDate() === day &&
		hour < 24 &&
		minute < 60 &&
		second < 61
	);
}

function invalidTime(value: string): DavDataError {
	return new DavDataError(
		`"${value}" is not a valid date or time`,
		'Use an ISO date (2026-03-01) or date-time (2026-03-01T09:00:00, optionally with Z or an offset).',
	);
}

/** An input date/time as an ICAL.Time: a date for all-day events, else wall-clock time in the zone. */
export function toIcalTime(
	value: string,
	allDay: boolean,
	zone: string,
	calendar: Component,
): Time {
	const text = value.trim();
	if (allDay) {
		const match = DATE_ONLY.exec(text.slice(0, 10));
		if (!match || !realDateTime(+match[1], +match[2], +match[3])) throw invalidTime(value);
		return ICAL.Time.fromData({
			year: Number(match[1]),
			month: Number(match[2]),
			day: Number(match[3]),
			isDate: true,
		});
	}
	const naive = NAIVE.exec(text) ?? (DATE_ONLY.test(text) ? NAIVE.exec(`${text}T00:00:00`) : null);
	let fields: {
		year: number;
		month: number;
		day: number;
		hour: number;
		minute: number;
		second: number;
	};
	if (naive) {
		fields = {
			year: +naive[1],
			month: +naive[2],
			day: +naive[3],
			hour: +naive[4],
			minute: +naive[5],
			second: +(naive[6] ?? 0),
		};
		if (
			!realDateTime(
				fields.year,
				fields.month,
				fields.day,
				fields.hour,
				fields.minute,
				fields.second,
			)
		)
			throw invalidTime(value);
	} else {
		// Text without a zone that is not ISO would be read in the zone of the process running n8n.
		const zoned = /(?:Z|[+-]\d{2}:?\d{2})$|GMT|UTC/i.test(text);
		const epoch = zoned ? Date.parse(text) : NaN;
		if (Number.isNaN(epoch)) throw invalidTime(value);
		fields = wallClock(zone === 'UTC' ? 'UTC' : zone, epoch);
	}
	if (zone === 'UTC')
		return ICAL.Time.fromData({ ...fields, isDate: false }, ICAL.Timezone.utcTimezone);
	return ICAL.Time.fromData({ ...fields, isDate: false }, timezoneIn(calendar, zone, fields.year));
}

function isFloatingTime(time: Time): boolean {
	return !time.zone || time.zone.tzid === 'floating';
}

function isWallClock(value: string): boolean {
	const text = value.trim();
	return NAIVE.test(text) || DATE_ONLY.test(text);
}

function floatingTime(value: string): Time {
	const zoned = toIcalTime(value, false, 'UTC', new ICAL.Component('vcalendar'));
	return ICAL.Time.fromData({
		year: zoned.year,
		month: zoned.month,
		day: zoned.day,
		hour: zoned.hour,
		minute: zoned.minute,
		second: zoned.second,
		isDate: false,
	});
}

/** The calendar's VTIMEZONE for the zone, added from the time-zone database when missing. */
function timezoneIn(
	calendar: Component,
	zone: string,
	year: number,
): InstanceType<typeof ICAL.Timezone> {
	const existing = calendar
		.getAllSubcomponents('vtimezone')
		.find((tz) => tz.getFirstPropertyValue('tzid') === zone);
	if (existing) return new ICAL.Timezone({ component: existing, tzid: zone });
	if (!isKnownZone(zone))
		throw new DavDataError(
			`Unknown time zone "${zone}"`,
			'Use an IANA time zone name such as Europe/Berlin or America/New_York, or UTC.',
		);
	const component = vtimezoneFor(zone, year);
	calendar.addSubcomponent(component);
	return new ICAL.Timezone({ component, tzid: zone });
}

function setText(component: Component, name: string, value: string | undefined): void {
	if (value === undefined) return;
	if (value === '') component.removeAllProperties(name);
	else component.updatePropertyWithValue(name, value);
}

function setAttendees(component: Component, emails: string[]): void {
	const invalid = emails.find((email) => !isEmailAddress(email.replace(/^mailto:/i, '')));
	if (invalid !== undefined) {
		throw new DavDataError(
			`Attendees: "${invalid.slice(0, 100)}" is not an e-mail address`,
			'Use plain addresses like ana@example.com, separated by commas.',
		);
	}
	component.removeAllProperties('attendee');
	for (const email of emails) {
		const property = component.addPropertyWithValue(
			'attendee',
			`mailto:${email.replace(/^mailto:/i, '')}`,
		);
		property.setParameter('role', 'REQ-PARTICIPANT');
		property.setParameter('partstat', 'NEEDS-ACTION');
		property.setParameter('rsvp', 'TRUE');
	}
}

function setReminders(component: Component, minutesBefore: number[]): void {
	for (const alarm of component.getAllSubcomponents('valarm')) component.removeSubcomponent(alarm);
	for (const minutes of minutesBefore) {
		const alarm = new ICAL.Component('valarm');
		alarm.addPropertyWithValue('action', 'DISPLAY');
		alarm.addPropertyWithValue(
			'description',
			String(component.getFirstPropertyValue('summary') ?? 'Reminder'),
		);
		alarm.addPropertyWithValue('trigger', ICAL.Duration.fromSeconds(-Math.round(minutes * 60)));
		component.addSubcomponent(alarm);
	}
}

function setRecurrence(component: Component, rule: string): void {
	component.removeAllProperties('rrule');
	if (rule.trim() === '') return;
	let recur: InstanceType<typeof ICAL.Recur> | undefined;
	let problem = '';
	try {
		recur = ICAL.Recur.fromString(rule.trim().replace(/^RRULE:/i, ''));
	} catch (error) {
		problem = (error as Error).message;
	}
	if (!recur)
		throw new DavDataError(
			`"${rule}" is not a valid recurrence rule`,
			`Write it as an RRULE value such as FREQ=WEEKLY;BYDAY=MO;COUNT=10. (${problem})`,
		);
	if (!recur.freq)
		throw new DavDataError(
			`"${rule}" has no FREQ`,
			'A recurrence rule needs FREQ, e.g. FREQ=DAILY;COUNT=5.',
		);
	component.addPropertyWithValue('rrule', recur);
}

/** Applies the given fields to a VEVENT of the calendar; what is not given stays exactly as it was. */
export function applyFields(
	calendar: Component,
	vevent: Component,
	fields: EventFields,
	defaultZone: string,
): void {
	const event = new ICAL.Event(vevent);
	setText(vevent, 'summary', fields.summary);
	setText(vevent, 'description', fields.description);
	setText(vevent, 'location', fields.location);
	setText(vevent, 'status', fields.status?.toUpperCase());
	const oldStart = vevent.hasProperty('dtstart') ? event.startDate : undefined;
	const oldLength = oldStart && vevent.hasProperty('dtend') ? lengthOf(vevent) : undefined;
	const allDay = fields.allDay ?? (oldStart ? oldStart.isDate : false);
	const zone =
		fields.timezone ||
		(oldStart && !oldStart.isDate && oldStart.zone?.tzid && oldStart.zone.tzid !== 'floating'
			? oldStart.zone.tzid
			: defaultZone);
	// A floating event (or an occurrence of a floating series) stays floating: a time without offset or
	// zone is its wall clock; only a Time Zone or an instant given makes it zoned.
	const floating =
		!allDay && !fields.timezone && !!oldStart && !oldStart.isDate && isFloatingTime(oldStart);
	const timeOf = (value: string) =>
		floating && isWallClock(value)
			? floatingTime(value)
			: toIcalTime(value, allDay, zone, calendar);
	if (fields.start !== undefined) {
		const start = timeOf(fields.start);
		event.startDate = start;
		if (fields.end === undefined && oldLength && oldStart && oldStart.isDate === allDay) {
			// Moving an event keeps its length (exact, RFC 5545 3.8.5.3, whatever DST change it now crosses).
			event.endDate = inZoneOf(endAfter(start, oldLength), start);
		}
	}
	if (fields.end !== undefined) event.endDate = timeOf(fields.end);
	if (
		allDay &&
		event.startDate &&
		(!vevent.hasProperty('dtend') || event.endDate.compare(event.startDate) <= 0)
	) {
		const end = event.startDate.clone();
		end.day += 1;
		event.endDate = end;
	}
	if (fields.attendees !== undefined) setAttendees(vevent, fields.attendees);
	if (fields.reminders !== undefined) setReminders(vevent, fields.reminders);
	if (fields.recurrenceRule !== undefined) setRecurrence(vevent, fields.recurrenceRule);
}

export function stamp(vevent: Component, now: Date): void {
	const utcNow = ICAL.Time.fromJSDate(now, true);
	vevent.updatePropertyWithValue('dtstamp', utcNow);
	vevent.updatePropertyWithValue('last-modified', utcNow);
}

export function serializeCalendar(calendar: Component): string {
	// ical.js folds at 75 characters and ends lines with CRLF, as RFC 5545 requires.
	return calendar
		.toString()
		.replace(/\r?\n/g, '\r\n')
		.replace(/(\r\n)?$/, '\r\n');
}

export function createEventData(
	fields: EventFields,
	uid: string,
	defaultZone: string,
	now = new Date(),
): string {
	const calendar = new ICAL.Component('vcalendar');
	calendar.addPropertyWithValue('version', '2.0');
	calendar.addPropertyWithValue('prodid', PRODID);
	const vevent = new ICAL.Component('vevent');
	calendar.addSubcomponent(vevent);
	vevent.addPropertyWithValue('uid', uid);
	stamp(vevent, now);
	vevent.updatePropertyWithValue('created', ICAL.Time.fromJSDate(now, true));
	if (fields.start === undefined)
		throw new DavDataError(
			'An event needs a start',
			'Set Start (and End, or leave End empty for an event of one hour or one day).',
		);
	applyFields(calendar, vevent, fields, defaultZone);
	if (!vevent.hasProperty('dtend') && !vevent.hasProperty('duration')) {
		vevent.addPropertyWithValue('duration', ICAL.Duration.fromSeconds(3600));
	}
	return serializeCalendar(calendar);
}

/**
 * Patches the series (or the only component) of an existing object: every property and component the
 * patch does not name — other clients' X- properties, exceptions, alarms, time zones — is kept.
 */
export function patchEventData(
	text: string,
	fields: EventFields,
	defaultZone: string,
	now = new Date(),
): string {
	const calendar = parseCalendar(text);
	const vevent = masterComponent(calendar);
	if (!vevent)
		throw new DavDataError(
			'The object holds no event to update',
			'It contains no VEVENT/VTODO component.',
		);
	applyFields(calendar, vevent, fields, defaultZone);
	stamp(vevent, now);
	const sequence = Number(vevent.getFirstPropertyValue('sequence') ?? 0);
	vevent.updatePropertyWithValue('sequence', Number.isFinite(sequence) ? sequence + 1 : 1);
	return serializeCalendar(calendar);
}

/** A raw iCalendar object for storing: parsed (so it is valid), given a UID if it has none, CRLF-serialised. */
export function normaliseRawCalendar(
	text: string,
	uid: string,
): { data: string; uid: string; components: string[] } {
	const calendar = parseCalendar(text);
	const items = calendar.getAllSubcomponents().filter((sub) => sub.name !== 'vtimezone');
	if (items.length === 0)
		throw new DavDataError(
			'The iCalendar object holds no event',
			'Add a VEVENT (or VTODO) component.',
		);
	const existing = uidOf(calendar);
	const finalUid = existing ?? uid;
	if (!existing) for (const item of items) item.updatePropertyWithValue('uid', finalUid);
	if (!calendar.hasProperty('prodid')) calendar.addPropertyWithValue('prodid', PRODID);
	if (!calendar.hasProperty('version')) calendar.addPropertyWithValue('version', '2.0');
	const undefinedZones = addMissingVtimezones(calendar, new Date().getUTCFullYear());
	if (undefinedZones.length > 0) {
		throw new DavDataError(
			`The iCalendar object uses the time zone ${undefinedZones.map((zone) => `"${zone}"`).join(', ')} without its VTIMEZONE`,
			'RFC 5545 requires a VTIMEZONE for every TZID, and this name is not an IANA zone the node could add one for. Include the VTIMEZONE component, or use an IANA name such as Europe/Berlin.',
		);
	}
	registerMissingZones(calendar, new Date().getUTCFullYear());
	return {
		data: serializeCalendar(calendar),
		uid: finalUid,
		components: storedComponents(calendar),
	};
}
