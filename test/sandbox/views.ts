import { effectiveFileType, fileRights, fileRightsView, folderRights } from './rights.ts';
import { fileCount, folderSize } from './stats.ts';
import type { Store } from './store.ts';
import type { Account, Folder, StoredFile } from './types.ts';

/** `null` when the caller cannot view the parent (and always for ROOT). */
function visibleParentHash(
	store: Store,
	parentId: number,
	caller: Account | undefined,
): string | null {
	const parent = store.folderById(parentId);
	return parent && folderRights(parent, caller).allow_view ? parent.hash : null;
}

/** The spec's Folder table (`get_folder_info`). */
export function folderInfo(
	store: Store,
	folder: Folder,
	caller: Account | undefined,
	withRights: boolean,
) {
	const rights = folderRights(folder, caller);
	return {
		hash: folder.hash,
		name: folder.name,
		size: folderSize(store, folder.id),
		timestamp_uploaded: folder.created,
		timestamp_last_modified: folder.modified,
		delete_key: rights.allow_delete ? folder.editKey : null,
		parent_folder_hash: visibleParentHash(store, folder.parentId, caller),
		add_files_key: rights.allow_add ? folder.uploadKey : null,
		file_count: fileCount(store, folder.id),
		subfolder_count: store.subfolders(folder.id).length,
		access_type: folder.accessType,
		password_protected: folder.password !== null,
		price_set: folder.price !== null,
		...(withRights ? { access_rights: rights } : {}),
	};
}

/** The spec's File table (`get_file_info`). */
export function fileInfo(
	store: Store,
	file: StoredFile,
	caller: Account | undefined,
	withRights: boolean,
) {
	const rights = fileRights(store, file, caller);
	const parent = store.folders.get(file.folderId);
	return {
		hash: file.hash,
		name: file.name,
		size: file.size,
		timestamp_uploaded: file.created,
		timestamp_last_modified: file.modified,
		delete_key: rights.allow_delete ? file.deleteKey : null,
		parent_folder_hash: visibleParentHash(store, file.folderId, caller),
		access_type: effectiveFileType(store, file),
		password_protected: parent?.password != null,
		price_set: file.price !== null || parent?.price != null,
		...(withRights ? { access_rights: fileRightsView(rights) } : {}),
	};
}

/** Elements of `get_folder_content`: folders first, then files, each in creation order. */
export function folderContent(
	store: Store,
	folder: Folder,
	caller: Account | undefined,
	withRights: boolean,
) {
	const folders = store
		.subfolders(folder.id)
		.filter((child) => folderRights(child, caller).allow_view)
		.map((child) => {
			const rights = folderRights(child, caller);
			return {
				type: 'folder',
				hash: child.hash,
				name: child.name,
				size: folderSize(store, child.id),
				timestamp_uploaded: child.created,
				timestamp_last_modified: child.modified,
				delete_key: rights.allow_delete ? child.editKey : null,
				add_files_key: rights.allow_add ? child.uploadKey : null,
				...(withRights ? { access_rights: rights } : {}),
			};
		});
	const files = store
		.filesIn(folder.id)
		.filter((file) => fileRights(store, file, caller).allow_view)
		.map((file) => {
			const rights = fileRights(store, file, caller);
			return {
				type: 'file',
				hash: file.hash,
				name: file.name,
				size: file.size,
				timestamp_uploaded: file.created,
				timestamp_last_modified: file.modified,
				delete_key: rights.allow_delete ? file.deleteKey : null,
				add_files_key: null,
				...(withRights ? { access_rights: fileRightsView(rights) } : {}),
			};
		});
	return [...folders, ...files];
}
