import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { EventFields } from '../../../shared/dav/icalendar';

const detailFields: INodeProperties[] = [
	{
		displayName: 'Attendees',
		name: 'attendees',
		type: 'string',
		default: '',
		placeholder: 'ana@example.com, ben@example.com',
		description: 'Comma-separated e-mail addresses; replaces the attendee list',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
	},
	{ displayName: 'Location', name: 'location', type: 'string', default: '' },
	{
		displayName: 'Recurrence Rule',
		name: 'recurrenceRule',
		type: 'string',
		default: '',
		placeholder: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10',
		description:
			'An iCalendar RRULE value (RFC 5545), e.g. FREQ=DAILY;COUNT=5 or FREQ=MONTHLY;BYMONTHDAY=1;UNTIL=20271231T000000Z',
	},
	{
		displayName: 'Reminders (Minutes Before)',
		name: 'reminders',
		type: 'string',
		default: '',
		placeholder: '15, 60',
		description: "Comma-separated minutes before the start; replaces the event's alarms",
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Confirmed', value: 'CONFIRMED' },
			{ name: 'Tentative', value: 'TENTATIVE' },
			{ name: 'Cancelled', value: 'CANCELLED' },
		],
		default: 'CONFIRMED',
	},
	{
		displayName: 'Time Zone',
		name: 'timezone',
		type: 'string',
		default: '',
		placeholder: 'Europe/Berlin',
		description:
			"IANA time zone for start and end; empty uses the workflow's time zone. UTC stores UTC times. A VTIMEZONE is written for local times.",
	},
];

export const timeFields: INodeProperties[] = [
	{
		displayName: 'Start',
		name: 'start',
		type: 'dateTime',
		default: '',
		description:
			"Start time; without an offset it is read in the event's time zone. For all-day events only the date counts.",
	},
	{
		displayName: 'End',
		name: 'end',
		type: 'dateTime',
		default: '',
		description:
			'End time; empty means one hour after the start (all-day: one day). For all-day events, the day after the last day.',
	},
	{
		displayName: 'All Day',
		name: 'allDay',
		type: 'boolean',
		default: false,
		description: 'Whether the event lasts whole days (dates without times)',
	},
];

export function additionalEventFields(name: 'additionalFields' | 'updateFields'): INodeProperties {
	const options =
		name === 'updateFields'
			? [
					{ displayName: 'Title', name: 'summary', type: 'string', default: '' } as INodeProperties,
					...timeFields,
					...detailFields,
				]
			: detailFields;
	return {
		displayName: name === 'updateFields' ? 'Update Fields' : 'Additional Fields',
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

function list(value: unknown): string[] {
	return String(value ?? '')
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}

/** Collection values → EventFields; fields the user did not add stay undefined (left untouched). */
export function eventFieldsFrom(
	ctx: IExecuteFunctions,
	itemIndex: number,
	values: Record<string, unknown>,
): EventFields {
	const reminders = values.reminders === undefined ? undefined : list(values.reminders).map(Number);
	if (reminders?.some((minutes) => !Number.isFinite(minutes) || minutes < 0)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Reminders must be minutes before the start, e.g. "15, 60" (got "${String(values.reminders)}")`,
			{ itemIndex },
		);
	}
	const text = (key: string) => (values[key] === undefined ? undefined : String(values[key]));
	const time = (key: string) =>
		values[key] === undefined || values[key] === '' || values[key] === null
			? undefined
			: String(values[key]);
	return {
		summary: text('summary'),
		description: text('description'),
		location: text('location'),
		status: text('status'),
		start: time('start'),
		end: time('end'),
		allDay: values.allDay === undefined ? undefined : Boolean(values.allDay),
		timezone: text('timezone')?.trim() || undefined,
		attendees: values.attendees === undefined ? undefined : list(values.attendees),
		reminders,
		recurrenceRule: text('recurrenceRule'),
	};
}

export const includeRawOption: INodeProperties = {
	displayName: 'Include Raw iCalendar',
	name: 'includeRaw',
	type: 'boolean',
	default: false,
	description: 'Whether to add the stored iCalendar text as the iCalendar field',
};

/** One occurrence of a series, addressed by the recurrenceId an expanded Get Many returned. */
export const occurrenceOption = (action: 'change' | 'cancel'): INodeProperties => ({
	displayName: 'Only One Occurrence',
	name: 'occurrence',
	type: 'string',
	default: '',
	placeholder: '2030-02-04T09:00:00.000Z',
	description:
		action === 'change'
			? "The recurrenceId of one occurrence (from Get Many with Expand Recurring Events): only that occurrence changes (an override); the series stays. A time without Z or offset is read in the series' own time zone, a date alone names a day of an all-day series."
			: "The recurrenceId of one occurrence (from Get Many with Expand Recurring Events): only that occurrence is cancelled (EXDATE); the series stays. A time without Z or offset is read in the series' own time zone, a date alone names a day of an all-day series.",
});

export const occurrenceScopeOption: INodeProperties = {
	displayName: 'Occurrences to Change',
	name: 'scope',
	type: 'options',
	options: [
		{
			name: 'Only This One',
			value: 'this',
			description: 'An override of this occurrence; the series stays',
		},
		{
			name: 'This and Following',
			value: 'following',
			description:
				'The series ends before it; a new series (new UID) starts there with the change. At the first occurrence (or the first not cancelled) the whole series changes.',
		},
	],
	default: 'this',
	description: 'With Only One Occurrence set: which occurrences the change applies to',
};
