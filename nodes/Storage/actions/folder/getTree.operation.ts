import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { fileLink, folderLink } from '../../../shared/storage/links';
import { folderHashParam } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { fetchTree, type TreeNode } from '../../../shared/storage/tree';

const properties: INodeProperties[] = [
	{
		displayName:
			'The documents list the tree node fields without an example: nodes with Type "file" are taken as files, all others as folders, and dates as YYYY-MM-DD HH:MM:SS (UTC).',
		name: 'treeNotice',
		type: 'notice',
		default: '',
	},
	folderLocator(),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'flat',
		options: [
			{
				name: 'One Item per Entry',
				value: 'flat',
				description:
					'Each folder (and file, where the service lists them) as an item, with its path and depth',
			},
			{
				name: 'Whole Tree in One Item',
				value: 'tree',
				description: 'The nested tree as the service returns it',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['getTree'] } },
	properties,
);

function flatten(
	node: TreeNode,
	webUrl: string,
	path: string,
	depth: number,
	out: INodeExecutionData[],
): void {
	const { Children, ...fields } = node;
	const hash = String(node.Hash ?? '');
	out.push({
		json: {
			...fields,
			path,
			depth,
			link: node.Type === 'file' ? fileLink(webUrl, hash) : folderLink(webUrl, hash),
		},
	});
	for (const child of Array.isArray(Children) ? Children : []) {
		flatten(
			child,
			webUrl,
			path ? `${path}/${String(child.Name)}` : String(child.Name),
			depth + 1,
			out,
		);
	}
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const hash = await folderHashParam(this, account, 'folder', itemIndex);
	// The tree script wants the folder's edit key as proof of rights, so it is looked up first.
	const { body: info } = await v2<IDataObject>(
		this,
		account,
		'get_folder_info',
		{ folder_hash: hash },
		{ itemIndex },
	);
	const tree = await fetchTree(
		this,
		account,
		hash,
		info.delete_key as string | undefined,
		itemIndex,
	);
	if (this.getNodeParameter('output', itemIndex, 'flat') === 'tree')
		return [{ json: tree as IDataObject }];
	const items: INodeExecutionData[] = [];
	flatten(tree, account.webUrl, '', 0, items);
	return items;
}
