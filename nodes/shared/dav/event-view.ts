import ICAL from 'ical.js';

import { endAfter, endOf, lengthOf } from './event-length';
import { masterComponent, parseCalendar } from './icalendar';
import { instantSeconds } from './instants';
import { registerMissingZones } from './timezones';

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;

export interface EventView {
	uid?: string;
	summary?: string;
	description?: string;
	location?: string;
	status?: string;
	/** ISO: a date for all-day events, else UTC date-time (floating times stay without zone). */
	start?: string;
	end?: string;
	allDay: boolean;
	timezone?: string;
	recurring: boolean;
	recurrenceRule?: string;
	/** For an occurrence of a series: the original start it replaces. */
	recurrenceId?: string;
	organizer?: string;
	attendees: Array<{ email: string; name?: string; status?: string }>;
	reminders: number[];
	component: string;
	[key: string]: unknown;
}

/** ISO text of an iCalendar time: dates as YYYY-MM-DD, zoned/UTC times in UTC, floating as they are. */
export function isoOf(time: Time | undefined | null): string | undefined {
	if (!time) return undefined;
	if (time.isDate) return time.toString().slice(0, 10);
	const tzid = time.zone?.tzid;
	if (!tzid || tzid === 'floating') return time.toString().slice(0, 19);
	return new Date(instantSeconds(time) * 1000).toISOString();
}

function emailOf(value: unknown): string {
	return String(value ?? '').replace(/^mailto:/i, '');
}

export function describeComponent(vevent: Component): EventView {
	const event = new ICAL.Event(vevent);
	const start = vevent.hasProperty('dtstart') ? event.startDate : undefined;
	const end =
		vevent.hasProperty('dtend') || vevent.hasProperty('duration') ? endOf(vevent) : undefined;
	const text = (name: string) => {
		const value = vevent.getFirstPropertyValue(name);
		return value === null || value === undefined ? undefined : String(value);
	};
	const tzid = start && !start.isDate ? start.zone?.tzid : undefined;
	const rrule = vevent.getFirstPropertyValue('rrule');
	return {
		component: vevent.name.toUpperCase(),
		uid: text('uid'),
		summary: text('summary'),
		description: text('description'),
		location: text('location'),
		status: text('status'),
		start: isoOf(start),
		end: isoOf(end),
		allDay: start?.isDate ?? false,
		timezone: tzid && tzid !== 'floating' ? tzid : undefined,
		recurring: vevent.hasProperty('rrule') || vevent.hasProperty('rdate'),
		recurrenceRule: rrule ? rrule.toString() : undefined,
		recurrenceId: vevent.hasProperty('recurrence-id') ? isoOf(event.recurrenceId) : undefined,
		organizer: vevent.hasProperty('organizer')
			? emailOf(vevent.getFirstPropertyValue('organizer'))
			: undefined,
		attendees: vevent.getAllProperties('attendee').map((attendee) => ({
			email: emailOf(attendee.getFirstValue()),
			name: (attendee.getParameter('cn') as string | undefined) ?? undefined,
			status: (attendee.getParameter('partstat') as string | undefined) ?? undefined,
		})),
		reminders: vevent
			.getAllSubcomponents('valarm')
			.map((alarm) => alarm.getFirstPropertyValue('trigger'))
			.filter(
				(trigger): trigger is InstanceType<typeof ICAL.Duration> =>
					trigger instanceof ICAL.Duration,
			)
			.map((trigger) => Math.round(-trigger.toSeconds() / 60)),
	};
}

/** The object's series (or only) event, described; the calendar's own time zones are used first. */
export function describeCalendarData(text: string): EventView {
	const calendar = parseCalendar(text);
	registerMissingZones(calendar, new Date().getUTCFullYear());
	const master = masterComponent(calendar);
	const view = master
		? describeComponent(master)
		: ({
				allDay: false,
				recurring: false,
				attendees: [],
				reminders: [],
				component: '',
			} as EventView);
	const exceptions = calendar
		.getAllSubcomponents()
		.filter((sub) => sub !== master && sub.hasProperty('recurrence-id')).length;
	return exceptions > 0 ? { ...view, exceptions } : view;
}

