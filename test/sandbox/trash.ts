import { uniqueName } from './naming.ts';
import type { Store } from './store.ts';
import type { Folder, StoredFile } from './types.ts';

export function trashFile(store: Store, file: StoredFile): void {
	file.deleted = store.nextTrashMark();
	const parent = store.folders.get(file.folderId);
	if (parent) store.touch(parent);
}

/** Marks the folder and everything live below it; the blobs stay on disk for `api/undelete_*.php`. */
export function trashFolder(store: Store, folder: Folder): void {
	const mark = store.nextTrashMark();
	const visit = (current: Folder) => {
		for (const file of store.filesIn(current.id)) file.deleted = mark;
		for (const child of store.subfolders(current.id)) visit(child);
		current.deleted = mark;
	};
	visit(folder);
	const parent = store.folders.get(folder.parentId);
	if (parent) store.touch(parent);
}

/** Restores a trashed item with its whole delete batch; false when its parent is not live. */
export function restoreItem(store: Store, item: Folder | StoredFile): boolean {
	const isFile = 'blobPath' in item;
	const parent = store.folderById(isFile ? item.folderId : item.parentId);
	if (!item.deleted || !parent) return false;
	const batch = item.deleted.batch;
	for (const each of [...store.folders.values(), ...store.files.values()]) {
		if (each.deleted?.batch === batch) each.deleted = null;
	}
	const siblings = isFile
		? store.siblingFileNames(parent.id, item.id)
		: store.siblingFolderNames(parent.id, item.id);
	item.name = uniqueName(item.name, siblings, isFile);
	store.touch(parent);
	return true;
}
