import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listCollections } from '../../../shared/dav/discovery';
import { eventClient } from '../common';
import { calendarItem } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: true,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['calendar'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const client = await eventClient(this, itemIndex);
	const calendars = await listCollections(client, 'calendar');
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limited = returnAll
		? calendars
		: calendars.slice(0, this.getNodeParameter('limit', itemIndex, 50) as number);
	return limited.map((calendar) => ({ json: calendarItem(calendar) }));
}
