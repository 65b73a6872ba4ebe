import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount } from '../../../shared/storage/client';
import { isRoot, locate, resolveHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { nameField } from '../common/fields';
import { requiredName } from '../common/names';
import { renameProven } from '../common/rename-proof';

const properties: INodeProperties[] = [
	folderLocator(),
	nameField(
		'New Name',
		'The service may normalize it and adds " (1)" if the name is taken in the parent folder',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['rename'] } },
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
		throw new NodeOperationError(this.getNode(), 'ROOT cannot be renamed', {
			itemIndex,
			description: 'Choose a folder inside ROOT.',
		});
	}
	const name = requiredName(this, 'name', itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const folderHash = await resolveHash(this, account, located, 'folder', itemIndex);
	const renamed = await renameProven(this, account, 'folder', folderHash, name, itemIndex);
	const { outcome, ...named } = renamed;
	return [{ json: { ...withLink(account, named, 'folder'), ...outcome } }];
}
