import { randomUUID } from 'node:crypto';

import ICAL from 'ical.js';

import { DavDataError } from './errors';
import {
	applyFields,
	DATE_ONLY,
	NAIVE,
	parseCalendar,
	serializeCalendar,
	stamp,
	type EventFields,
} from './icalendar';
import { endAfter, inZoneOf, lengthOf, type EventLength } from './event-length';
import { compareInstants, instantSeconds, utcTimeAt, wallTimeAt } from './instants';
import { registerMissingZones } from './timezones';

type Component = InstanceType<typeof ICAL.Component>;
type Property = InstanceType<typeof ICAL.Property>;
type Time = InstanceType<typeof ICAL.Time>;

const DAY_SECONDS = 86_400;
const MAX_ITERATIONS = 100_000;

/**
 * Which instance of a series an occurrence id names. Nothing here reads the process time zone (ical.js
 * `toJSDate` does for floating times and dates): an id with Z or an offset names an instant; one without
 * (what Get Many shows for floating and all-day series) names a wall-clock time or a day of the series.
 */
function occurrenceMatcher(recurrenceId: string): {
	matches: (time: Time) => boolean;
	aroundSeconds: number;
} {
	const text = recurrenceId.trim();
	const date = DATE_ONLY.exec(text);
	const naive = NAIVE.exec(text);
	if (date || naive) {
		const parts = (date ?? naive)!.slice(1).map(Number);
		const [year, month, day, hour = 0, minute = 0, second = 0] = parts.map((part) =>
			Number.isNaN(part) ? 0 : part,
		);
		const wallSeconds = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
		const wall = new Date(wallSeconds * 1000).toISOString().slice(0, 19);
		return {
			aroundSeconds: wallSeconds,
			matches: (time) =>
				time.isDate ? time.toString() === wall.slice(0, 10) : time.toString().slice(0, 19) === wall,
		};
	}
	const epoch = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) ? Date.parse(text) : NaN;
	if (Number.isNaN(epoch))
		throw new DavDataError(
			`"${recurrenceId}" is not an occurrence's start`,
			'Use the recurrenceId of an occurrence that Get Many (Expand Recurring Events) returned.',
		);
	const day = new Date(epoch).toISOString().slice(0, 10);
	return {
		aroundSeconds: epoch / 1000,
		// A floating time counts as UTC here (ical.js' toUnixTime), whatever zone the process runs in.
		matches: (time) =>
			time.isDate ? time.toString() === day : instantSeconds(time) === epoch / 1000,
	};
}

/** The original start of one occurrence, as an ICAL.Time in the series' own DTSTART form (zone or date). */
function occurrenceTime(master: Component, recurrenceId: string): Time {
	const { matches, aroundSeconds } = occurrenceMatcher(recurrenceId);
	const event = new ICAL.Event(master);
	if (!event.isRecurring())
		throw new DavDataError(
			'The event is not a recurring series',
			'Occurrences exist only for events with RRULE or RDATE; update the event itself.',
		);
	const iterator = event.iterator();
	for (
		let count = 0, next = iterator.next();
		next && count < MAX_ITERATIONS;
		count++, next = iterator.next()
	) {
		if (matches(next)) return next;
		// Wall-clock ids may lie up to a day from the instant (UTC-12 … UTC+14).
		if (instantSeconds(next) > aroundSeconds + 2 * DAY_SECONDS) break;
	}
	throw new DavDataError(
		`The series has no occurrence starting at ${recurrenceId}`,
		'Use the recurrenceId of an occurrence that Get Many (Expand Recurring Events) returned; the series may have changed since.',
	);
}

/** Whether an override's RECURRENCE-ID names an occurrence: as instants, whatever form each is written in; dates as dates. */
function sameInstant(a: Time, b: Time): boolean {
	if (a.isDate || b.isDate) return a.toString().slice(0, 10) === b.toString().slice(0, 10);
	return compareInstants(a, b) === 0;
}

function overrideFor(calendar: Component, uid: string, at: Time): Component | undefined {
	return calendar
		.getAllSubcomponents('vevent')
		.find(
			(sub) =>
				sub.hasProperty('recurrence-id') &&
				String(sub.getFirstPropertyValue('uid')) === uid &&
				sameInstant(sub.getFirstPropertyValue('recurrence-id') as Time, at),
		);
}

