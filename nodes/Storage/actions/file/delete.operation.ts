import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { isGone } from '../common/gone';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';

const properties: INodeProperties[] = [
	{
		...fileLocator(),
		description:
			'The file to delete. Deleted files can be restored on PRO, BUSINESS and ENTERPRISE accounts.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	await v2(
		this,
		account,
		'delete_file',
		{ file_hash: fileHash },
		{
			itemIndex,
			write: true,
			// After a lost answer the file's info tells: 405 means it is gone, so the delete was applied.
			reconcile: async () =>
				(await isGone(this, account, 'get_file_info', { file_hash: fileHash }, itemIndex))
					? {}
					: undefined,
		},
	);
	return [{ json: { hash: fileHash, deleted: true } }];
}
