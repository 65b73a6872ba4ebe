import type { Store } from './store.ts';
import type { Account } from './types.ts';

/** Bytes of all live files in the folder and below. */
export function folderSize(store: Store, folderId: number): number {
	let size = store.filesIn(folderId).reduce((sum, file) => sum + file.size, 0);
	for (const child of store.subfolders(folderId)) size += folderSize(store, child.id);
	return size;
}

/** Files in the folder and its subfolders (the spec's `file_count`). */
export function fileCount(store: Store, folderId: number): number {
	let count = store.filesIn(folderId).length;
	for (const child of store.subfolders(folderId)) count += fileCount(store, child.id);
	return count;
}

export function usedBytes(store: Store, account: Account): number {
	let used = 0;
	for (const file of store.files.values())
		if (file.ownerId === account.id && !file.deleted) used += file.size;
	return used;
}
