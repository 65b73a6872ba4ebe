import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locate } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { encryptionAction, userIdField } from './common';
import { encryptedFolderField, plainHash } from './hashes';

const properties: INodeProperties[] = [folderLocator(), encryptedFolderField, userIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['encryption'], operation: ['getFolderKey'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const uploadHash = plainHash(this, locate(this, 'folder', 'folder', itemIndex), itemIndex);
	const isEncryptedFolder = this.getNodeParameter('isEncryptedFolder', itemIndex, false) as boolean;
	const body = await encryptionAction(
		this,
		'get_upload_encryption_key',
		{ uploadHash, isEncryptedFolder: isEncryptedFolder || undefined },
		itemIndex,
		false,
	);
	return [{ json: { uploadHash, ...body } }];
}
