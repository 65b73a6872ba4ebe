import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessRightsField } from '../../../shared/storage/access-rights-field';
import {
	requireAccount,
	storageAccount,
	v2,
	type StorageAccount,
} from '../../../shared/storage/client';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { contentItem } from '../../../shared/storage/outputs';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = [
	folderLocator(),
	...returnAllFields(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			accessRightsField,
			{
				displayName: 'Include Subfolders',
				name: 'recursive',
				type: 'boolean',
				default: false,
				description:
					'Whether to also list the content of every subfolder, at any depth (one request per folder). Each item gets its path.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['list'] } },
	properties,
);

interface Pending {
	hash: string;
	path: string;
}

async function listOne(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	hash: string,
	withRights: boolean,
	itemIndex: number,
) {
	// get_folder_content has no paging parameters: the whole listing comes in one answer.
	const { body } = await v2<IDataObject[]>(
		ctx,
		account,
		'get_folder_content',
		{ folder_hash: hash, get_access_rights: withRights || undefined },
		{ itemIndex },
	);
	return Array.isArray(body) ? body : [];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const start = await folderHashParam(this, account, 'folder', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		accessRights?: boolean;
		recursive?: boolean;
	};
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limit = returnAll
		? Number.POSITIVE_INFINITY
		: (this.getNodeParameter('limit', itemIndex, 50) as number);

	const results: INodeExecutionData[] = [];
	const queue: Pending[] = [{ hash: start, path: '' }];
	while (queue.length > 0 && results.length < limit) {
		const folder = queue.shift() as Pending;
		for (const child of await listOne(
			this,
			account,
			folder.hash,
			options.accessRights === true,
			itemIndex,
		)) {
			const path = folder.path ? `${folder.path}/${String(child.name)}` : String(child.name);
			if (results.length < limit) {
				const extra = options.recursive ? { path } : {};
				results.push({
					json: { ...contentItem(account, child), parent_folder_hash: folder.hash, ...extra },
				});
			}
			if (options.recursive && child.type === 'folder')
				queue.push({ hash: String(child.hash), path });
		}
	}
	return results;
}
