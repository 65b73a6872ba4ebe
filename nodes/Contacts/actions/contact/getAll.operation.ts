import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fetchObjects, listMembers } from '../../../shared/dav/objects';
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
	{ show: { resource: ['contact'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const includeRaw = this.getNodeParameter('options.includeRaw', itemIndex, false) as boolean;
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const client = await contactClient(this, itemIndex);
	const url = addressBookUrlParam(this, client, itemIndex);
	// PROPFIND lists members (the collection itself skipped); their data comes in multiget batches when advertised.
	const members = (
		await explainingKind(
			client,
			url,
			{ operation: 'Get Many Contacts', want: 'addressbook', nothing: 'Nothing was read.' },
			() => listMembers(client, url),
		)
	).slice(0, limit);
	const objects = await fetchObjects(
		client,
		url,
		'addressbook',
		members.map((member) => member.url),
		await supportsMultiget(client, url),
	);
	return objects.map((object) => ({ json: contactItem(object, includeRaw) }));
}
