import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { callTool, valueOf, withClient } from '../common/call';

const properties: INodeProperties[] = [
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. upload file',
		description:
			'Keywords to look for in the public API documentation (keyword search with a few aliases, not semantic)',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50 },
		default: 50,
		description: 'Max number of results to return',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['docs'], operation: ['search'] } },
	properties,
);

/** Results as items; an answer shaped differently than expected is passed on whole rather than lost. */
function resultItems(value: unknown): IDataObject[] {
	if (Array.isArray(value)) return value as IDataObject[];
	if (value && typeof value === 'object') {
		const list = Object.values(value).find(Array.isArray);
		if (list) return list as IDataObject[];
		return [value as IDataObject];
	}
	return [{ text: value as string }];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const query = (this.getNodeParameter('query', itemIndex, '') as string).trim();
	if (!query) {
		throw new NodeOperationError(this.getNode(), 'The search query is empty', {
			itemIndex,
			description: 'Enter one or more keywords, such as "upload" or "folder".',
		});
	}
	const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
	const result = await withClient(
		this,
		itemIndex,
		async (client) => await callTool(client, 'storage_search_docs', { query, limit }),
	);
	return resultItems(valueOf(result)).map((json) => ({ json }));
}