/**
 * A date-time property carrying `time` with the TZID of the series, as RFC 5545 wants EXDATE and
 * RECURRENCE-ID; a UTC time (an end no wall clock of the zone names) keeps its Z and gets no TZID.
 */
function timeProperty(name: string, time: Time, like: Component): Property {
	const property = new ICAL.Property(name, like);
	property.setValue(time);
	const tzid = like.getFirstProperty('dtstart')?.getParameter('tzid');
	if (typeof tzid === 'string' && time.zone?.tzid !== 'UTC') property.setParameter('tzid', tzid);
	return property;
}

/** DTEND of an instance starting at `start` with the series' length, unless its DURATION says it already. */
function endProperty(instance: Component, start: Time, length: EventLength, like: Component) {
	if (instance.hasProperty('duration')) return;
	instance.removeAllProperties('dtend');
	instance.addProperty(timeProperty('dtend', inZoneOf(endAfter(start, length), start), like));
}

function clone<T extends Component | Property>(item: T): T {
	const json = JSON.parse(JSON.stringify(item.toJSON())) as never;
	return (item instanceof ICAL.Property ? new ICAL.Property(json) : new ICAL.Component(json)) as T;
}

function bumpSequence(vevent: Component): void {
	const sequence = Number(vevent.getFirstPropertyValue('sequence') ?? 0);
	vevent.updatePropertyWithValue('sequence', Number.isFinite(sequence) ? sequence + 1 : 1);
}

/** The object's calendar, its series (the VEVENT without RECURRENCE-ID) and the occurrence's time in it. */
function seriesAt(text: string, recurrenceId: string, verb: 'Cancel' | 'Change') {
	const calendar = parseCalendar(text);
	registerMissingZones(
		calendar,
		Number(/^\d{4}/.exec(recurrenceId.trim())?.[0]) || new Date().getUTCFullYear(),
	);
	const master = calendar
		.getAllSubcomponents('vevent')
		.find((sub) => !sub.hasProperty('recurrence-id'));
	if (!master)
		throw new DavDataError(
			'The object holds no recurring series',
			`${verb} occurrences of an event with RRULE or RDATE.`,
		);
	return { calendar, master, at: occurrenceTime(master, recurrenceId) };
}

/**
 * Cancels one occurrence of a series: an EXDATE in the series' own form; an override of that occurrence,
 * if another client made one, goes too. Everything else of the object stays.
 */
export function cancelOccurrence(text: string, recurrenceId: string, now = new Date()): string {
	const { calendar, master, at } = seriesAt(text, recurrenceId, 'Cancel');
	const override = overrideFor(calendar, String(master.getFirstPropertyValue('uid')), at);
	if (override) calendar.removeSubcomponent(override);
	master.addProperty(timeProperty('exdate', at, master));
	stamp(master, now);
	bumpSequence(master);
	return serializeCalendar(calendar);
}

/**
 * Changes one occurrence of a series: its override (RECURRENCE-ID) is patched, or made from the series —
 * every property but the recurrence rules, at the occurrence's own start and length — and then patched.
 */
export function updateOccurrence(
	text: string,
	recurrenceId: string,
	fields: EventFields,
	defaultZone: string,
	now = new Date(),
): string {
	const { calendar, master, at } = seriesAt(text, recurrenceId, 'Change');
	let override = overrideFor(calendar, String(master.getFirstPropertyValue('uid')), at);
	if (!override) {
		override = clone(master);
		for (const name of ['rrule', 'rdate', 'exdate', 'exrule', 'sequence'])
			override.removeAllProperties(name);
		override.removeAllProperties('dtstart');
		override.addProperty(timeProperty('recurrence-id', at, master));
		override.addProperty(timeProperty('dtstart', at, master));
		endProperty(override, at, lengthOf(master), master);
		calendar.addSubcomponent(override);
	}
	const occurrenceFields = withoutRule(fields);
	applyFields(calendar, override, occurrenceFields, defaultZone);
	stamp(override, now);
	return serializeCalendar(calendar);
}

/** The override (RECURRENCE-ID component) of one occurrence in an object, if it has one. */
export function occurrenceComponent(text: string, recurrenceId: string): Component | undefined {
	const calendar = parseCalendar(text);
	registerMissingZones(
		calendar,
		Number(/^\d{4}/.exec(recurrenceId.trim())?.[0]) || new Date().getUTCFullYear(),
	);
	const { matches } = occurrenceMatcher(recurrenceId);
	return calendar
		.getAllSubcomponents('vevent')
		.find(
			(sub) =>
				sub.hasProperty('recurrence-id') &&
				matches(sub.getFirstPropertyValue('recurrence-id') as Time),
		);
}

