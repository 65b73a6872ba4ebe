import { empty, text, type Reply } from '../http/reply.ts';
import { flag, type SandboxRequest } from '../http/request.ts';
import type { Ctx } from '../router.ts';
import type { Account } from '../types.ts';
import { checkUpload, isReply, stampWatermark, uploadTarget } from './v2-upload.ts';

/**
 * Root script `save_file.php`: upload into `up_id` authorized by its add key `key` (or the owner's
 * credentials), or with `do=update&replace_file_hash=` replace a file of that folder in place (same hash,
 * name and keys; new bytes, modification time and ETag). Same checks and statuses as V2 upload_file.
 * The body is the file hash with `get_file_hash`, else empty (the spec shows no other result).
 * The replace flow beyond `do=update` + `replace_file_hash` is not documented: the sandbox's choice is that
 * the file must be in `up_id` and keeps its hash, name and keys.
 */
export function saveFile(req: SandboxRequest, ctx: Ctx, caller: Account | undefined): Reply {
	const { store } = ctx;
	// Every parameter is documented in the query; the multipart body carries only the file.
	const params = req.query;
	const placed = uploadTarget(req, store, caller, { folder: 'up_id', key: 'key' }, params);
	if (isReply(placed)) return placed;
	const { folder, upload } = placed;
	const answer = (hash: string) => text(flag(params.get('get_file_hash')) ? hash : '');

	if (params.get('do') === 'update') {
		const target = store.file(params.get('replace_file_hash'));
		if (!target || target.folderId !== folder.id) return empty(405);
		const accepted = checkUpload(store, folder, upload, params, target);
		if (isReply(accepted)) return accepted;
		store.replaceContent(target, {
			...stampWatermark(upload, accepted.watermark, accepted.name),
			watermark: accepted.watermark,
		});
		return answer(target.hash);
	}
	const accepted = checkUpload(store, folder, upload, params);
	if (isReply(accepted)) return accepted;
	const stored = stampWatermark(upload, accepted.watermark, accepted.name);
	const file = store.addFile(folder, {
		name: accepted.name,
		tmpPath: stored.tmpPath,
		size: stored.size,
		sha256: stored.sha256,
		watermark: accepted.watermark,
	});
	return answer(file.hash);
}
