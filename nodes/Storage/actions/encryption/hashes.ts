import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Located } from '../../../shared/storage/locator';

export const encryptedFolderField: INodeProperties = {
	displayName: 'Key of Encrypting User',
	name: 'isEncryptedFolder',
	type: 'boolean',
	default: false,
	description:
		'Whether to fetch the key created by the user who encrypted the folder (isEncryptedFolder)',
};

/** Encryption actions name items by hash only; ROOT and path links are not encryptable targets. */
export function plainHash(ctx: IExecuteFunctions, located: Located, itemIndex: number): string {
	if ('hash' in located) return located.hash;
	throw new NodeOperationError(
		ctx.getNode(),
		'Encryption keys need a file or folder hash or share link',
		{
			itemIndex,
			description: 'ROOT and /pa/ path links cannot be used here.',
		},
	);
}