/** An occurrence has no rule of its own; the fields of a series change minus its RRULE. */
function withoutRule(fields: EventFields): EventFields {
	const copy = { ...fields };
	delete copy.recurrenceRule;
	return copy;
}

function isFloating(time: Time): boolean {
	return !time.isDate && (!time.zone || time.zone.tzid === 'floating');
}

/**
 * The last moment the old series may have: the day before (all-day), a second before (floating), or in
 * UTC the rule's last instance before the cut — exact however a reader places a local time a DST change
 * skipped (a second before a shifted instance is still after its wall clock).
 */
function untilBefore(at: Time, previous?: Time): Time {
	if (at.isDate) {
		const day = at.clone();
		day.adjust(-1, 0, 0, 0);
		return ICAL.Time.fromData({ year: day.year, month: day.month, day: day.day, isDate: true });
	}
	if (isFloating(at)) {
		// RFC 5545 3.3.10: with a floating DTSTART, UNTIL is floating too.
		const last = at.clone();
		last.adjust(0, 0, 0, -1);
		return ICAL.Time.fromData({
			year: last.year,
			month: last.month,
			day: last.day,
			hour: last.hour,
			minute: last.minute,
			second: last.second,
			isDate: false,
		});
	}
	return utcTimeAt(previous ? instantSeconds(previous) : instantSeconds(at) - 1);
}

function startOf(value: unknown): Time {
	return value instanceof ICAL.Period ? value.start : (value as Time);
}

/**
 * Moves the values of EXDATE or RDATE at or after the cut to the new series, property by property: a
 * property holding values on both sides is split, so that no value is lost or applies twice.
 */
function moveLaterValues(name: string, from: Component, to: Component, at: Time, shift: Shift) {
	for (const property of from.getAllProperties(name)) {
		const values = property.getValues() as unknown[];
		const later = values.filter((value) => compareInstants(startOf(value), at) >= 0);
		if (later.length === 0) continue;
		const earlier = values.filter((value) => !later.includes(value));
		const moved = clone(property);
		if (shift.active) {
			moved.removeParameter('tzid');
			const tzid = to.getFirstProperty('dtstart')?.getParameter('tzid');
			if (typeof tzid === 'string') moved.setParameter('tzid', tzid);
			moved.setValues(
				later.map((value) =>
					value instanceof ICAL.Period ? shiftPeriod(value, shift) : shift.apply(value as Time),
				) as never,
			);
		} else moved.setValues(later as never);
		to.addProperty(moved);
		if (earlier.length === 0) from.removeProperty(property);
		else property.setValues(earlier as never);
	}
}

interface Shift {
	active: boolean;
	/** An old instance's time as the corresponding time of the new series (its zone and wall clock). */
	apply: (time: Time) => Time;
}

function shiftPeriod(period: InstanceType<typeof ICAL.Period>, shift: Shift) {
	const start = shift.apply(period.start);
	const length = period.getDuration();
	return ICAL.Period.fromData({ start, duration: length });
}

function wallFields(time: Time) {
	return {
		year: time.year,
		month: time.month,
		day: time.day,
		hour: time.hour,
		minute: time.minute,
		second: time.second,
		isDate: time.isDate,
	};
}

/**
 * When the split moves the new series' start (other time of day, other zone), its exceptions move with it:
 * each keeps its place relative to the rule, i.e. the same wall-clock difference in the new zone.
 */
function shiftBetween(at: Time, newStart: Time): Shift {
	const same =
		at.isDate === newStart.isDate &&
		at.toString() === newStart.toString() &&
		(at.zone?.tzid ?? '') === (newStart.zone?.tzid ?? '');
	if (same || at.isDate !== newStart.isDate) return { active: false, apply: (time) => time };
	const delta = ICAL.Time.fromData({ ...wallFields(newStart) }).subtractDate(
		ICAL.Time.fromData({ ...wallFields(at) }),
	);
	return {
		active: true,
		apply: (time) => {
			const local =
				at.isDate || isFloating(at) || time.zone?.tzid === at.zone?.tzid
					? time
					: wallTimeAt(at.zone!, instantSeconds(time));
			const moved = ICAL.Time.fromData({ ...wallFields(local), isDate: at.isDate });
			moved.addDuration(delta);
			return ICAL.Time.fromData(wallFields(moved), newStart.zone);
		},
	};
}

