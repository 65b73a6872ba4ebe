import { empty, json, type Reply } from '../http/reply.ts';
import { flag } from '../http/request.ts';
import { fileRights, folderRights } from '../rights.ts';
import type { Store } from '../store.ts';
import { trashFile } from '../trash.ts';
import type { Account, StoredFile } from '../types.ts';
import { fileInfo } from '../views.ts';
import type { V2Action } from './v2.ts';
import { nameField } from './v2-folders.ts';
import { isUnavailable } from '../unavailable.ts';

/** Changes with every content replacement (`save_file.php?do=update`), even to identical bytes. */
export function etagOf(file: StoredFile): string {
	return `"${file.sha256.slice(0, 16)}-${file.version}"`;
}

/**
 * Shared by V2 download_file and the legacy `down.php`: LINK files are open, PRIVATE ones need the owner.
 * The documents give download_file only a Content-Type, so V2 answers carry no Content-Disposition (a
 * client must name the file itself); the browser-facing `down.php` sends one.
 */
export function downloadReply(
	store: Store,
	hash: string | null,
	caller: Account | undefined,
	withDisposition = false,
): Reply {
	const file = store.file(hash);
	if (!file) return empty(405);
	if (!fileRights(store, file, caller).allow_download) return empty(caller ? 403 : 401);
	return {
		status: 200,
		headers: {
			'Content-Type': file.mime,
			...(withDisposition
				? { 'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}` }
				: {}),
			ETag: etagOf(file),
		},
		file: { path: file.blobPath, size: file.size },
	};
}

export const v2FileActions: Record<string, V2Action> = {
	download_file: {
		auth: 'optional',
		handle: (req, { store }, caller) => downloadReply(store, req.fields.get('file_hash'), caller),
	},

	get_file_info: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('file_hash');
			if (!hash) return empty(400);
			const file = store.file(hash);
			if (!file || isUnavailable(store, hash)) return empty(405);
			if (!fileRights(store, file, caller).allow_view) return empty(403);
			return json(fileInfo(store, file, caller, flag(req.fields.get('get_access_rights'))));
		},
	},

	rename_file: {
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('file_hash');
			const rawName = req.fields.get('file_name');
			if (!hash || rawName === null) return empty(400);
			const file = store.file(hash);
			if (!file || !fileRights(store, file, caller).allow_edit) return empty(405);
			const name = nameField(rawName);
			if (!name) return empty(400);
			return json({ file_hash: file.hash, file_name: store.renameFile(file, name) });
		},
	},

	/** Every failure is 405 here (the spec lists neither 400 nor 403). ROOT is a valid target: only uploads into it are forbidden. */
	move_file: {
		auth: 'required',
		handle(req, { store }, caller) {
			const file = store.file(req.fields.get('file_hash'));
			const target = store.folder(req.fields.get('folder_hash'));
			if (!file || !target) return empty(405);
			if (!fileRights(store, file, caller).allow_edit || !folderRights(target, caller).allow_add)
				return empty(405);
			if (file.ownerId !== target.ownerId) return empty(405);
			store.moveFile(file, target);
			return empty(200);
		},
	},

	delete_file: {
		auth: 'required',
		handle(req, { store }, caller) {
			const file = store.file(req.fields.get('file_hash'));
			if (!file) return empty(405);
			if (!fileRights(store, file, caller).allow_delete) return empty(403);
			trashFile(store, file);
			return empty(200);
		},
	},
};
