import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listAll } from '../../../shared/mcp/protocol';
import { withClient } from '../common/call';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = [...returnAllFields()];

export const description = updateDisplayOptions(
	{ show: { resource: ['tool'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const tools = await withClient(
		this,
		itemIndex,
		async (client) => await listAll(client, 'tools/list', 'tools'),
	);
	return tools.slice(0, limit).map((tool) => ({ json: tool as IDataObject }));
}
