import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locate } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { encryptionAction, userIdField } from './common';
import { encryptedFolderField, plainHash } from './hashes';

const properties: INodeProperties[] = [fileLocator(), encryptedFolderField, userIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['encryption'], operation: ['getFileKey'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fileHash = plainHash(this, locate(this, 'file', 'file', itemIndex), itemIndex);
	const isEncryptedFolder = this.getNodeParameter('isEncryptedFolder', itemIndex, false) as boolean;
	const body = await encryptionAction(
		this,
		'get_file_encryption_key',
		{ fileHash, isEncryptedFolder: isEncryptedFolder || undefined },
		itemIndex,
		false,
	);
	return [{ json: { fileHash, ...body } }];
}
