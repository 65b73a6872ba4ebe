import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { accountInfo } from '../../shared/storage/account-info';
import { storageAccount, v1, v2, type StorageAccount } from '../../shared/storage/client';
import { folderLink } from '../../shared/storage/links';
import { ROOT } from '../../shared/storage/locator';

interface TreeNode {
	Type?: string;
	Hash?: string;
	Name?: string;
	Children?: TreeNode[] | false;
}

function collect(node: TreeNode, path: string, out: Array<{ path: string; hash: string }>): void {
	for (const child of Array.isArray(node.Children) ? node.Children : []) {
		if (child.Type === 'file') continue;
		const childPath = path ? `${path}/${String(child.Name)}` : String(child.Name);
		if (child.Hash) out.push({ path: childPath, hash: child.Hash });
		collect(child, childPath, out);
	}
}

/** Every folder of the account with its path, from one recursive tree call. */
async function allFolders(ctx: ILoadOptionsFunctions, account: StorageAccount) {
	const me = await accountInfo(ctx, account);
	const folders: Array<{ path: string; hash: string }> = [];
	try {
		const { body } = await v1<{ data?: TreeNode }>(ctx, account, 'api/get_upload_tree.php', {
			form: { Hash: String(me.root_upload_hash), DeleteKey: me.root_upload_key as string | undefined },
		});
		if (body?.data) collect(body.data, '', folders);
		return folders;
	} catch {
		// The tree is a legacy script; the ROOT listing still lets the user pick a top-level folder.
		const { body } = await v2<IDataObject[]>(ctx, account, 'get_folder_content', { folder_hash: String(me.root_upload_hash) });
		return (Array.isArray(body) ? body : [])
			.filter((item) => item.type === 'folder')
			.map((item) => ({ path: String(item.name), hash: String(item.hash) }));
	}
}

export async function searchFolders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const account = await storageAccount(this);
	const needle = (filter ?? '').toLowerCase();
	const results: INodeListSearchItems[] = (await allFolders(this, account))
		.filter((folder) => folder.path.toLowerCase().includes(needle))
		.sort((a, b) => a.path.localeCompare(b.path))
		.map((folder) => ({ name: folder.path, value: folder.hash, url: folderLink(account.webUrl, folder.hash) }));
	const root = ROOT.toLowerCase().includes(needle) ? [{ name: ROOT, value: ROOT }] : [];
	return { results: [...root, ...results] };
}
