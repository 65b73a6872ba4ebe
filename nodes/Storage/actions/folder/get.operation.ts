import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { accessRightsField } from '../../../shared/storage/access-rights-field';
import { parallelRequests, parallelRequestsField } from '../../../shared/node/parallel';
import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';

const properties: INodeProperties[] = [
	folderLocator(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [accessRightsField, parallelRequestsField],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['get'] } },
	properties,
);

/** A plain read of one folder per item: items may overlap (Parallel Requests). */
export const concurrency = parallelRequests;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const folderHash = await folderHashParam(this, account, 'folder', itemIndex);
	const withRights = this.getNodeParameter('options.accessRights', itemIndex, false) as boolean;
	const { body } = await v2<IDataObject>(
		this,
		account,
		'get_folder_info',
		{ folder_hash: folderHash, get_access_rights: withRights || undefined },
		{ itemIndex },
	);
	return [{ json: withLink(account, body, 'folder') }];
}
