import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readCollection } from '../../../shared/dav/discovery';
import { proppatchBody } from '../../../shared/dav/requests';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { calendarUrlParam, eventClient } from '../common';
import { calendarItem, calendarPropertyFields, calendarProps } from './fields';

const properties: INodeProperties[] = [
	collectionLocator('calendar'),
	{ displayName: 'Name', name: 'displayName', type: 'string', default: '', description: 'New display name; leave empty to keep it' },
	calendarPropertyFields('updateFields'),
];

export const description = updateDisplayOptions({ show: { resource: ['calendar'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const client = await eventClient(this, itemIndex);
	const url = calendarUrlParam(this, client, itemIndex);
	const props = calendarProps(this, itemIndex, (this.getNodeParameter('displayName', itemIndex, '') as string).trim(), 'updateFields');
	if (Object.values(props).every((value) => value === undefined)) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', { itemIndex, description: 'Set a name or add a field to change.' });
	}
	await client.write('PROPPATCH', url, proppatchBody('calendar', props), 'Updating the calendar');
	return [{ json: calendarItem(await readCollection(client, url, 'calendar')) }];
}
