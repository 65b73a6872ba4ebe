import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import {
	requireAccount,
	storageAccount,
	v2,
	type StorageAccount,
} from '../../../shared/storage/client';
import { fileHashParam, locate, resolveHash } from '../../../shared/storage/locator';
import { fileLocator, folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { writeOutcome } from '../../../shared/storage/reconcile';
import { toNodeError } from '../../../shared/node/node-error';

const properties: INodeProperties[] = [
	fileLocator(),
	folderLocator('targetFolder', {
		displayName: 'Target Folder',
		description: 'A folder of the same account; ROOT is allowed',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['move'] } },
	properties,
);

/** A move is checked by reading where the file is, so an uncertain move is never sent twice. */
async function movedAlready(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	fileHash: string,
	target: string,
	itemIndex: number,
) {
	const { body } = await v2<IDataObject>(
		ctx,
		account,
		'get_file_info',
		{ file_hash: fileHash },
		{ itemIndex },
	);
	return body?.parent_folder_hash === target ? {} : undefined;
}

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	// Only uploading into ROOT is forbidden by the documents; moving a file there is allowed.
	const target = locate(this, 'targetFolder', 'folder', itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const fileHash = await fileHashParam(this, account, 'file', itemIndex);
	const targetHash = await resolveHash(this, account, target, 'folder', itemIndex);
	let response;
	try {
		response = await v2(
			this,
			account,
			'move_file',
			{ file_hash: fileHash, folder_hash: targetHash },
			{
				itemIndex,
				write: {
					reconcile: async () => await movedAlready(this, account, fileHash, targetHash, itemIndex),
				},
			},
		);
	} catch (error) {
		// The transport's failures are PackErrors: in n8n's form first, so the fix can be added to its text.
		const known = toNodeError(this.getNode(), error, itemIndex);
		const apiError =
			known instanceof NodeApiError
				? known
				: new NodeApiError(this.getNode(), error as JsonObject, { itemIndex });
		if (String(apiError.httpCode) === '405') {
			apiError.description =
				'The service refused the move (405): the file or the target folder does not exist, the target belongs to another account (moves stay within one account), or this account may not edit them.';
		}
		throw apiError;
	}
	return [
		{
			json: withLink(
				account,
				{ hash: fileHash, parent_folder_hash: targetHash, moved: true },
				'file',
			),
			...writeOutcome(response),
		},
	];
}
