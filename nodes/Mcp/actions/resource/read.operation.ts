import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { JsonObject } from '../../../shared/mcp/protocol';
import { binariesOf, withClient } from '../common/call';

const properties: INodeProperties[] = [
	{
		displayName: 'URI',
		name: 'uri',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. docs://storage-api',
		description:
			"The resource's URI: a docs:// documentation resource (public) or a private resource of the account",
	},
	{
		displayName: 'Put Files in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description: 'The binary field for binary contents of the resource',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['resource'], operation: ['read'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const uri = (this.getNodeParameter('uri', itemIndex, '') as string).trim();
	if (!/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(uri)) {
		throw new NodeOperationError(this.getNode(), `"${uri}" is not a resource URI`, {
			itemIndex,
			description: 'Give a URI with a scheme, such as docs://storage-api.',
		});
	}
	const result = await withClient(
		this,
		itemIndex,
		async (client) => await client.request('resources/read', { uri }),
	);
	const contents = (Array.isArray(result.contents) ? result.contents : []) as JsonObject[];
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const { binary, rest } = await binariesOf(this, contents, propertyName);
	const json: IDataObject = { uri, contents: rest };
	return [{ json, ...(Object.keys(binary).length ? { binary } : {}) }];
}