/** RFC 9074 / Apple: an alarm's identity must be unique; a copied series gets new ones. */
function renewAlarmUids(vevent: Component): void {
	for (const alarm of vevent.getAllSubcomponents('valarm')) {
		if (alarm.hasProperty('x-wr-alarmuid'))
			alarm.updatePropertyWithValue('x-wr-alarmuid', randomUUID().toUpperCase());
		if (alarm.hasProperty('uid')) alarm.updatePropertyWithValue('uid', randomUUID().toUpperCase());
		// Apple's acknowledged/snoozed alarm copies point at the old alarm's identity.
		if (alarm.hasProperty('related-to')) alarm.removeAllProperties('related-to');
	}
}

const TEXT_FIELDS = ['summary', 'description', 'location', 'status'] as const;

/** Whether EXDATE/RDATE values or overrides lie at or after the cut (they move to the new series). */
function hasLaterExceptions(calendar: Component, master: Component, at: Time): boolean {
	const later = (name: string) =>
		master
			.getAllProperties(name)
			.some((property) =>
				(property.getValues() as unknown[]).some(
					(value) => compareInstants(startOf(value), at) >= 0,
				),
			);
	return (
		later('exdate') ||
		later('rdate') ||
		calendar
			.getAllSubcomponents('vevent')
			.some(
				(sub) =>
					sub.hasProperty('recurrence-id') &&
					compareInstants(sub.getFirstPropertyValue('recurrence-id') as Time, at) >= 0,
			)
	);
}

export type FollowingScope = 'series' | 'replace' | 'split';

/**
 * What "this and following" at an occurrence changes: the whole series at its first occurrence (DTSTART);
 * the object replaced by the new part when no earlier occurrence is left (DTSTART and those after it
 * cancelled), since the old part would be an empty series; else a split into two series.
 */
export function followingScope(text: string, recurrenceId: string): FollowingScope {
	const { master, at } = seriesAt(text, recurrenceId, 'Change');
	const series = new ICAL.Event(master);
	if (sameInstant(at, series.startDate)) return 'series';
	const first = series.iterator().next();
	return first && compareInstants(first, at) >= 0 ? 'replace' : 'split';
}

/** "This and following" where no earlier occurrence is left: the object becomes the new part, same UID. */
export function replaceFromOccurrence(
	text: string,
	recurrenceId: string,
	fields: EventFields,
	defaultZone: string,
	now = new Date(),
): string {
	const uid = String(seriesAt(text, recurrenceId, 'Change').master.getFirstPropertyValue('uid'));
	return splitSeries(text, recurrenceId, fields, uid, defaultZone, now, true).following;
}

/**
 * "This and following": the series ends before the occurrence (UNTIL in the form RFC 5545 wants for its
 * DTSTART; COUNT becomes UNTIL), and a new series with a new UID starts at it with the same rule (the
 * remaining COUNT), the later EXDATE/RDATE values and overrides, and the patch applied — to the chosen
 * occurrence's override too, and the text fields to later overrides that still had the series' text.
 * Returns both objects; the caller stores the new one first.
 */
