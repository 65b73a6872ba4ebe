import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { isGone } from '../common/gone';
import { isRoot, locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';

const properties: INodeProperties[] = [
	{
		...folderLocator(),
		description:
			'The folder to delete, with everything in it. Deleted folders can be restored on PRO, BUSINESS and ENTERPRISE accounts.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const located = locate(this, 'folder', 'folder', itemIndex);
	if (isRoot(located)) {
		throw new NodeOperationError(this.getNode(), 'ROOT cannot be deleted', {
			itemIndex,
			description: 'Choose a folder inside ROOT.',
		});
	}
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const folderHash = await resolveHash(this, account, located, 'folder', itemIndex);
	const { body } = await v2<{ status?: string }>(
		this,
		account,
		'delete_folder',
		{ folder_hash: folderHash },
		{
			itemIndex,
			write: true,
			// After a lost answer the folder's info tells: 405 means it is gone, so the delete was applied.
			reconcile: async () =>
				(await isGone(this, account, 'get_folder_info', { folder_hash: folderHash }, itemIndex))
					? { status: 'ok' }
					: undefined,
		},
	);
	if (body?.status === 'error') {
		throw new NodeOperationError(this.getNode(), 'The service could not delete the folder', {
			itemIndex,
			description:
				'It answered status "error". Check that the folder exists and that this account may delete it.',
		});
	}
	return [{ json: { hash: folderHash, deleted: true } }];
}
