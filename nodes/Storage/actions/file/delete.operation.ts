import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2 } from '../../../shared/storage/client';
import { locatedHash } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';

const properties: INodeProperties[] = [fileLocator()];

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const fileHash = locatedHash(this, 'file', 'file', itemIndex);
	const account = await storageAccount(this);
	await v2(this, account, 'delete_file', { file_hash: fileHash }, { itemIndex, write: true });
	return [{ json: { hash: fileHash, deleted: true } }];
}
