import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount } from '../../../shared/storage/client';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { restore } from '../common/restore';

const properties: INodeProperties[] = [
	{
		displayName:
			'The documents name the restore script but not its parameters: the node POSTs the hash as hash and file_hash. See the README section "Where the documents are silent".',
		name: 'restoreNotice',
		type: 'notice',
		default: '',
	},
	{
		...fileLocator(),
		description:
			'Hash of the deleted file (for example from the Delete output). Needs a PRO, BUSINESS or ENTERPRISE account.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['restore'] } },
	properties,
);

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	const hash = await fileHashParam(this, account, 'file', itemIndex);
	const outcome = await restore(this, account, 'file', hash, itemIndex);
	return [{ json: { ...withLink(account, { hash }, 'file'), restored: true, ...outcome } }];
}
