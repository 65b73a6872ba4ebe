import { json } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import { imageDimensions } from '../image-size.ts';
import { normalizeName } from '../naming.ts';
import { fileRights, folderRights } from '../rights.ts';
import type { Store } from '../store.ts';
import type { Account, StoredFile } from '../types.ts';
import type { V1Script } from './v1.ts';
import { GET_SCRIPT } from './v1-common.ts';
import { restoreScript } from './v1-restore.ts';

/** Scripts whose documented result has a `success` field answer failures with it false and a message. */
const failure = (status: number, message: string) => json({ success: false, message }, status);

const EXTENSION_TYPES: Record<string, string[]> = {
	image: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg', 'bmp', 'tif', 'tiff', 'heic'],
	video: ['mp4', 'mov', 'avi', 'mkv', 'webm'],
	audio: ['mp3', 'wav', 'ogg', 'flac', 'm4a'],
	document: [
		'pdf',
		'doc',
		'docx',
		'xls',
		'xlsx',
		'ppt',
		'pptx',
		'odt',
		'ods',
		'txt',
		'rtf',
		'csv',
		'edoc',
		'asice',
	],
	archive: ['zip', 'gz', 'tar', '7z', 'rar'],
};

export function extensionOf(name: string): string {
	const dot = name.lastIndexOf('.');
	return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function extensionType(extension: string): string {
	for (const [type, list] of Object.entries(EXTENSION_TYPES))
		if (list.includes(extension)) return type;
	return 'other';
}

/** `Size` is the human-readable form, `RealSize` the byte count. */
function humanSize(bytes: number): string {
	const units = ['B', 'KB', 'MB', 'GB', 'TB'];
	let value = bytes;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${unit === 0 ? value : Number(value.toFixed(2))} ${units[unit]}`;
}

function legacyFileInfo(file: StoredFile) {
	const extension = extensionOf(file.name);
	const type = extensionType(extension);
	const dimensions = type === 'image' ? imageDimensions(file.blobPath) : undefined;
	return {
		Name: file.name,
		ContentType: file.mime,
		Extension: extension,
		ExtensionType: type,
		Size: humanSize(file.size),
		RealSize: file.size,
		CustomInfo: dimensions ?? {},
	};
}

/** POST action=get_file_hash_by_name: a logged-in caller with view rights on `upload_hash`. */
function hashByName(req: SandboxRequest, store: Store, caller: Account | undefined) {
	if (!caller) return failure(401, 'Login required');
	const folderHash = req.fields.get('upload_hash');
	const wanted = normalizeName(req.fields.get('file_name') ?? '').toLowerCase();
	if (!folderHash || !wanted) return failure(400, 'upload_hash and file_name are required');
	const folder = store.folder(folderHash);
	if (!folder) return failure(405, 'Folder not found');
	if (!folderRights(folder, caller).allow_view) return failure(403, 'Access denied');
	// Names are unique case-insensitively within a folder, so at most one file matches.
	const file = store
		.filesIn(folder.id)
		.find(
			(candidate) =>
				candidate.name.toLowerCase() === wanted && fileRights(store, candidate, caller).allow_view,
		);
	if (!file) return failure(405, 'File not found');
	return json({ success: true, file_info: { hash: file.hash } });
}

export const v1FileScripts: Record<string, V1Script> = {
	/**
	 * GET with `hash` and `del_key` in the query (the file's delete key is the authorization); POST with
	 * `action=get_file_hash_by_name`. A POST without that action, or the action sent by GET, is not a
	 * documented form: 405 like any other wrong method.
	 */
	get_file_info: {
		methods: ['GET', 'POST'],
		auth: 'optional',
		handle(req, { store }, caller) {
			if (req.method === 'POST') {
				if (req.fields.get('action') !== 'get_file_hash_by_name')
					return failure(405, 'Unknown action');
				return hashByName(req, store, caller);
			}
			const hash = req.query.get('hash');
			const key = req.query.get('del_key');
			if (!hash || !key) return failure(400, 'hash and del_key are required');
			const file = store.file(hash);
			if (!file) return failure(405, 'File not found');
			if (key !== file.deleteKey) return failure(403, 'Wrong del_key');
			return json({ success: true, file_info: legacyFileInfo(file) });
		},
	},

	/**
	 * The spec only says "returns file edit keys". Choice: `hash` (or `file_hash`) plus credentials with
	 * edit rights → `{success, hash, delete_key}` (a file's only edit key is its delete key).
	 */
	get_file_keys: {
		methods: GET_SCRIPT,
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('hash') ?? req.fields.get('file_hash');
			if (!hash) return failure(400, 'hash is required');
			const file = store.file(hash);
			if (!file) return failure(405, 'File not found');
			if (!fileRights(store, file, caller).allow_edit) return failure(403, 'Access denied');
			return json({
				success: true,
				hash: file.hash,
				delete_key: file.deleteKey,
			});
		},
	},

	undelete_file: restoreScript('file'),
};
