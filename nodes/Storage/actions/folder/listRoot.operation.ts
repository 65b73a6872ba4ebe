import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v1 } from '../../../shared/storage/client';
import { folderLink } from '../../../shared/storage/links';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = returnAllFields();

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['listRoot'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const { body } = await v1<IDataObject[]>(this, account, 'api/upload_list.php', {
		method: 'GET',
		itemIndex,
	});
	const rows = Array.isArray(body) ? body : [];
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limited = returnAll
		? rows
		: rows.slice(0, this.getNodeParameter('limit', itemIndex, 50) as number);
	return limited.map((row) => ({
		json: { type: 'folder', ...row, link: folderLink(account.webUrl, String(row.hash)) },
	}));
}