const MAX_ITERATIONS = 50_000;

/** Which occurrence a time names: its instant, or for an all-day series its date (RFC 5545 3.8.4.4). */
export function occurrenceKey(time: Time, allDay: boolean): string {
	return allDay ? time.toString().slice(0, 10) : String(instantSeconds(time));
}

function overlaps(start: Time, end: Time | undefined, from: number, to: number): boolean {
	const startSec = instantSeconds(start);
	const endSec = end ? instantSeconds(end) : startSec;
	return startSec < to && (endSec > from || (endSec === startSec && startSec >= from));
}

/**
 * Occurrences overlapping [from, to) (epoch seconds): recurrence rules, RDATE/EXDATE, exceptions and moved
 * instances through ical.js. Each occurrence carries its recurrenceId (the original start).
 */
export function expandCalendarData(
	text: string,
	from: number,
	to: number,
	limit = Infinity,
): EventView[] {
	const calendar = parseCalendar(text);
	registerMissingZones(calendar, new Date(from * 1000).getUTCFullYear());
	const items = calendar.getAllSubcomponents().filter((sub) => sub.name === 'vevent');
	const occurrences: EventView[] = [];
	const byUid = new Map<string, Component[]>();
	for (const item of items) {
		const uid = String(item.getFirstPropertyValue('uid') ?? '');
		byUid.set(uid, [...(byUid.get(uid) ?? []), item]);
	}
	for (const group of byUid.values()) {
		const master = group.find((item) => !item.hasProperty('recurrence-id'));
		const exceptions = group.filter((item) => item !== master);
		if (!master) {
			for (const exception of exceptions) {
				const event = new ICAL.Event(exception);
				if (overlaps(event.startDate, endOf(exception), from, to))
					occurrences.push(describeComponent(exception));
			}
			continue;
		}
		const event = new ICAL.Event(master);
		if (!event.isRecurring()) {
			if (
				overlaps(
					event.startDate,
					master.hasProperty('dtend') || master.hasProperty('duration') ? endOf(master) : undefined,
					from,
					to,
				)
			) {
				occurrences.push(describeComponent(master));
			}
			continue;
		}
		// Overrides are paired with occurrences here, by instant (a date for all-day series), not by ical.js,
		// which pairs them by the text of their times: an id written in UTC for a zoned series would double.
		const allDay = event.startDate.isDate;
		const overrides = new Map(
			exceptions.map((exception) => [
				occurrenceKey(exception.getFirstPropertyValue('recurrence-id') as Time, allDay),
				exception,
			]),
		);
		// EXDATE by instant too: ical.js compares its own instants, an hour off for a time a DST gap skips.
		const excluded = new Set(
			master
				.getAllProperties('exdate')
				.flatMap((property) => property.getValues() as Time[])
				.map((time) => occurrenceKey(time, allDay)),
		);
		const length = lengthOf(master);
		const seen = new Set<string>();
		const iterator = event.iterator();
		for (
			let count = 0, next = iterator.next();
			next && count < MAX_ITERATIONS && occurrences.length < limit;
			count++, next = iterator.next()
		) {
			const key = occurrenceKey(next, allDay);
			if (excluded.has(key)) continue;
			seen.add(key);
			const override = overrides.get(key);
			const startDate = override ? new ICAL.Event(override).startDate : next;
			const endDate = override ? endOf(override) : endAfter(next, length);
			if (instantSeconds(next) >= to && instantSeconds(startDate) >= to) break;
			if (!overlaps(startDate, endDate, from, to)) continue;
			occurrences.push({
				...describeComponent(override ?? master),
				start: isoOf(startDate),
				end: isoOf(endDate),
				recurrenceId: isoOf(next),
				recurring: true,
			});
		}
		// An instance moved into the range from beyond the point where iteration stopped.
		for (const [key, exception] of overrides) {
			const moved = new ICAL.Event(exception);
			if (seen.has(key) || !overlaps(moved.startDate, endOf(exception), from, to)) continue;
			occurrences.push({ ...describeComponent(exception), recurring: true });
		}
	}
	return occurrences.sort((a, b) => String(a.start).localeCompare(String(b.start)));
}
