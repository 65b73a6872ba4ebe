import { createHash } from 'node:crypto';
import fs from 'node:fs';

import { empty, json, type Reply } from '../http/reply.ts';
import type { SandboxRequest, UploadedFile } from '../http/request.ts';
import { hasDoubleExtension, normalizeName } from '../naming.ts';
import { folderSize } from '../stats.ts';
import type { Store } from '../store.ts';
import type { Account, Folder, StoredFile, Watermark } from '../types.ts';
import type { V2Action } from './v2.ts';

const POSITIONS = ['TOP_LEFT', 'TOP_RIGHT', 'BOTTOM_LEFT', 'BOTTOM_RIGHT'];

/** Recorded as sent (the sandbox draws nothing), so tests can assert the parameters arrived. */
function watermarkOf(fields: URLSearchParams): Watermark | null | 'invalid' {
	const text = fields.get('watermark_text');
	if (!text) return null;
	const position = fields.get('watermark_position') || 'BOTTOM_RIGHT';
	const color = fields.get('watermark_color') || 'F0FF3C';
	if (!POSITIONS.includes(position) || !/^[0-9A-Fa-f]{6}$/.test(color)) return 'invalid';
	return { text, position, color };
}

export interface AcceptedUpload {
	name: string;
	watermark: Watermark | null;
}

/**
 * The checks every upload path shares (V2 upload_file, `save_file.php` upload and replace), in the
 * service's order: request shape (400), 491 double extension, 493 file size, 492 folder size, 490 virus.
 * `replacing` is the file whose bytes an update would free, for the folder-size sum.
 */
export function checkUpload(
	store: Store,
	folder: Folder,
	upload: UploadedFile,
	fields: URLSearchParams,
	replacing?: StoredFile,
): AcceptedUpload | Reply {
	const name = normalizeName(upload.filename);
	const watermark = watermarkOf(fields);
	if (!name || watermark === 'invalid') return empty(400);
	if (hasDoubleExtension(name)) return empty(491);
	const owner = store.owner(folder.ownerId);
	if (upload.overCap || upload.size > owner.fileSizeLimit) return empty(493);
	const after = folderSize(store, folder.id) - (replacing?.size ?? 0) + upload.size;
	if (owner.folderSizeLimit !== null && after > owner.folderSizeLimit) return empty(492);
	if (upload.virus) return empty(490);
	return { name, watermark };
}

/**
 * A watermark is stamped onto a JPG or PNG image (the documents name only these), so the stored bytes (and size and checksum) differ from those
 * sent. The sandbox draws nothing: it appends the stamp's text, which changes the size as drawing would.
 */
export function stampWatermark<T extends { tmpPath: string; size: number; sha256: string }>(
	upload: T,
	watermark: Watermark | null,
	name: string,
): T {
	if (!watermark || !/\.(jpe?g|png)$/i.test(name)) return upload;
	fs.appendFileSync(upload.tmpPath, `\nwatermark:${watermark.position}:${watermark.text}`);
	const bytes = fs.readFileSync(upload.tmpPath);
	return {
		...upload,
		size: bytes.length,
		sha256: createHash('sha256').update(bytes).digest('hex'),
	};
}

export const isReply = (value: object): value is Reply => 'status' in value;

/**
 * Where an upload goes and whether the caller may put it there, shared by V2 upload_file and
 * `save_file.php` (which name their fields differently): one file part, an existing folder, its upload
 * key or the owner's credentials, and never ROOT ("Do not upload directly into ROOT": 405).
 */
export function uploadTarget(
	req: SandboxRequest,
	store: Store,
	caller: Account | undefined,
	fieldNames: { folder: string; key: string },
	params: URLSearchParams = req.fields,
): { folder: Folder; upload: UploadedFile } | Reply {
	if (!req.multipart) return empty(400);
	const folderHash = params.get(fieldNames.folder);
	const [upload, ...extra] = req.files;
	if (!folderHash || !upload || upload.field !== 'file' || extra.length) return empty(400);
	const folder = store.folder(folderHash);
	if (!folder) return empty(405);
	const key = params.get(fieldNames.key);
	if (!(key && key === folder.uploadKey)) {
		if (!caller) return empty(401);
		if (caller.id !== folder.ownerId) return empty(405);
	}
	if (folder.isRoot) return empty(405);
	return { folder, upload };
}

export const v2UploadActions: Record<string, V2Action> = {
	upload_file: {
		auth: 'optional',
		handle(req, { store }, caller) {
			const target = uploadTarget(req, store, caller, {
				folder: 'folder_hash',
				key: 'folder_upload_key',
			});
			if (isReply(target)) return target;
			const { folder, upload } = target;
			const accepted = checkUpload(store, folder, upload, req.fields);
			if (isReply(accepted)) return accepted;
			const stored = stampWatermark(upload, accepted.watermark, accepted.name);
			const file = store.addFile(folder, {
				name: accepted.name,
				tmpPath: stored.tmpPath,
				size: stored.size,
				sha256: stored.sha256,
				watermark: accepted.watermark,
			});
			return json({
				file_hash: file.hash,
				file_delete_key: file.deleteKey,
				file_name: file.name,
				timestamp_uploaded: file.created,
				timestamp_last_modified: file.modified,
			});
		},
	},
};
