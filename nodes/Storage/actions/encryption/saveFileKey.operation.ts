import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locate } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { encryptionAction, keyField, opaque, userIdField } from './common';
import { plainHash } from './hashes';

const properties: INodeProperties[] = [
	fileLocator(),
	keyField(
		'Encryption Key',
		'encryptionKey',
		"The file's content key, already wrapped for the owner",
	),
	keyField('Key Signature', 'keySignature', 'Signature over the wrapped key'),
	keyField('File Signature', 'fileSignature', 'Optional signature over the file content', false),
	userIdField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['encryption'], operation: ['saveFileKey'] } },
	properties,
);

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const fileHash = plainHash(this, locate(this, 'file', 'file', itemIndex), itemIndex);
	const fields = {
		fileHash,
		encryptionKey: opaque(this, 'encryptionKey', 'Encryption key', itemIndex),
		keySignature: opaque(this, 'keySignature', 'Key signature', itemIndex),
		fileSignature: opaque(this, 'fileSignature', 'File signature', itemIndex, false),
	};
	return [
		{
			json: {
				fileHash,
				...(await encryptionAction(this, 'save_file_encryption_key', fields, itemIndex, true)),
			},
		},
	];
}
