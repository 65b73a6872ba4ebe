import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v1 } from '../../../shared/storage/client';
import { folderLink } from '../../../shared/storage/links';
import { writeOutcome } from '../../../shared/storage/reconcile';

const properties: INodeProperties[] = [
	{
		displayName:
			'Anonymous folders belong to no account and are deleted automatically after about a month. Keep the returned keys: they are the only way to add files or delete the folder.',
		name: 'anonymousNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Optional folder name',
	},
	{
		displayName: 'Access Type',
		name: 'accessType',
		type: 'options',
		default: 'LINK',
		options: [
			{ name: 'Link', value: 'LINK', description: 'Anyone with the link may view and list it' },
			{ name: 'Private', value: 'PRIVATE' },
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['createAnonymous'] } },
	properties,
);

interface CreatedUpload {
	hash: string;
	delete_key: string;
	add_key: string;
	UserID?: number | false;
	FolderName?: string;
}

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	const name = String(this.getNodeParameter('name', itemIndex, '') ?? '').trim();
	const accessType = this.getNodeParameter('accessType', itemIndex, 'LINK') as string;
	// Sent without credentials on purpose: with them the script would create the folder in the account.
	const response = await v1<CreatedUpload>(this, account, 'api/get_upload_id.php', {
		method: 'GET',
		query: { ...(name ? { folder_name: name } : {}), access_type: accessType },
		anonymous: true,
		write: {},
		itemIndex,
	});
	const { body } = response;
	return [
		{
			json: {
				type: 'folder',
				hash: body.hash,
				name: body.FolderName ?? (name || null),
				delete_key: body.delete_key,
				add_files_key: body.add_key,
				access_type: accessType,
				anonymous: true,
				expires_after: 'about one month',
				link: folderLink(account.webUrl, body.hash),
				...writeOutcome(response),
			},
		},
	];
}
