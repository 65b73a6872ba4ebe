import { empty, json } from '../http/reply.ts';
import { flag } from '../http/request.ts';
import { MAX_NAME_LENGTH, normalizeName } from '../naming.ts';
import { folderRights } from '../rights.ts';
import { trashFolder } from '../trash.ts';
import type { AccessType } from '../types.ts';
import { folderContent, folderInfo } from '../views.ts';
import type { V2Action } from './v2.ts';

const CREATABLE_TYPES: readonly AccessType[] = ['LINK', 'PRIVATE'];

/** A name field after normalization: undefined when absent or blank, null when unusable. */
export function nameField(raw: string | null): string | undefined | null {
	if (raw === null || raw.trim() === '') return undefined;
	const name = normalizeName(raw);
	return name && name.length <= MAX_NAME_LENGTH ? name : null;
}

export const v2FolderActions: Record<string, V2Action> = {
	create_folder: {
		auth: 'required',
		handle(req, { store }, caller) {
			const parentHash = req.fields.get('parent_folder_hash');
			// The spec lists no 403 here: someone else's or a missing parent is "not permitted" (405).
			const parent = parentHash ? store.folder(parentHash) : store.rootOf(caller!);
			if (!parent || parent.ownerId !== caller!.id) return empty(405);
			const requestedType = req.fields.get('access_type');
			// Spec silent on the default; PRIVATE is the safe choice and exposes clients that forget to send LINK.
			let accessType: AccessType = 'PRIVATE';
			if (requestedType !== null && requestedType !== '') {
				if (!CREATABLE_TYPES.includes(requestedType as AccessType)) return empty(400);
				accessType = requestedType as AccessType;
			}
			const name = nameField(req.fields.get('folder_name'));
			if (name === null) return empty(400);
			const folder = store.createFolder(caller!, parent, name, accessType);
			return json({
				folder_hash: folder.hash,
				folder_edit_key: folder.editKey,
				folder_upload_key: folder.uploadKey,
				folder_name: folder.name,
			});
		},
	},

	get_folder_content: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('folder_hash');
			if (!hash) return empty(400);
			const folder = store.folder(hash);
			if (!folder) return empty(405);
			if (!folderRights(folder, caller).allow_view) return empty(403);
			return json(folderContent(store, folder, caller, flag(req.fields.get('get_access_rights'))));
		},
	},

	get_folder_info: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('folder_hash');
			if (!hash) return empty(400);
			const folder = store.folder(hash);
			if (!folder) return empty(405);
			if (!folderRights(folder, caller).allow_view) return empty(403);
			return json(folderInfo(store, folder, caller, flag(req.fields.get('get_access_rights'))));
		},
	},

	rename_folder: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('folder_hash');
			// folder_name wins over its alias name when both are sent.
			const rawName = req.fields.get('folder_name') ?? req.fields.get('name');
			if (!hash || rawName === null) return empty(400);
			const folder = store.folder(hash);
			if (!folder || folder.isRoot || !folderRights(folder, caller).allow_edit) return empty(405);
			const name = nameField(rawName);
			if (!name) return empty(400);
			return json({ folder_hash: folder.hash, folder_name: store.renameFolder(folder, name) });
		},
	},

	delete_folder: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('folder_hash');
			if (!hash) return empty(400);
			const folder = store.folder(hash);
			if (!folder || folder.isRoot) return empty(405);
			if (!folderRights(folder, caller).allow_delete) return empty(403);
			trashFolder(store, folder);
			return json({ status: 'ok' });
		},
	},
};
