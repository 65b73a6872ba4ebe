import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount } from '../../../shared/storage/client';
import { deleteProven } from '../common/gone';
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

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

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
	const { body, outcome } = await deleteProven(this, account, 'folder', folderHash, itemIndex);
	if (body?.status === 'error') {
		throw new NodeOperationError(this.getNode(), 'The service could not delete the folder', {
			itemIndex,
			description:
				'It answered status "error". Check that the folder exists and that this account may delete it.',
		});
	}
	return [{ json: { hash: folderHash, deleted: true, ...outcome } }];
}
