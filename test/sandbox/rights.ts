import type { Store } from './store.ts';
import type { AccessType, Account, Folder, StoredFile } from './types.ts';

export interface Rights {
	allow_view: boolean;
	allow_delete: boolean;
	allow_add: boolean;
	allow_edit: boolean;
	allow_download: boolean;
}

const NONE: Rights = {
	allow_view: false,
	allow_delete: false,
	allow_add: false,
	allow_edit: false,
	allow_download: false,
};
const ALL: Rights = {
	allow_view: true,
	allow_delete: true,
	allow_add: true,
	allow_edit: true,
	allow_download: true,
};
const READ: Rights = { ...NONE, allow_view: true, allow_download: true };

/** Types anyone who knows the hash may read; PASSWORD would need the password, which is not modelled yet. */
export function isOpen(type: AccessType): boolean {
	return type === 'LINK' || type === 'PUBLIC';
}

/** Owner: everything. Others: read access to open folders. Shares (later) slot in here. */
export function folderRights(folder: Folder, caller: Account | undefined): Rights {
	if (caller && caller.id === folder.ownerId) return { ...ALL };
	return isOpen(folder.accessType) ? { ...READ } : { ...NONE };
}

export function effectiveFileType(store: Store, file: StoredFile): AccessType {
	return file.accessType ?? store.folders.get(file.folderId)?.accessType ?? 'PRIVATE';
}

export function fileRights(store: Store, file: StoredFile, caller: Account | undefined): Rights {
	if (caller && caller.id === file.ownerId) return { ...ALL };
	return isOpen(effectiveFileType(store, file)) ? { ...READ } : { ...NONE };
}

/** Files have no add right in the spec's access_rights object. */
export function fileRightsView(rights: Rights): Omit<Rights, 'allow_add'> {
	const { allow_add: _ignored, ...rest } = rights;
	return rest;
}
