import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { updateCollection } from '../../../shared/dav/collections';
import { DavError } from '../../../shared/dav/errors';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { successOutcome } from '../../../shared/dav-node/client';
import { notAppliedError, notAppliedOption } from '../../../shared/dav-node/not-applied';
import { addressBookUrlParam, contactClient } from '../common';
import { bookItem, bookProps, descriptionField } from './fields';

const properties: INodeProperties[] = [
	collectionLocator('addressbook'),
	{
		displayName: 'Name',
		name: 'displayName',
		type: 'string',
		default: '',
		description: 'New display name; leave empty to keep it',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [descriptionField],
	},
	notAppliedOption,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['addressBook'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const client = await contactClient(this, itemIndex);
	const url = addressBookUrlParam(this, client, itemIndex);
	const props = bookProps(
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
	const { collection, notApplied } = await updateCollection(client, 'addressbook', url, props);
	if (
		notApplied.length > 0 &&
		this.getNodeParameter('options.ifNotApplied', itemIndex, 'output') === 'error'
	)
		throw new DavError(...notAppliedError('address book', collection.url, notApplied));
	return [{ json: { ...bookItem(collection), notApplied, outcome: successOutcome(client) } }];
}
