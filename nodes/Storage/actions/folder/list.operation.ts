import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2 } from '../../../shared/storage/client';
import { resolvedFolderHash } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { contentItem } from '../../../shared/storage/outputs';
import { accessRightsOption } from '../common/access-rights';

const properties: INodeProperties[] = [
	folderLocator(),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: true,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	accessRightsOption,
];

export const description = updateDisplayOptions({ show: { resource: ['folder'], operation: ['list'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this);
	const folderHash = await resolvedFolderHash(this, account, 'folder', itemIndex);
	const withRights = this.getNodeParameter('options.accessRights', itemIndex, false) as boolean;
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	// get_folder_content has no paging parameters: the whole listing comes in one answer.
	const { body } = await v2<IDataObject[]>(
		this,
		account,
		'get_folder_content',
		{ folder_hash: folderHash, get_access_rights: withRights || undefined },
		{ itemIndex },
	);
	const items = Array.isArray(body) ? body : [];
	const limited = returnAll ? items : items.slice(0, this.getNodeParameter('limit', itemIndex, 50) as number);
	return limited.map((item) => ({ json: { ...contentItem(account, item), parent_folder_hash: folderHash } }));
}
