import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { parallelRequests, parallelRequestsField } from '../../../shared/node/parallel';
import { requireAccount, storageAccount, v1 } from '../../../shared/storage/client';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';

const properties: INodeProperties[] = [
	folderLocator(),
	{
		displayName: 'Upload Key Only',
		name: 'addKeyOnly',
		type: 'boolean',
		default: false,
		description:
			'Whether to fetch only the upload (add-files) key, which a folder shared with this account may grant without the edit key',
	},
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
	{ show: { resource: ['folder'], operation: ['getKeys'] } },
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
	const hash = await folderHashParam(this, account, 'folder', itemIndex);
	if (this.getNodeParameter('addKeyOnly', itemIndex, false)) {
		const { body } = await v1<{ add_key?: string }>(this, account, 'api/get_add_key.php', {
			method: 'GET',
			query: { hash },
			mode: 'session',
			itemIndex,
		});
		return [{ json: { hash, add_files_key: body?.add_key ?? null } }];
	}
	const { body } = await v1<{ AddFileKey?: string; DeleteKey?: string }>(
		this,
		account,
		'api/get_upload_keys.php',
		{
			method: 'GET',
			query: { hash },
			itemIndex,
		},
	);
	return [
		{
			json: { hash, add_files_key: body?.AddFileKey ?? null, delete_key: body?.DeleteKey ?? null },
		},
	];
}
