import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { accountInfo } from './account-info';
import { storageAccount, v2, type StorageAccount } from './client';
import { folderLink } from './links';
import { ROOT } from './locator';
import { fetchTree, flattenTree } from './tree';

/** Every folder of the account with its path, from one recursive tree call. */
async function allFolders(
	ctx: ILoadOptionsFunctions,
	account: StorageAccount,
): Promise<Array<{ path: string; hash: string }>> {
	const me = await accountInfo(ctx, account);
	try {
		const tree = await fetchTree(
			ctx,
			account,
			String(me.root_upload_hash),
			me.root_upload_key as string | undefined,
		);
		return flattenTree(tree)
			.entries.filter((entry) => entry.type === 'folder')
			.map((entry) => ({ path: entry.path, hash: entry.hash }));
	} catch {
		// The tree is a legacy script; the ROOT listing still lets the user pick a top-level folder.
		const { body } = await v2<IDataObject[]>(ctx, account, 'get_folder_content', {
			folder_hash: String(me.root_upload_hash),
		});
		return (Array.isArray(body) ? body : [])
			.filter((item) => item.type === 'folder')
			.map((item) => ({ path: String(item.name), hash: String(item.hash) }));
	}
}

/** The `searchFolders` list method behind `folderLocator()`: ROOT first, then every folder by path. */
export async function searchFolders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const account = await storageAccount(this);
	const needle = (filter ?? '').toLowerCase();
	const results: INodeListSearchItems[] = (await allFolders(this, account))
		.filter((folder) => folder.path.toLowerCase().includes(needle))
		.sort((a, b) => a.path.localeCompare(b.path))
		.map((folder) => ({
			name: folder.path,
			value: folder.hash,
			url: folderLink(account.webUrl, folder.hash),
		}));
	const root = ROOT.toLowerCase().includes(needle) ? [{ name: ROOT, value: ROOT }] : [];
	return { results: [...root, ...results] };
}
