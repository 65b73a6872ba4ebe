import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readCollection } from '../../../shared/dav/discovery';
import { createEventData, normaliseRawCalendar } from '../../../shared/dav/icalendar';
import { createObject } from '../../../shared/dav/objects';
import { explainingKind } from '../../../shared/dav/resource-kind';
import { successOutcome } from '../../../shared/dav-node/client';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { calendarUrlParam, eventClient, eventItem } from '../common';
import { additionalEventFields, eventFieldsFrom, includeRawOption, timeFields } from './fields';

const properties: INodeProperties[] = [
	collectionLocator('calendar'),
	{
		displayName: 'Input',
		name: 'input',
		type: 'options',
		options: [
			{
				name: 'Fields',
				value: 'fields',
				description: 'Build the event from title, times and details',
			},
			{
				name: 'Raw iCalendar',
				value: 'raw',
				description: 'Store an iCalendar object as given (a UID is added if missing)',
			},
		],
		default: 'fields',
	},
	{
		displayName: 'Title',
		name: 'summary',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { input: ['fields'] } },
	},
	...timeFields.map((field) => ({
		...field,
		required: field.name === 'start',
		displayOptions: { show: { input: ['fields'] } },
	})),
	{ ...additionalEventFields('additionalFields'), displayOptions: { show: { input: ['fields'] } } },
	{
		displayName: 'iCalendar',
		name: 'iCalendar',
		type: 'string',
		typeOptions: { rows: 8 },
		default: '',
		required: true,
		placeholder: 'BEGIN:VCALENDAR…END:VCALENDAR',
		displayOptions: { show: { input: ['raw'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [includeRawOption],
	},
];

const CREATE_CHECK = {
	operation: 'Create Event',
	want: 'calendar',
	nothing: 'Nothing was stored.',
} as const;

export const description = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const input = this.getNodeParameter('input', itemIndex, 'fields') as string;
	const includeRaw = this.getNodeParameter('options.includeRaw', itemIndex, false) as boolean;
	const client = await eventClient(this, itemIndex);
	const calendarUrl = calendarUrlParam(this, client, itemIndex);
	const defaultZone = this.getTimezone();
	let build: (uid: string) => { data: string; uid: string };
	let components = ['VEVENT'];
	if (input === 'raw') {
		const raw = this.getNodeParameter('iCalendar', itemIndex, '') as string;
		if (!raw.trim())
			throw new NodeOperationError(this.getNode(), 'No iCalendar text given', { itemIndex });
		const probe = normaliseRawCalendar(raw, 'probe');
		components = probe.components;
		build = (uid) => normaliseRawCalendar(raw, uid);
	} else {
		const summary = this.getNodeParameter('summary', itemIndex, '') as string;
		const start = this.getNodeParameter('start', itemIndex, '') as string;
		if (!start)
			throw new NodeOperationError(this.getNode(), 'The event needs a start', { itemIndex });
		const fields = eventFieldsFrom(this, itemIndex, {
			...(this.getNodeParameter('additionalFields', itemIndex, {}) as Record<string, unknown>),
			summary,
			start,
			end: this.getNodeParameter('end', itemIndex, '') as string,
			allDay: this.getNodeParameter('allDay', itemIndex, false) as boolean,
		});
		createEventData(fields, 'probe', defaultZone);
		build = (uid) => ({ data: createEventData(fields, uid, defaultZone), uid });
	}
	if (components.some((component) => component !== 'VEVENT')) {
		const calendar = await readCollection(client, calendarUrl, 'calendar');
		const refused = components.filter(
			(component) => calendar.components.length > 0 && !calendar.components.includes(component),
		);
		if (refused.length > 0) {
			throw new NodeOperationError(
				this.getNode(),
				`The calendar "${calendar.displayName}" does not accept ${refused.join(', ')}`,
				{
					itemIndex,
					description: `It supports ${calendar.components.join(', ')}. Choose a calendar that supports these components.`,
				},
			);
		}
	}
	const created = await explainingKind(client, calendarUrl, CREATE_CHECK, () =>
		createObject(client, calendarUrl, 'calendar', build),
	);
	return [
		{
			json: {
				...eventItem(created, includeRaw),
				calendarUrl,
				outcome: successOutcome(client, created),
			},
		},
	];
}
