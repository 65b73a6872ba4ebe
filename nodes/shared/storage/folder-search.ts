import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { TransportError } from '../transport';
import { accountInfo } from './account-info';
import { storageAccount, v2, type StorageAccount } from './client';
import { folderLink } from './links';
import { ROOT } from './locator';
import { fetchTree, flattenTree, isTreeRefusal } from './tree';

/** An HTTP status, whichever error carried it: the transport's, or n8n's helper's for a session call. */
function statusOf(error: unknown): number | undefined {
	const carrier = error as {
		httpCode?: unknown;
		status?: unknown;
		response?: { status?: unknown };
	};
	const status = Number(carrier?.httpCode ?? carrier?.response?.status ?? carrier?.status);
	return Number.isInteger(status) && status > 0 ? status : undefined;
}

/**
 * Whether the tree failed because the service refused it (the legacy script missing or refused, no edit key,
 * an answer that is no tree): the ROOT listing then still lets the user pick a top-level folder. A refused
 * credential (401), a rate limit, a service down or a network failure is thrown instead, so the list shows it
 * rather than a shortened list.
 */
function treeRefused(error: unknown): boolean {
	if (isTreeRefusal(error)) return true;
	if (error instanceof TransportError && error.code === 'CS_UNEXPECTED_BODY') return true;
	const status = statusOf(error) ?? 0;
	return status >= 400 && status < 500 && status !== 401 && status !== 429;
}

/** Every folder of the account with its path, from one recursive tree call. */
async function allFolders(
	ctx: ILoadOptionsFunctions,
	account: StorageAccount,
): Promise<Array<{ path: string; hash: string }>> {
	const me = await accountInfo(ctx, account);
	const tree = await fetchTree(
		ctx,
		account,
		String(me.root_upload_hash),
		me.root_upload_key as string | undefined,
	).catch((error: unknown) => {
		if (treeRefused(error)) return undefined;
		throw error;
	});
	if (tree)
		return flattenTree(tree)
			.entries.filter((entry) => entry.type === 'folder')
			.map((entry) => ({ path: entry.path, hash: entry.hash }));
	const { body } = await v2<IDataObject[]>(ctx, account, 'get_folder_content', {
		folder_hash: String(me.root_upload_hash),
	});
	return (Array.isArray(body) ? body : [])
		.filter((item) => item.type === 'folder')
		.map((item) => ({ path: String(item.name), hash: String(item.hash) }));
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
