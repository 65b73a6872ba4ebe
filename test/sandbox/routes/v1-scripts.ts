import { setTimeout as sleep } from 'node:timers/promises';
import { empty, json } from '../http/reply.ts';
import { sqlDateTime } from '../ids.ts';
import { folderRights, fileRights, isOpen } from '../rights.ts';
import { fileCount, folderSize, usedBytes } from '../stats.ts';
import type { Store } from '../store.ts';
import type { Folder } from '../types.ts';
import type { V1Script } from './v1.ts';
import { GET_SCRIPT } from './v1-common.ts';

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

interface TreeNode {
	Type: 'folder' | 'file';
	ID: number;
	Hash: string;
	AddFileKey: string | null;
	DeleteKey: string;
	ParentID: number;
	CreatedDate: string;
	ModifiedDate: string;
	Name: string;
	/** `false` for files and for empty folders, as the legacy script does. */
	Children: TreeNode[] | false;
}

function tree(store: Store, folder: Folder): TreeNode {
	const children: TreeNode[] = [
		...store.subfolders(folder.id).map((child) => tree(store, child)),
		...store.filesIn(folder.id).map(
			(file): TreeNode => ({
				Type: 'file',
				ID: file.id,
				Hash: file.hash,
				AddFileKey: null,
				DeleteKey: file.deleteKey,
				ParentID: folder.id,
				CreatedDate: sqlDateTime(file.created),
				ModifiedDate: sqlDateTime(file.modified),
				Name: file.name,
				Children: false,
			}),
		),
	];
	return {
		Type: 'folder',
		ID: folder.id,
		Hash: folder.hash,
		AddFileKey: folder.uploadKey,
		DeleteKey: folder.editKey,
		ParentID: folder.parentId,
		CreatedDate: sqlDateTime(folder.created),
		ModifiedDate: sqlDateTime(folder.modified),
		Name: folder.name,
		Children: children.length ? children : false,
	};
}

export const v1Scripts: Record<string, V1Script> = {
	/**
	 * Anonymous callers are rate-limited per IP and delayed; authenticated ones are neither. Items are the
	 * documented {hash, name, Size (string)} with nothing that tells a folder from a file; the owner also
	 * gets `delete_key` (the documents say only that anonymous callers get no keys). `include_folders` is
	 * documented as `=1`: only that spelling includes the folders.
	 */
	get_file_list_for_upload: {
		methods: GET_SCRIPT,
		auth: 'optional',
		async handle(req, { store, config, limiters }, caller) {
			if (!caller) {
				const { limit, windowMs, delayMs } = config.anonymousListing;
				if (!limiters.anonymousListing.hit(req.ip, limit, windowMs, Date.now()))
					return json({ error: 'rate_limited' }, 429);
				if (delayMs > 0) await sleep(delayMs);
			}
			const hash = req.query.get('hash');
			if (!hash) return empty(400);
			const folder = store.folder(hash);
			if (!folder) return empty(405);
			const owner = caller?.id === folder.ownerId;
			if (!owner && (!isOpen(folder.accessType) || folder.password !== null))
				return empty(caller ? 403 : 401);
			const folders =
				req.query.get('include_folders') === '1'
					? store
							.subfolders(folder.id)
							.filter((child) => folderRights(child, caller).allow_view)
							.map((child) => ({
								hash: child.hash,
								name: child.name,
								Size: String(folderSize(store, child.id)),
								...(owner ? { delete_key: child.editKey } : {}),
							}))
					: [];
			const files = store
				.filesIn(folder.id)
				.filter((file) => fileRights(store, file, caller).allow_view)
				.map((file) => ({
					hash: file.hash,
					name: file.name,
					Size: String(file.size),
					...(owner ? { delete_key: file.deleteKey } : {}),
				}));
			return json([...folders, ...files]);
		},
	},

	/**
	 * GET with `Hash` and `DeleteKey` in the query. Authorized by the folder's DeleteKey (edit key) or by the
	 * owner's credentials. File nodes (Type `file`) and the 'YYYY-MM-DD HH:MM:SS' dates are the sandbox's
	 * reading of the documented node fields; the documents show no example.
	 */
	get_upload_tree: {
		methods: GET_SCRIPT,
		auth: 'optional',
		handle(req, { store }, caller) {
			const hash = req.query.get('Hash');
			if (!hash) return json({ error: 'Hash is required', data: null }, 400);
			const folder = store.folder(hash);
			if (!folder) return json({ error: 'Folder not found', data: null }, 405);
			const key = req.query.get('DeleteKey');
			const allowed = (key && key === folder.editKey) || caller?.id === folder.ownerId;
			if (!allowed) return json({ error: 'Access denied', data: null }, caller || key ? 403 : 401);
			return json({ error: null, data: tree(store, folder) });
		},
	},

	upload_list: {
		methods: GET_SCRIPT,
		auth: 'required',
		handle(_req, { store }, caller) {
			const root = store.rootOf(caller!);
			return json(
				store.subfolders(root.id).map((folder) => ({
					hash: folder.hash,
					date: sqlDateTime(folder.created),
					description: folder.name,
					files: fileCount(store, folder.id),
					size: folderSize(store, folder.id),
					views: 0,
					valid_to_date: null,
				})),
			);
		},
	},

	get_storage_data: {
		methods: GET_SCRIPT,
		auth: 'required',
		handle(_req, { store }, caller) {
			const used = usedBytes(store, caller!);
			const free = Math.max(0, caller!.quotaBytes - used);
			return json({
				success: true,
				message: '',
				data: {
					used_mb: mb(used),
					quota_mb: mb(caller!.quotaBytes),
					available_mb: mb(free),
					free_mb: mb(free),
				},
			});
		},
	},
};
