import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { updateCollection } from '../../../shared/dav/collections';
import { DavError } from '../../../shared/dav/errors';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { calendarUrlParam, eventClient } from '../common';
import { successOutcome } from '../../../shared/dav-node/client';
import { notAppliedError, notAppliedOption } from '../../../shared/dav-node/not-applied';
import { calendarItem, calendarPropertyFields, calendarProps } from './fields';

const properties: INodeProperties[] = [
	collectionLocator('calendar'),
	{
		displayName: 'Name',
		name: 'displayName',
		type: 'string',
		default: '',
		description: 'New display name; leave empty to keep it',
	},
	calendarPropertyFields('updateFields'),
	notAppliedOption,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['calendar'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const client = await eventClient(this, itemIndex);
	const url = calendarUrlParam(this, client, itemIndex);
	const props = calendarProps(
		this,
		itemIndex,
		(this.getNodeParameter('displayName', itemIndex, '') as string).trim(),
		'updateFields',
	);
	if (Object.values(props).every((value) => value === undefined)) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', {
			itemIndex,
			description: 'Set a name or add a field to change.',
		});
	}
	const { collection, notApplied } = await updateCollection(client, 'calendar', url, props);
	if (
		notApplied.length > 0 &&
		this.getNodeParameter('options.ifNotApplied', itemIndex, 'output') === 'error'
	)
		throw new DavError(...notAppliedError('calendar', collection.url, notApplied));
	return [{ json: { ...calendarItem(collection), notApplied, outcome: successOutcome(client) } }];
}
