import { json } from '../http/reply.ts';
import { restoreItem } from '../trash.ts';
import type { Plan } from '../types.ts';
import type { V1Script } from './v1.ts';
import { UNDOCUMENTED_METHOD_SCRIPT } from './v1-common.ts';

const RESTORE_PLANS: readonly Plan[] = ['PRO', 'BUSINESS', 'ENTERPRISE'];

const failure = (status: number, message: string) => json({ success: false, message }, status);

/**
 * `api/undelete_file.php` / `api/undelete_folder.php` (parameters not documented: `hash`, or
 * `file_hash`/`folder_hash`). Other plans get 403 (the user lacks the right, whatever the item); an item
 * that is not in the caller's trash, or whose parent is gone, 405. The restored item takes a ` (1)`
 * suffix when its name was taken meanwhile.
 */
export function restoreScript(kind: 'file' | 'folder'): V1Script {
	return {
		methods: UNDOCUMENTED_METHOD_SCRIPT,
		auth: 'required',
		handle(req, { store }, caller) {
			if (!RESTORE_PLANS.includes(caller!.plan)) {
				return failure(403, 'Restoring deleted items needs a PRO, BUSINESS or ENTERPRISE account');
			}
			const hash = req.fields.get('hash') ?? req.fields.get(`${kind}_hash`);
			if (!hash) return failure(400, 'hash is required');
			const item = kind === 'file' ? store.trashedFile(hash) : store.trashedFolder(hash);
			if (!item || item.ownerId !== caller!.id)
				return failure(405, `No deleted ${kind} with this hash`);
			if (!restoreItem(store, item))
				return failure(405, `The ${kind}'s parent folder is deleted: restore it first`);
			return json({ success: true, hash: item.hash, name: item.name });
		},
	};
}
