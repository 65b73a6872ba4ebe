import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { explainingKind } from '../../../shared/dav/resource-kind';
import { objectUrlField } from '../../../shared/dav-node/locators';
import { contactClient, contactItem, contactUrlParam, includeRawOption } from '../common';

const properties: INodeProperties[] = [
	objectUrlField('contact'),
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
	{ show: { resource: ['contact'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const includeRaw = this.getNodeParameter('options.includeRaw', itemIndex, false) as boolean;
	const client = await contactClient(this, itemIndex);
	const url = contactUrlParam(this, client, itemIndex);
	const object = await explainingKind(
		client,
		url,
		{ operation: 'Get Contact', want: 'object', nothing: 'Nothing was read.' },
		() => client.get(url),
	);
	return [{ json: contactItem(object, includeRaw) }];
}
