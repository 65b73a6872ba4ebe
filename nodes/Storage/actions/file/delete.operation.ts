import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount } from '../../../shared/storage/client';
import { deleteProven } from '../common/gone';
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

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	const { outcome } = await deleteProven(this, account, 'file', fileHash, itemIndex);
	return [{ json: { hash: fileHash, deleted: true, ...outcome } }];
}
