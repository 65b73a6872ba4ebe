import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listCollections } from '../../../shared/dav/discovery';
import { eventClient } from '../common';
import { calendarItem } from './fields';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = [...returnAllFields()];

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
