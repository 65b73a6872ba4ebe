import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listAll } from '../../../shared/mcp/protocol';
import { returnAllFields } from '../../../shared/node/list-fields';
import { withClient } from '../common/call';

const properties: INodeProperties[] = [...returnAllFields()];

export const description = updateDisplayOptions(
	{ show: { resource: ['resource'], operation: ['getTemplates'] } },
	properties,
);

/** `resources/templates/list`: the private resource templates (the documents: bearer required). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const templates = await withClient(
		this,
		itemIndex,
		async (client) => await listAll(client, 'resources/templates/list', 'resourceTemplates'),
	);
	return templates.slice(0, limit).map((template) => ({ json: template as IDataObject }));
}
