import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { withClient } from '../common/call';

const properties: INodeProperties[] = [
	{
		displayName:
			'Server discovery exists in protocol version 2026-07-28 only; choose it under Protocol Version.',
		name: 'discoverNotice',
		type: 'notice',
		default: '',
		displayOptions: { hide: { protocolVersion: ['2026-07-28'] } },
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['server'], operation: ['discover'] } },
	properties,
);

/** `server/discover`: the per-request revision's server information (versions, capabilities, server info). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const result = await withClient(this, itemIndex, async (client) => await client.discover());
	return [{ json: result as IDataObject }];
}
