import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { storageAccount, v2 } from '../../shared/storage/client';
import { folderLink } from '../../shared/storage/links';
import { ROOT } from '../../shared/storage/locator';
import { rootFolderHash } from '../../shared/storage/root';

/** ROOT first, then the folders directly in ROOT, filtered by name. */
export async function searchFolders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const account = await storageAccount(this);
	const rootHash = await rootFolderHash(this, account);
	const { body } = await v2<IDataObject[]>(this, account, 'get_folder_content', { folder_hash: rootHash });
	const needle = (filter ?? '').toLowerCase();
	const folders = (Array.isArray(body) ? body : [])
		.filter((item) => item.type === 'folder' && String(item.name).toLowerCase().includes(needle))
		.map((item) => ({ name: String(item.name), value: String(item.hash), url: folderLink(account.webUrl, String(item.hash)) }))
		.sort((a, b) => a.name.localeCompare(b.name));
	const root = ROOT.toLowerCase().includes(needle) ? [{ name: ROOT, value: ROOT }] : [];
	return { results: [...root, ...folders] };
}
