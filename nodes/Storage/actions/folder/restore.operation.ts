import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount } from '../../../shared/storage/client';
import { locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { restore } from '../common/restore';

const properties: INodeProperties[] = [
	{
		displayName:
			'The documents name the restore script but not its parameters: the node POSTs the hash as hash and folder_hash. See the README section "Where the documents are silent".',
		name: 'restoreNotice',
		type: 'notice',
		default: '',
	},
	{
		...folderLocator('folder', { default: { mode: 'id', value: '' } }),
		description:
			'Hash of the deleted folder (for example from the Delete output). Needs a PRO, BUSINESS or ENTERPRISE account.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['restore'] } },
	properties,
);

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const located = locate(this, 'folder', 'folder', itemIndex);
	const account = await storageAccount(this, itemIndex);
	const hash = await resolveHash(this, account, located, 'folder', itemIndex);
	const outcome = await restore(this, account, 'folder', hash, itemIndex);
	return [{ json: { ...withLink(account, { hash }, 'folder'), restored: true, ...outcome } }];
}
