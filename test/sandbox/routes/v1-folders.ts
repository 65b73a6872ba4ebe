import { empty, json, type Reply } from '../http/reply.ts';
import { arrayField, type SandboxRequest } from '../http/request.ts';
import { normalizeName } from '../naming.ts';
import { folderRights } from '../rights.ts';
import type { Store } from '../store.ts';
import type { AccessType, Account, Folder } from '../types.ts';
import { nameField } from './v2-folders.ts';
import type { V1Script } from './v1.ts';
import { GET_SCRIPT } from './v1-common.ts';
import { restoreScript } from './v1-restore.ts';

const NEW_FOLDER_TYPES: readonly AccessType[] = ['PRIVATE', 'LINK'];
const PATH_TYPES: readonly AccessType[] = ['PRIVATE', 'LINK', 'PASSWORD', 'PUBLIC'];

const pathFailure = (status: number, error: string) =>
	json({ Success: false, Directories: {}, Error: error }, status);

/** `Invoices/2026/11` → normalized segments; null when a segment is `.`/`..` or nothing is left. */
function splitPath(raw: string): string[] | null {
	const segments = raw
		.split(/[/\\]/)
		.map((segment) => normalizeName(segment))
		.filter(Boolean);
	if (!segments.length || segments.some((segment) => segment === '.' || segment === '..'))
		return null;
	return segments;
}

/** Walks `segments` below `parent`, reusing folders whose names match case-insensitively, creating the rest. */
function ensurePath(
	store: Store,
	owner: Account,
	parent: Folder,
	segments: string[],
	type: AccessType,
): Folder {
	let current = parent;
	for (const segment of segments) {
		const existing = store
			.subfolders(current.id)
			.find((f) => f.name.toLowerCase() === segment.toLowerCase());
		current = existing ?? store.createFolder(owner, current, segment, type);
	}
	return current;
}

/** `Directories[]` from the form body only, as documented (a query or JSON copy is not read). */
function directoriesOf(req: SandboxRequest): string[] | null {
	return arrayField(req.body, 'Directories');
}

/** Documented as a JSON body with a `hashes` array; a form body is not that (400). */
function hashesOf(req: SandboxRequest): string[] | null {
	const body = req.json as { hashes?: unknown } | undefined;
	if (body === undefined) return null;
	return Array.isArray(body?.hashes) && body.hashes.every((h) => typeof h === 'string')
		? (body.hashes as string[])
		: null;
}

export const v1FolderScripts: Record<string, V1Script> = {
	/**
	 * Named or anonymous folder creation. Authenticated: under `parent_hash` (default ROOT), UserID is the
	 * account id. Anonymous: a top-level folder owned by nobody (UserID false) that expires after ~30 days;
	 * a `parent_hash` then needs an account (401).
	 */
	get_upload_id: {
		methods: GET_SCRIPT,
		auth: 'optional',
		handle(req, { store }, caller) {
			const requestedType = req.fields.get('access_type');
			let accessType: AccessType = 'PRIVATE';
			if (requestedType) {
				if (!NEW_FOLDER_TYPES.includes(requestedType as AccessType)) return empty(400);
				accessType = requestedType as AccessType;
			}
			const name = nameField(req.fields.get('folder_name'));
			if (name === null) return empty(400);
			const parentHash = req.fields.get('parent_hash');
			let folder: Folder;
			if (caller) {
				const parent = parentHash ? store.folder(parentHash) : store.rootOf(caller);
				if (!parent) return empty(405);
				if (parent.ownerId !== caller.id) return empty(403);
				folder = store.createFolder(caller, parent, name, accessType);
			} else {
				if (parentHash) return empty(401);
				folder = store.createAnonymousFolder(name, accessType);
			}
			return json({
				hash: folder.hash,
				delete_key: folder.editKey,
				add_key: folder.uploadKey,
				UserID: caller ? caller.id : false,
				...(name ? { FolderName: folder.name } : {}),
			});
		},
	},

	get_upload_keys: {
		methods: GET_SCRIPT,
		auth: 'required',
		handle(req, { store }, caller) {
			const hash = req.fields.get('hash');
			if (!hash) return empty(400);
			const folder = store.folder(hash);
			if (!folder) return empty(405);
			const rights = folderRights(folder, caller);
			if (!rights.allow_edit) return empty(403);
			return json({ AddFileKey: folder.uploadKey, DeleteKey: folder.editKey });
		},
	},

	/** "Needs an active session": a token or password on this very request is not enough (401). */
	get_add_key: {
		methods: GET_SCRIPT,
		auth: 'required',
		handle(req, { store, auth }, caller) {
			if (auth.kind !== 'ok' || !auth.sessionId) return empty(401);
			const hash = req.fields.get('hash');
			if (!hash) return empty(400);
			const folder = store.folder(hash);
			if (!folder) return empty(405);
			if (!folderRights(folder, caller).allow_add) return empty(403);
			return json({ add_key: folder.uploadKey });
		},
	},

	/**
	 * Creates every missing folder of each path below `upload_hash`, authorized by that folder's add key
	 * (or the owner's credentials). New folders take `access_type`, default the parent's type; existing
	 * ones are reused unchanged. `addto`/`addhash` are accepted and ignored (their meaning is not documented).
	 * All paths are validated before anything is created.
	 */
	get_ids_and_keys_from_paths: {
		methods: ['POST'],
		auth: 'optional',
		handle(req, { store }, caller) {
			// The documents place the parent and its key in the query and the paths in the body.
			const parentHash = req.query.get('upload_hash');
			if (!parentHash) return pathFailure(400, 'upload_hash is required');
			const parent = store.folder(parentHash);
			if (!parent) return pathFailure(405, 'Folder not found');
			const key = req.query.get('add_key');
			const allowed = (key && key === parent.uploadKey) || caller?.id === parent.ownerId;
			if (!allowed) return pathFailure(caller || key ? 403 : 401, 'Access denied');
			const requestedType = req.fields.get('access_type');
			if (requestedType && !PATH_TYPES.includes(requestedType as AccessType)) {
				return pathFailure(400, `Unknown access_type ${requestedType}`);
			}
			const directories = directoriesOf(req);
			if (!directories?.length) return pathFailure(400, 'Directories[] is required');
			const split = directories.map((raw) => [raw, splitPath(raw)] as const);
			const bad = split.find(([, segments]) => !segments);
			if (bad) return pathFailure(400, `Invalid path: ${bad[0]}`);
			const type = (requestedType as AccessType) || parent.accessType;
			const owner = store.owner(parent.ownerId);
			const result: Record<string, { id: number; add_key: string }> = {};
			for (const [raw, segments] of split) {
				const leaf = ensurePath(store, owner, parent, segments!, type);
				result[raw] = { id: leaf.id, add_key: leaf.uploadKey };
			}
			return json({ Success: true, Directories: result, Error: null });
		},
	},

	/** JSON body `{"hashes": [...]}` (form `hashes[]` also taken); only the caller's own live folders count. */
	get_uploads_exist: {
		methods: ['POST'],
		auth: 'required',
		handle(req, { store }, caller): Reply {
			const hashes = hashesOf(req);
			if (!hashes) return empty(400);
			const result: Record<string, boolean> = {};
			for (const hash of hashes) {
				const folder = store.folder(hash);
				result[hash] = !!folder && folder.ownerId === caller!.id && !!folder.uploadKey;
			}
			return json(result);
		},
	},

	undelete_folder: restoreScript('folder'),
};
