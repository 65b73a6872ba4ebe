import type { WrappedKey } from '../encryption.ts';
import { empty, json, type Reply } from '../http/reply.ts';
import { flag, type SandboxRequest } from '../http/request.ts';
import { fileRights, folderRights, type Rights } from '../rights.ts';
import type { Store } from '../store.ts';
import type { Account, Folder, StoredFile } from '../types.ts';
import type { V2Action } from './v2.ts';

/**
 * The six end-to-end-encryption actions. The sandbox stores opaque strings only. Common rules, in
 * order: userID missing or not an integer, or another required field missing → 400; userID not the
 * authenticated user → 403; item missing → 404; rights missing → 403; key missing → 404.
 */
type Item = {
	ref: `file:${number}` | `folder:${number}`;
	item: StoredFile | Folder;
	rights: Rights;
};

function checkUser(req: SandboxRequest, caller: Account, required: string[]): Reply | undefined {
	const userId = req.fields.get('userID');
	if (!userId || !/^\d+$/.test(userId.trim())) return empty(400);
	if (required.some((name) => !req.fields.get(name))) return empty(400);
	if (Number(userId) !== caller.id) return empty(403);
	return undefined;
}

function fileItem(store: Store, hash: string, caller: Account): Item | undefined {
	const file = store.file(hash);
	return (
		file && {
			ref: `file:${file.id}`,
			item: file,
			rights: fileRights(store, file, caller),
		}
	);
}

function folderItem(store: Store, hash: string, caller: Account): Item | undefined {
	const folder = store.folder(hash);
	return (
		folder && {
			ref: `folder:${folder.id}`,
			item: folder,
			rights: folderRights(folder, caller),
		}
	);
}

function save(req: SandboxRequest, store: Store, caller: Account, kind: 'file' | 'folder'): Reply {
	const hashField = kind === 'file' ? 'fileHash' : 'uploadHash';
	const problem = checkUser(req, caller, [hashField, 'encryptionKey', 'keySignature']);
	if (problem) return problem;
	const hash = req.fields.get(hashField)!;
	const found = kind === 'file' ? fileItem(store, hash, caller) : folderItem(store, hash, caller);
	if (!found) return empty(404);
	if (!found.rights.allow_edit) return empty(403);
	store.vault.save(found.ref, {
		encryptionKey: req.fields.get('encryptionKey')!,
		keySignature: req.fields.get('keySignature')!,
		fileSignature: kind === 'file' ? req.fields.get('fileSignature') || null : null,
		userId: caller.id,
		savedAt: store.unix(),
	});
	found.item.encrypted = true;
	return json({ success: true });
}

function senderKeys(store: Store, key: WrappedKey) {
	const keys = store.owner(key.userId).encryptionKeys;
	return (
		keys && {
			senderPublicKEMKey: keys.kem,
			senderPublicDSAKey: keys.dsa,
			senderPublicX25519Key: keys.x25519,
			senderPublicED25519Key: keys.ed25519,
			senderUserID: key.userId,
		}
	);
}

/** isEncryptedFolder=true fetches the entry of the user who encrypted the item, else the caller's own. */
function get(req: SandboxRequest, store: Store, caller: Account, kind: 'file' | 'folder'): Reply {
	const hashField = kind === 'file' ? 'fileHash' : 'uploadHash';
	const problem = checkUser(req, caller, [hashField]);
	if (problem) return problem;
	const hash = req.fields.get(hashField)!;
	const found = kind === 'file' ? fileItem(store, hash, caller) : folderItem(store, hash, caller);
	if (!found) return empty(404);
	if (!found.rights.allow_download) return empty(403);
	const key = store.vault.get(found.ref, caller.id, flag(req.fields.get('isEncryptedFolder')));
	// The sender's public keys are needed to verify the signature: without them the key is unusable (404).
	const sender = key && senderKeys(store, key);
	if (!key || !sender) return empty(404);
	return json({
		encryptionKey: key.encryptionKey,
		keySignature: key.keySignature,
		...(kind === 'file' ? { fileSignature: key.fileSignature } : {}),
		...sender,
	});
}

export const v2EncryptionActions: Record<string, V2Action> = {
	save_user_encryption_keys: {
		auth: 'required',
		handle(req, _services, caller) {
			const problem = checkUser(req, caller!, ['kem', 'dsa', 'x25519', 'ed25519']);
			if (problem) return problem;
			const [kem, dsa, x25519, ed25519] = ['kem', 'dsa', 'x25519', 'ed25519'].map(
				(name) => req.fields.get(name)!,
			);
			caller!.encryptionKeys = { kem, dsa, x25519, ed25519 };
			return json({ success: true });
		},
	},
	save_file_encryption_key: {
		auth: 'required',
		handle: (req, { store }, caller) => save(req, store, caller!, 'file'),
	},
	get_file_encryption_key: {
		auth: 'required',
		handle: (req, { store }, caller) => get(req, store, caller!, 'file'),
	},
	save_upload_encryption_key: {
		auth: 'required',
		handle: (req, { store }, caller) => save(req, store, caller!, 'folder'),
	},
	get_upload_encryption_key: {
		auth: 'required',
		handle: (req, { store }, caller) => get(req, store, caller!, 'folder'),
	},

	/** Exactly one of fileHash/uploadHash (else 400); the caller's own wrapped key plus the receiver's public keys. */
	get_share_encryption_key: {
		auth: 'required',
		handle(req, { store }, caller) {
			const problem = checkUser(req, caller!, ['receiverEmail']);
			if (problem) return problem;
			const fileHash = req.fields.get('fileHash');
			const uploadHash = req.fields.get('uploadHash');
			if (!fileHash === !uploadHash) return empty(400);
			const found = fileHash
				? fileItem(store, fileHash, caller!)
				: folderItem(store, uploadHash!, caller!);
			if (!found) return empty(404);
			if (!found.rights.allow_download) return empty(403);
			const email = req.fields.get('receiverEmail')!.trim().toLowerCase();
			const receiver = [...store.accounts.values()].find(
				(account) => account.email.toLowerCase() === email,
			);
			const key = store.vault.get(found.ref, caller!.id, false);
			if (!receiver?.encryptionKeys || !key) return empty(404);
			const keys = receiver.encryptionKeys;
			return json({
				encryptionKey: key.encryptionKey,
				keySignature: key.keySignature,
				receiverKEMKey: keys.kem,
				receiverDSAKey: keys.dsa,
				receiverX25519Key: keys.x25519,
				receiverED25519Key: keys.ed25519,
				receiverUserID: receiver.id,
			});
		},
	},
};
