import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { expandCalendarData } from '../../../shared/dav/event-view';
import { eventsInRange } from '../../../shared/dav/range-query';
import { explainingKind } from '../../../shared/dav/resource-kind';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { calendarUrlParam, eventClient, eventItem } from '../common';
import { includeRawOption } from './fields';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = [
	collectionLocator('calendar'),
	{
		displayName: 'After',
		name: 'timeMin',
		type: 'dateTime',
		default: '',
		description:
			'Events ending after this time (UTC unless it carries an offset); empty: no lower bound',
	},
	{
		displayName: 'Before',
		name: 'timeMax',
		type: 'dateTime',
		default: '',
		description: 'Events starting before this time; empty: no upper bound',
	},
	{
		displayName: 'Expand Recurring Events',
		name: 'expand',
		type: 'boolean',
		default: false,
		description:
			'Whether to return each occurrence of a recurring series in the range (rules, exceptions, moved and cancelled instances applied) instead of the series once. Needs After and Before.',
	},
	...returnAllFields(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [includeRawOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['getAll'] } },
	properties,
);

function dateParam(ctx: IExecuteFunctions, name: string, itemIndex: number): Date | undefined {
	const value = ctx.getNodeParameter(name, itemIndex, '') as string;
	if (!value) return undefined;
	// A time without offset from the date picker is read as UTC, as the time-range filter is.
	const date = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
	if (Number.isNaN(date.getTime()))
		throw new NodeOperationError(ctx.getNode(), `"${value}" is not a valid date`, { itemIndex });
	return date;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const start = dateParam(this, 'timeMin', itemIndex);
	const end = dateParam(this, 'timeMax', itemIndex);
	const expand = this.getNodeParameter('expand', itemIndex, false) as boolean;
	if (expand && (!start || !end)) {
		throw new NodeOperationError(this.getNode(), 'Expanding recurring events needs a range', {
			itemIndex,
			description: 'Set both After and Before.',
		});
	}
	if (start && end && end <= start)
		throw new NodeOperationError(this.getNode(), 'Before must be later than After', { itemIndex });
	const includeRaw = this.getNodeParameter('options.includeRaw', itemIndex, false) as boolean;
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const client = await eventClient(this, itemIndex);
	const calendarUrl = calendarUrlParam(this, client, itemIndex);
	const objects = await explainingKind(
		client,
		calendarUrl,
		{ operation: 'Get Many Events', want: 'calendar', nothing: 'Nothing was read.' },
		() => eventsInRange(client, calendarUrl, { start, end }, 'Querying events'),
	);
	const items: IDataObject[] = [];
	for (const object of objects) {
		if (!expand) {
			items.push(eventItem(object, includeRaw));
			continue;
		}
		for (const occurrence of expandCalendarData(
			object.data,
			start!.getTime() / 1000,
			end!.getTime() / 1000,
		)) {
			items.push({
				url: object.url,
				etag: object.etag ?? null,
				...(occurrence as IDataObject),
				...(includeRaw ? { iCalendar: object.data } : {}),
			});
		}
	}
	if (expand) items.sort((a, b) => String(a.start).localeCompare(String(b.start)));
	return items.slice(0, limit).map((json) => ({ json }));
}
