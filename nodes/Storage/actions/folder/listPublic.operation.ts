import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v1 } from '../../../shared/storage/client';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { fileLink, folderLink } from '../../../shared/storage/links';

const properties: INodeProperties[] = [
	{
		displayName:
			'Lists a LINK or PUBLIC folder without credentials. The service rate-limits and delays anonymous listings per IP (about 2 seconds each); a rate limit is waited out automatically.',
		name: 'publicNotice',
		type: 'notice',
		default: '',
	},
	{
		...folderLocator('folder', { default: { mode: 'url', value: '' } }),
		description: "The shared folder's link or hash",
	},
	{
		displayName: 'Include Subfolders',
		name: 'includeFolders',
		type: 'boolean',
		default: true,
		description:
			'Whether to list the direct subfolders too (include_folders=1). The documented listing gives only hash, name and Size, so a subfolder cannot be told apart from a file: such entries get type "unknown" and both possible links. Turn this off to list files only, each with its file link.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['listPublic'] } },
	properties,
);

/**
 * The documented listing item is {hash, name, Size (a string)}: nothing tells a file from a folder. A
 * `type` field, where a service sends one, is used; otherwise an entry of a listing with folders is
 * marked "unknown" and carries both possible links instead of a guessed one.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	const hash = await folderHashParam(this, account, 'folder', itemIndex);
	const includeFolders = this.getNodeParameter('includeFolders', itemIndex, true) as boolean;
	const { body } = await v1<IDataObject[]>(this, account, 'api/get_file_list_for_upload.php', {
		method: 'GET',
		query: includeFolders ? { hash, include_folders: 1 } : { hash },
		// With a credential the listing is neither throttled nor delayed; without one it is the public view.
		anonymous: !account.credentialType,
		itemIndex,
	});
	if (!Array.isArray(body)) {
		throw new NodeOperationError(this.getNode(), 'The folder listing is not a list', {
			itemIndex,
			description:
				'api/get_file_list_for_upload.php is documented to answer an array of {hash, name, Size}. Check the Base URL and that the folder is shared by link.',
		});
	}
	return body.map((entry) => {
		const childHash = String(entry.hash);
		const declared =
			entry.type === 'file' || entry.type === 'folder' ? (entry.type as string) : undefined;
		const type = declared ?? (includeFolders ? 'unknown' : 'file');
		const links: IDataObject =
			type === 'file'
				? { link: fileLink(account.webUrl, childHash) }
				: type === 'folder'
					? { link: folderLink(account.webUrl, childHash) }
					: {
							link: null,
							possible_links: {
								file: fileLink(account.webUrl, childHash),
								folder: folderLink(account.webUrl, childHash),
							},
							type_note:
								'The documented listing does not say whether this is a file or a folder. Turn off "Include Subfolders" to list files only.',
						};
		return {
			json: {
				...entry,
				type,
				size:
					entry.Size !== undefined && entry.Size !== null && entry.Size !== ''
						? Number(entry.Size)
						: undefined,
				parent_folder_hash: hash,
				...links,
			},
		};
	});
}
