import type { Store } from './store.ts';
import type { Folder } from './types.ts';

/** A plain JSON picture of every account's folders and files (trashed ones flagged), for tests to compare. */
export function stateSummary(store: Store) {
	const pathOf = (folder: Folder): string => {
		if (folder.isRoot) return '/';
		const parent = store.folders.get(folder.parentId);
		const parentPath = parent ? pathOf(parent) : '/';
		return `${parentPath === '/' ? '' : parentPath}/${folder.name}`;
	};
	const anonymousFolders = [...store.folders.values()].filter(
		(folder) => folder.ownerId === store.anonymous.id,
	);
	return {
		/** Folders made through `api/get_upload_id.php` without an account; `expiresAt` in unix seconds. */
		anonymousFolders: anonymousFolders.map((folder) => ({
			hash: folder.hash,
			name: folder.name,
			accessType: folder.accessType,
			created: folder.created,
			expiresAt: folder.expiresAt,
			expired: store.expired(folder),
			files: store
				.filesIn(folder.id)
				.map((file) => ({ hash: file.hash, name: file.name, size: file.size })),
		})),
		/** Signature records and what `esignature_share` would have e-mailed. */
		esignature: {
			signatures: store.esign.signatures,
			outbox: store.esign.outbox,
		},
		accounts: [...store.accounts.values()].map((account) => {
			const folders = [...store.folders.values()].filter((folder) => folder.ownerId === account.id);
			const files = [...store.files.values()].filter((file) => file.ownerId === account.id);
			return {
				id: account.id,
				username: account.username,
				email: account.email,
				plan: account.plan,
				rootHash: store.rootOf(account).hash,
				/** Published E2E public keys (opaque strings), or null. */
				encryptionKeys: account.encryptionKeys,
				folders: folders.map((folder) => ({
					hash: folder.hash,
					name: folder.name,
					path: pathOf(folder),
					parentHash: store.folders.get(folder.parentId)?.hash ?? null,
					accessType: folder.accessType,
					created: folder.created,
					modified: folder.modified,
					deleted: folder.deleted !== null,
					encrypted: folder.encrypted,
					keyHolders: store.vault.holders(`folder:${folder.id}`),
				})),
				files: files.map((file) => {
					const folder = store.folders.get(file.folderId)!;
					const folderPath = pathOf(folder);
					return {
						hash: file.hash,
						name: file.name,
						path: `${folderPath === '/' ? '' : folderPath}/${file.name}`,
						folderHash: folder.hash,
						size: file.size,
						sha256: file.sha256,
						mime: file.mime,
						created: file.created,
						modified: file.modified,
						watermark: file.watermark,
						deleted: file.deleted !== null,
						version: file.version,
						versions: file.versions.map(({ version, size, sha256, modified }) => ({
							version,
							size,
							sha256,
							modified,
						})),
						encrypted: file.encrypted,
						keyHolders: store.vault.holders(`file:${file.id}`),
					};
				}),
			};
		}),
	};
}