export function splitSeries(
	text: string,
	recurrenceId: string,
	fields: EventFields,
	newUid: string,
	defaultZone: string,
	now = new Date(),
	/** The new part replaces the object: it keeps the UID, CREATED and alarm ids, SEQUENCE goes up. */
	keepIdentity = false,
): { original: string; following: string } {
	const { calendar, master, at } = seriesAt(text, recurrenceId, 'Change');
	const rrule = master.getFirstPropertyValue('rrule') as InstanceType<typeof ICAL.Recur> | null;
	if (!rrule)
		throw new DavDataError(
			'Only a series with an RRULE can be split',
			'Change the occurrences one by one instead.',
		);
	const series = new ICAL.Event(master);
	if (sameInstant(at, series.startDate))
		throw new DavDataError(
			'This is the first occurrence',
			'To change the whole series, update the event without "Only One Occurrence".',
		);

	// Occurrences the rule generated before the split, to carry a COUNT over. COUNT bounds the RRULE alone
	// (RFC 5545 3.8.5.3): an EXDATE removes an instance from the set but still used up one of the count.
	let before = 0;
	let previous: Time | undefined;
	const iterator = rrule.iterator(series.startDate);
	let next = iterator.next();
	for (; next && compareInstants(next, at) < 0; next = iterator.next()) {
		before++;
		previous = next.clone();
	}
	if (!next || compareInstants(next, at) !== 0)
		throw new DavDataError(
			'This occurrence was added to the series by an RDATE, so no rule starts there',
			'Change it alone ("Only One Occurrence" without "This and Following"), or split at an occurrence of the rule.',
		);

	const following = new ICAL.Component('vcalendar');
	for (const property of calendar.getAllProperties()) following.addProperty(clone(property));
	for (const zone of calendar.getAllSubcomponents('vtimezone'))
		following.addSubcomponent(clone(zone));
	const head = clone(master);
	for (const name of ['dtstart', 'exdate', 'rdate']) head.removeAllProperties(name);
	if (keepIdentity) bumpSequence(head);
	else for (const name of ['sequence', 'created']) head.removeAllProperties(name);
	head.updatePropertyWithValue('uid', newUid);
	head.addProperty(timeProperty('dtstart', at, master));
	endProperty(head, at, lengthOf(master), master);
	const rest = rrule.clone();
	if (rest.count) rest.count = Math.max(1, rest.count - before);
	head.updatePropertyWithValue('rrule', rest);
	if (!keepIdentity) renewAlarmUids(head);
	following.addSubcomponent(head);
	applyFields(following, head, fields, defaultZone);
	stamp(head, now);
	const newStart = new ICAL.Event(head).startDate;
	if (newStart.isDate !== at.isDate && hasLaterExceptions(calendar, master, at))
		throw new DavDataError(
			'"This and Following" cannot switch All Day for a series with changed or cancelled later occurrences',
			'Their dates would not carry over exactly. Change All Day for the whole series, or split first and change the new series afterwards.',
		);
	const shift = shiftBetween(at, newStart);
	if (shift.active && rest.until && fields.recurrenceRule === undefined) {
		// An UNTIL bound moves with the series, or it would cut off its last occurrence.
		const moved = shift.apply(rest.until);
		const bound = rest.clone();
		bound.until =
			newStart.isDate || isFloating(newStart) ? moved : utcTimeAt(instantSeconds(moved));
		head.updatePropertyWithValue('rrule', bound);
	}

	// Later EXDATE/RDATE values and overrides belong to the new series.
	moveLaterValues('exdate', master, head, at, shift);
	moveLaterValues('rdate', master, head, at, shift);
	const oldText = Object.fromEntries(
		TEXT_FIELDS.map((name) => [name, master.getFirstPropertyValue(name)]),
	);
	const occurrenceFields = withoutRule(fields);
	for (const override of calendar.getAllSubcomponents('vevent')) {
		if (!override.hasProperty('recurrence-id')) continue;
		const original = override.getFirstPropertyValue('recurrence-id') as Time;
		if (compareInstants(original, at) < 0) continue;
		calendar.removeSubcomponent(override);
		override.updatePropertyWithValue('uid', newUid);
		following.addSubcomponent(override);
		const event = new ICAL.Event(override);
		const unmoved = event.startDate && compareInstants(event.startDate, original) === 0;
		if (shift.active) {
			override.removeAllProperties('recurrence-id');
			override.addProperty(timeProperty('recurrence-id', shift.apply(original), head));
			if (unmoved && compareInstants(original, at) !== 0) {
				const overrideLength = lengthOf(override);
				const start = shift.apply(original);
				override.removeAllProperties('dtstart');
				override.addProperty(timeProperty('dtstart', start, head));
				endProperty(override, start, overrideLength, head);
			}
		}
		if (compareInstants(original, at) === 0) {
			// The chosen occurrence is the first of the new series: the change applies to it in full.
			applyFields(following, override, occurrenceFields, defaultZone);
		} else {
			for (const name of TEXT_FIELDS) {
				const value = fields[name];
				if (value !== undefined && override.getFirstPropertyValue(name) === oldText[name])
					applyFields(following, override, { [name]: value }, defaultZone);
			}
		}
		stamp(override, now);
	}

	const until = rrule.clone();
	until.count = null;
	until.until = untilBefore(at, previous);
	master.updatePropertyWithValue('rrule', until);
	stamp(master, now);
	bumpSequence(master);
	return { original: serializeCalendar(calendar), following: serializeCalendar(following) };
}
