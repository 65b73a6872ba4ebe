import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parallelRequests, parallelRequestsField } from '../../../shared/node/parallel';
import { requireAccount, storageAccount, v1 } from '../../../shared/storage/client';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';

const properties: INodeProperties[] = [
	{
		displayName:
			'The documents say only that api/get_file_keys.php "returns file edit keys": the node sends the file hash as hash (GET, by session) and passes the answer on as it comes.',
		name: 'fileKeysNotice',
		type: 'notice',
		default: '',
	},
	fileLocator(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [parallelRequestsField],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['getKeys'] } },
	properties,
);

/** A plain read per item: items may overlap (Parallel Requests). */
export const concurrency = parallelRequests;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const hash = await fileHashParam(this, account, 'file', itemIndex);
	// The script's output is not shown in the spec beyond "file edit keys": it is passed on as it comes.
	const { body } = await v1<IDataObject>(this, account, 'api/get_file_keys.php', {
		method: 'GET',
		query: { hash },
		itemIndex,
	});
	return [
		{
			json: {
				hash,
				...(body && typeof body === 'object' && !Array.isArray(body) ? body : { keys: body }),
			},
		},
	];
}
