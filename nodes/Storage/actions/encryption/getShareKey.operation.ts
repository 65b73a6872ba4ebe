import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { locate } from '../../../shared/storage/locator';
import { fileLocator, folderLocator } from '../../../shared/storage/locator-fields';
import { encryptionAction, userIdField } from './common';
import { plainHash } from './hashes';

const properties: INodeProperties[] = [
	{
		displayName: 'Receiver E-Mail',
		name: 'receiverEmail',
		type: 'string',
		placeholder: 'name@example.com',
		default: '',
		required: true,
		description: 'The recipient must have published their public keys',
	},
	{
		displayName: 'Share',
		name: 'shareKind',
		type: 'options',
		default: 'file',
		options: [
			{ name: 'File', value: 'file' },
			{ name: 'Folder', value: 'folder' },
		],
	},
	{ ...fileLocator(), displayOptions: { show: { shareKind: ['file'] } } },
	{ ...folderLocator(), displayOptions: { show: { shareKind: ['folder'] } } },
	userIdField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['encryption'], operation: ['getShareKey'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const receiverEmail = String(this.getNodeParameter('receiverEmail', itemIndex, '') ?? '').trim();
	if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(receiverEmail)) {
		throw new NodeOperationError(this.getNode(), `"${receiverEmail}" is not an e-mail address`, {
			itemIndex,
			description: "Enter the recipient's e-mail address.",
		});
	}
	const kind = this.getNodeParameter('shareKind', itemIndex, 'file') as 'file' | 'folder';
	const hash = plainHash(this, locate(this, kind, kind, itemIndex), itemIndex);
	// Exactly one of fileHash or uploadHash, as the spec demands.
	const target = kind === 'file' ? { fileHash: hash } : { uploadHash: hash };
	const body = await encryptionAction(
		this,
		'get_share_encryption_key',
		{ receiverEmail, ...target },
		itemIndex,
		false,
	);
	return [{ json: { receiverEmail, ...target, ...body } }];
}
