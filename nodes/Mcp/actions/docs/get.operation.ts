import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { textOf } from '../../../shared/mcp/protocol';
import { callTool, valueOf, withClient } from '../common/call';

const properties: INodeProperties[] = [
	{
		displayName: 'Document URI',
		name: 'uri',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. docs://storage-api',
		description: 'The docs:// URI of a published document, as Search Documentation returns it',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['docs'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const uri = (this.getNodeParameter('uri', itemIndex, '') as string).trim();
	if (!/^docs:\/\/\S+$/.test(uri)) {
		throw new NodeOperationError(this.getNode(), `"${uri}" is not a docs:// URI`, {
			itemIndex,
			description: 'Use a URI such as docs://storage-api, as Search Documentation returns it.',
		});
	}
	const result = await withClient(
		this,
		itemIndex,
		async (client) => await callTool(client, 'storage_get_doc', { uri }),
	);
	const value = valueOf(result);
	const json: IDataObject =
		value && typeof value === 'object' && !Array.isArray(value)
			? (value as IDataObject)
			: { uri, text: textOf(result.content) };
	return [{ json }];
}
