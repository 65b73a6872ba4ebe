import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { createCollection } from '../../../shared/dav/collections';
import { discoverHome } from '../../../shared/dav/discovery';
import { DavError } from '../../../shared/dav/errors';
import { successOutcome } from '../../../shared/dav-node/client';
import { notAppliedError, notAppliedOption } from '../../../shared/dav-node/not-applied';
import { contactClient } from '../common';
import { bookItem, bookProps, descriptionField } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'displayName',
		type: 'string',
		default: '',
		required: true,
		description: 'Display name of the new address book',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [descriptionField],
	},
	notAppliedOption,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['addressBook'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const displayName = (this.getNodeParameter('displayName', itemIndex, '') as string).trim();
	if (!displayName)
		throw new NodeOperationError(this.getNode(), 'The address book needs a name', { itemIndex });
	const client = await contactClient(this, itemIndex);
	const props = bookProps(this, itemIndex, displayName, 'additionalFields');
	const home = await discoverHome(client, 'addressbook');
	// The collection's name in the URL is generated; the display name is what users see.
	const url = new URL(`${randomUUID()}/`, home.endsWith('/') ? home : `${home}/`).href;
	const { collection, notApplied } = await createCollection(client, 'addressbook', url, props);
	if (
		notApplied.length > 0 &&
		this.getNodeParameter('options.ifNotApplied', itemIndex, 'output') === 'error'
	)
		throw new DavError(...notAppliedError('address book', collection.url, notApplied));
	return [{ json: { ...bookItem(collection), notApplied, outcome: successOutcome(client) } }];
}
