import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locate } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { encryptionAction, keyField, opaque, userIdField } from './common';
import { plainHash } from './hashes';

const properties: INodeProperties[] = [
	folderLocator(),
	keyField(
		'Encryption Key',
		'encryptionKey',
		"The folder's content key, already wrapped for the owner",
	),
	keyField('Key Signature', 'keySignature', 'Signature over the wrapped key'),
	userIdField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['encryption'], operation: ['saveFolderKey'] } },
	properties,
);

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const uploadHash = plainHash(this, locate(this, 'folder', 'folder', itemIndex), itemIndex);
	const fields = {
		uploadHash,
		encryptionKey: opaque(this, 'encryptionKey', 'Encryption key', itemIndex),
		keySignature: opaque(this, 'keySignature', 'Key signature', itemIndex),
	};
	return [
		{
			json: {
				uploadHash,
				...(await encryptionAction(this, 'save_upload_encryption_key', fields, itemIndex, true)),
			},
		},
	];
}
