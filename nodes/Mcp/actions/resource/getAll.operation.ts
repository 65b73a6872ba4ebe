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

const properties: INodeProperties[] = [
	{
		displayName:
			'The documents do not show which resources the endpoint lists: public documentation resources need no credential; private ones need the Bearer token.',
		name: 'resourcesNotice',
		type: 'notice',
		default: '',
	},
	...returnAllFields(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['resource'], operation: ['getAll'] } },
	properties,
);

/** `resources/list`, following `nextCursor` across pages. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const resources = await withClient(
		this,
		itemIndex,
		async (client) => await listAll(client, 'resources/list', 'resources'),
	);
	return resources.slice(0, limit).map((resource) => ({ json: resource as IDataObject }));
}
