import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { accountInfo } from './account-info';
import type { Listing } from './changes';
import { v2, type StorageAccount } from './client';
import { isRoot, locate, resolveHash } from './locator';
import { fetchTree, flattenTree, isAccountRoot, listFolder } from './tree';

export interface ScopeListing extends Listing {
	/** ROOT with subfolders: every file of the account is listed, so a missing one was deleted. */
	wholeAccount: boolean;
}

/**
 * One poll's view of the watched folder. With subfolders: the folder's edit key (from the account data
 * for ROOT, else from get_folder_info) and the recursive tree, two requests however many folders there
 * are. Without: get_folder_content, one request (plus the account data for ROOT).
 */
export async function listScope(
	ctx: IPollFunctions,
	account: StorageAccount,
	recursive: boolean,
): Promise<ScopeListing> {
	const located = locate(ctx, 'folder', 'folder', 0);
	if (!recursive) {
		const hash = await resolveHash(ctx, account, located, 'folder', 0);
		return { ...(await listFolder(ctx, account, hash)), wholeAccount: false };
	}
	let hash: string;
	let editKey: string | undefined;
	if (isRoot(located)) {
		const me = await accountInfo(ctx, account);
		hash = String(me.root_upload_hash ?? '');
		editKey = me.root_upload_key as string | undefined;
	} else {
		hash = await resolveHash(ctx, account, located, 'folder', 0);
		const { body } = await v2<IDataObject>(ctx, account, 'get_folder_info', { folder_hash: hash });
		editKey = (body?.delete_key as string | null) ?? undefined;
	}
	const tree = await fetchTree(ctx, account, hash, editKey);
	return { ...flattenTree(tree), wholeAccount: isAccountRoot(tree) };
}
