import { empty, json } from '../http/reply.ts';
import { hasDoubleExtension, normalizeName } from '../naming.ts';
import { folderSize } from '../stats.ts';
import type { Watermark } from '../types.ts';
import type { V2Action } from './v2.ts';

const POSITIONS = ['TOP_LEFT', 'TOP_RIGHT', 'BOTTOM_LEFT', 'BOTTOM_RIGHT'];

function watermarkOf(fields: URLSearchParams): Watermark | null | 'invalid' {
	const text = fields.get('watermark_text');
	if (!text) return null;
	const position = fields.get('watermark_position') || 'BOTTOM_RIGHT';
	const color = fields.get('watermark_color') || 'F0FF3C';
	if (!POSITIONS.includes(position) || !/^[0-9A-Fa-f]{6}$/.test(color)) return 'invalid';
	return { text, position, color };
}

export const v2UploadActions: Record<string, V2Action> = {
	upload_file: {
		auth: 'optional',
		handle(req, { store }, caller) {
			if (!req.multipart) return empty(400);
			const folderHash = req.fields.get('folder_hash');
			const [upload, ...extra] = req.files;
			if (!folderHash || !upload || upload.field !== 'file' || extra.length) return empty(400);
			const folder = store.folder(folderHash);
			if (!folder) return empty(405);
			const key = req.fields.get('folder_upload_key');
			if (!(key && key === folder.uploadKey)) {
				if (!caller) return empty(401);
				if (caller.id !== folder.ownerId) return empty(405);
			}
			// "Do not upload directly into ROOT": operation not permitted for the resource.
			if (folder.isRoot) return empty(405);
			const name = normalizeName(upload.filename);
			const watermark = watermarkOf(req.fields);
			if (!name || watermark === 'invalid') return empty(400);
			if (hasDoubleExtension(name)) return empty(491);
			const owner = store.accounts.get(folder.ownerId)!;
			if (upload.overCap || upload.size > owner.fileSizeLimit) return empty(493);
			if (owner.folderSizeLimit !== null && folderSize(store, folder.id) + upload.size > owner.folderSizeLimit) {
				return empty(492);
			}
			if (upload.virus) return empty(490);
			const file = store.addFile(folder, {
				name,
				tmpPath: upload.tmpPath,
				size: upload.size,
				sha256: upload.sha256,
				watermark,
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
