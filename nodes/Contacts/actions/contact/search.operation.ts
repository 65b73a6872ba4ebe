import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { searchContactsByName } from '../../../shared/dav/objects';
import { describeVcard } from '../../../shared/dav/vcard';
import { explainingKind } from '../../../shared/dav/resource-kind';
import { collectionLocator } from '../../../shared/dav-node/locators';
import {
	addressBookUrlParam,
	contactClient,
	contactItem,
	includeRawOption,
	supportsMultiget,
} from '../common';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = [
	collectionLocator('addressbook'),
	{
		displayName: 'Name Contains',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		description: 'Text the full name contains, ignoring case (e.g. part of a first or last name)',
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
	{ show: { resource: ['contact'], operation: ['search'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const query = (this.getNodeParameter('query', itemIndex, '') as string).trim();
	if (!query)
		throw new NodeOperationError(this.getNode(), 'Enter the text to search for', { itemIndex });
	const includeRaw = this.getNodeParameter('options.includeRaw', itemIndex, false) as boolean;
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const client = await contactClient(this, itemIndex);
	const url = addressBookUrlParam(this, client, itemIndex);
	const { objects } = await explainingKind(
		client,
		url,
		{ operation: 'Search Contacts', want: 'addressbook', nothing: 'Nothing was read.' },
		() =>
			searchContactsByName(
				client,
				url,
				query,
				(data) => describeVcard(data).fullName,
				async () => await supportsMultiget(client, url),
			),
	);
	return objects.slice(0, limit).map((object) => ({ json: contactItem(object, includeRaw) }));
}
