import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v1 } from '../../../shared/storage/client';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { fileLink, folderLink } from '../../../shared/storage/links';

const properties: INodeProperties[] = [
	{
		displayName: 'Lists a LINK or PUBLIC folder without credentials. The service rate-limits and delays anonymous listings per IP (about 2 seconds each); a rate limit is waited out automatically.',
		name: 'publicNotice',
		type: 'notice',
		default: '',
	},
	{ ...folderLocator('folder', { default: { mode: 'url', value: '' } }), description: 'The shared folder\'s link or hash' },
];

export const description = updateDisplayOptions({ show: { resource: ['folder'], operation: ['listPublic'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	const hash = await folderHashParam(this, account, 'folder', itemIndex);
	const { body } = await v1<IDataObject[]>(this, account, 'api/get_file_list_for_upload.php', {
		method: 'GET',
		qs: { hash, include_folders: 1 },
		// With a credential the listing is neither throttled nor delayed; without one it is the public view.
		anonymous: !account.credentialType,
		itemIndex,
	});
	return (Array.isArray(body) ? body : []).map((entry) => {
		const isFolder = entry.type === 'folder' || entry.Size === undefined;
		const childHash = String(entry.hash);
		return {
			json: {
				...entry,
				size: entry.Size !== undefined ? Number(entry.Size) : undefined,
				parent_folder_hash: hash,
				link: isFolder ? folderLink(account.webUrl, childHash) : fileLink(account.webUrl, childHash),
			},
		};
	});
}
