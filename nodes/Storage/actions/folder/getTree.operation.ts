import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v1, v2 } from '../../../shared/storage/client';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { fileLink, folderLink } from '../../../shared/storage/links';

const properties: INodeProperties[] = [
	folderLocator(),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'flat',
		options: [
			{ name: 'One Item per Entry', value: 'flat', description: 'Each folder (and file, where the service lists them) as an item, with its path and depth' },
			{ name: 'Whole Tree in One Item', value: 'tree', description: 'The nested tree as the service returns it' },
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['folder'], operation: ['getTree'] } }, properties);

interface TreeNode extends IDataObject {
	Hash?: string;
	Name?: string;
	Children?: TreeNode[] | false;
}

interface TreeAnswer {
	error?: string | null;
	data?: TreeNode;
}

function flatten(node: TreeNode, webUrl: string, path: string, depth: number, out: INodeExecutionData[]): void {
	const { Children, ...fields } = node;
	const link = node.Type === 'file' ? fileLink(webUrl, String(node.Hash ?? '')) : folderLink(webUrl, String(node.Hash ?? ''));
	out.push({ json: { ...fields, path, depth, link } });
	for (const child of Array.isArray(Children) ? Children : []) {
		flatten(child, webUrl, path ? `${path}/${String(child.Name)}` : String(child.Name), depth + 1, out);
	}
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const hash = await folderHashParam(this, account, 'folder', itemIndex);
	// The tree script wants the folder's edit key as proof of rights, so it is looked up first.
	const { body: info } = await v2<IDataObject>(this, account, 'get_folder_info', { folder_hash: hash }, { itemIndex });
	const { body } = await v1<TreeAnswer>(this, account, 'api/get_upload_tree.php', {
		form: { Hash: hash, DeleteKey: info.delete_key as string | undefined },
		itemIndex,
	});
	if (!body?.data || body.error) {
		throw new NodeApiError(this.getNode(), { message: 'tree refused' }, {
			itemIndex,
			message: `The service did not return the folder tree${body?.error ? `: ${body.error}` : ''}`,
			description: 'Check that this account may edit the folder (the tree needs its edit key).',
		});
	}
	if (this.getNodeParameter('output', itemIndex, 'flat') === 'tree') return [{ json: body.data }];
	const items: INodeExecutionData[] = [];
	flatten(body.data, account.webUrl, '', 0, items);
	return items;
}
