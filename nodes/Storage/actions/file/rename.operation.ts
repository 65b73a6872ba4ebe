import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount } from '../../../shared/storage/client';
import { fileHashParam } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { nameField } from '../common/fields';
import { requiredName } from '../common/names';
import { renameProven } from '../common/rename-proof';

const properties: INodeProperties[] = [
	fileLocator(),
	nameField(
		'New Name',
		'The service may normalize it and adds " (1)" if the name is taken in the folder',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['rename'] } },
	properties,
);

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const name = requiredName(this, 'name', itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	const renamed = await renameProven(this, account, 'file', fileHash, name, itemIndex);
	const { outcome, ...named } = renamed;
	return [{ json: { ...withLink(account, named, 'file'), ...outcome } }];
}
