import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { isRoot, locate, resolveHash, ROOT } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { writeOutcome } from '../../../shared/storage/reconcile';

const properties: INodeProperties[] = [
	folderLocator('parentFolder', {
		displayName: 'Parent Folder',
		default: { mode: 'id', value: ROOT },
		description: 'Where to create the folder; ROOT by default',
	}),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'Invoices',
		description:
			'Leave empty to let the service name it (YYYY-MM-DD_&lt;hash&gt;). If the name exists, the service adds " (1)".',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Access Type',
				name: 'accessType',
				type: 'options',
				default: 'PRIVATE',
				options: [
					{
						name: 'Private',
						value: 'PRIVATE',
						description: 'Only the owner and users it is shared with',
					},
					{
						name: 'Link',
						value: 'LINK',
						description: 'Anyone who has the link may view and list it',
					},
				],
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['create'] } },
	properties,
);

interface CreatedFolder {
	folder_hash: string;
	folder_edit_key: string;
	folder_upload_key: string;
	folder_name: string;
}

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const parentLocated = locate(this, 'parentFolder', 'folder', itemIndex);
	const name = (this.getNodeParameter('name', itemIndex, '') as string).trim();
	const options = this.getNodeParameter('options', itemIndex, {}) as { accessType?: string };
	if (options.accessType !== undefined && !['PRIVATE', 'LINK'].includes(options.accessType)) {
		throw new NodeOperationError(this.getNode(), `Unknown access type "${options.accessType}"`, {
			itemIndex,
			description: 'Use PRIVATE or LINK.',
		});
	}
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	// ROOT is the service's default parent, so it is left out rather than resolved to its hash.
	const parent = isRoot(parentLocated)
		? ROOT
		: await resolveHash(this, account, parentLocated, 'folder', itemIndex);
	const response = await v2<CreatedFolder>(
		this,
		account,
		'create_folder',
		{
			parent_folder_hash: parent === ROOT ? undefined : parent,
			folder_name: name || undefined,
			access_type: options.accessType,
		},
		{ itemIndex, write: {} },
	);
	const { body } = response;
	// The service's own field names stay as it answered them; the uniform names every folder output carries
	// (hash, name, delete_key, add_files_key) are added beside them.
	const folder: IDataObject = {
		...(body as unknown as IDataObject),
		hash: body.folder_hash,
		name: body.folder_name,
		delete_key: body.folder_edit_key,
		add_files_key: body.folder_upload_key,
		parent_folder_hash: parent === ROOT ? null : parent,
		access_type: options.accessType ?? null,
	};
	return [{ json: { ...withLink(account, folder, 'folder'), ...writeOutcome(response) } }];
}
