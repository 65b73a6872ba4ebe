import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { newAccount, SEEDED_ACCOUNTS, type AccountSeed } from './accounts.ts';
import { EncryptionVault } from './encryption.ts';
import { EsignatureBook } from './esignature.ts';
import { isoDate, randomHash, randomKey, unixSeconds } from './ids.ts';
import { mimeFromName, uniqueName } from './naming.ts';
import type { AccessType, Account, Folder, StoredFile, TrashMark, Watermark } from './types.ts';

export interface StoreOptions {
	dataDir: string;
	now?: () => number;
	seeds?: readonly AccountSeed[];
}

export interface NewFile {
	name: string;
	tmpPath: string;
	size: number;
	sha256: string;
	watermark?: Watermark | null;
}

/** Unix seconds: "auto-deleted after about one month". */
export const ANONYMOUS_FOLDER_LIFETIME_S = 30 * 24 * 3600;
/** ownerId of anonymous folders; never a real account id. */
export const ANONYMOUS_OWNER_ID = 0;

export interface BulkOptions {
	/** New folders to make; 0 puts the files straight into `parent` (which must not be ROOT then). */
	folders: number;
	filesPerFolder: number;
	parent?: Folder;
	folderPrefix?: string;
	filePrefix?: string;
	accessType?: AccessType;
}

export type AccountPatch = Partial<
	Pick<
		Account,
		| 'fileSizeLimit'
		| 'folderSizeLimit'
		| 'quotaBytes'
		| 'queueSizeLimit'
		| 'requires2fa'
		| 'plan'
		| 'password'
	>
>;

/** All state in memory; file bytes live under `dataDir/blobs`. Deleted items stay (marked) for undelete. */
export class Store {
	readonly dataDir: string;
	readonly blobsDir: string;
	readonly tmpDir: string;
	readonly now: () => number;
	readonly accounts = new Map<number, Account>();
	readonly folders = new Map<number, Folder>();
	readonly files = new Map<number, StoredFile>();
	private readonly seeds: readonly AccountSeed[];
	/** Wrapped keys of the end-to-end-encryption actions. */
	readonly vault = new EncryptionVault();
	/** Signature records, signing requests "e-mailed" by esignature_share, and form signings. */
	readonly esign = new EsignatureBook();
	/**
	 * Owner of folders made anonymously through `api/get_upload_id.php` (UserID false). Not a real account:
	 * nobody can log in as it, and it has the FREE plan's limits.
	 */
	readonly anonymous: Account = newAccount(
		{ username: '', email: '', password: '', token: '', plan: 'FREE' },
		ANONYMOUS_OWNER_ID,
	);
	private readonly byHash = new Map<string, Folder | StoredFile>();
	/** Children per folder id, in creation order, so listings stay cheap with thousands of items. */
	private readonly childFolders = new Map<number, Set<number>>();
	private readonly childFiles = new Map<number, Set<number>>();
	private ids = { account: 5000, folder: 1, file: 1, batch: 1 };

	constructor(options: StoreOptions) {
		this.dataDir = options.dataDir;
		this.blobsDir = path.join(this.dataDir, 'blobs');
		this.tmpDir = path.join(this.dataDir, 'tmp');
		this.now = options.now ?? Date.now;
		this.seeds = options.seeds ?? SEEDED_ACCOUNTS;
		this.reset();
	}

	unix(): number {
		return unixSeconds(this.now());
	}

	reset(): void {
		this.accounts.clear();
		this.folders.clear();
		this.files.clear();
		this.byHash.clear();
		this.childFolders.clear();
		this.childFiles.clear();
		this.vault.clear();
		this.esign.clear();
		this.anonymous.tokens = [];
		this.ids = { account: 5000, folder: 1, file: 1, batch: 1 };
		fs.rmSync(this.blobsDir, { recursive: true, force: true });
		fs.mkdirSync(this.blobsDir, { recursive: true });
		fs.mkdirSync(this.tmpDir, { recursive: true });
		for (const seed of this.seeds) this.createAccount(seed);
	}

	createAccount(seed: AccountSeed): Account {
		const id = seed.id ?? this.ids.account++;
		if (
			this.accounts.has(id) ||
			this.accountByLogin(seed.username) ||
			this.accountByLogin(seed.email)
		) {
			throw new Error(`account ${seed.username} already exists`);
		}
		const account = newAccount(seed, id);
		this.accounts.set(id, account);
		const root = this.insertFolder(account, 0, 'ROOT', 'PRIVATE', seed.rootHash);
		root.isRoot = true;
		if (seed.rootEditKey) root.editKey = seed.rootEditKey;
		if (seed.rootUploadKey) root.uploadKey = seed.rootUploadKey;
		account.rootFolderId = root.id;
		return account;
	}

	updateAccount(ref: number | string, patch: AccountPatch): Account {
		const account = typeof ref === 'number' ? this.accounts.get(ref) : this.accountByLogin(ref);
		if (!account) throw new Error(`no account ${ref}`);
		Object.assign(account, patch);
		return account;
	}

	/** `user` may be the username or the e-mail. */
	accountByLogin(login: string): Account | undefined {
		const wanted = login.trim().toLowerCase();
		for (const account of this.accounts.values()) {
			if (account.username.toLowerCase() === wanted || account.email.toLowerCase() === wanted)
				return account;
		}
		return undefined;
	}

	mintToken(account: Account): string {
		const token = randomKey();
		account.tokens.push(token);
		return token;
	}

	/** The account owning an item; the anonymous owner for folders made without an account. */
	owner(ownerId: number): Account {
		return this.accounts.get(ownerId) ?? this.anonymous;
	}

	rootOf(account: Account): Folder {
		return this.folders.get(account.rootFolderId)!;
	}

	/** Live folder by hash; trashed and expired ones are invisible here. */
	folder(hash: string | undefined | null): Folder | undefined {
		const item = hash ? this.byHash.get(hash) : undefined;
		return item && 'uploadKey' in item && !item.deleted && !this.expired(item) ? item : undefined;
	}

	/** Anonymous folders expire about a month after creation (checked lazily on lookup). */
	expired(folder: Folder): boolean {
		return folder.expiresAt !== null && folder.expiresAt <= this.unix();
	}

	file(hash: string | undefined | null): StoredFile | undefined {
		const item = hash ? this.byHash.get(hash) : undefined;
		return item && 'blobPath' in item && !item.deleted ? item : undefined;
	}

	folderById(id: number): Folder | undefined {
		const folder = this.folders.get(id);
		return folder && !folder.deleted ? folder : undefined;
	}

	trashedFolder(hash: string): Folder | undefined {
		const item = this.byHash.get(hash);
		return item && 'uploadKey' in item && item.deleted ? item : undefined;
	}

	trashedFile(hash: string): StoredFile | undefined {
		const item = this.byHash.get(hash);
		return item && 'blobPath' in item && item.deleted ? item : undefined;
	}

	subfolders(folderId: number): Folder[] {
		const ids = this.childFolders.get(folderId) ?? [];
		return [...ids].map((id) => this.folders.get(id)!).filter((f) => !f.deleted);
	}

	filesIn(folderId: number): StoredFile[] {
		const ids = this.childFiles.get(folderId) ?? [];
		return [...ids].map((id) => this.files.get(id)!).filter((f) => !f.deleted);
	}

	/** Item by hash whether live or trashed (for the undelete scripts and the vault). */
	anyByHash(hash: string): Folder | StoredFile | undefined {
		return this.byHash.get(hash);
	}

	/** A top-level folder with no account (UserID false), deleted after about a month. */
	createAnonymousFolder(name: string | undefined, accessType: AccessType): Folder {
		const folder = this.insertFolder(this.anonymous, 0, '', accessType);
		folder.name = name || `${isoDate(folder.created)}_${folder.hash}`;
		folder.expiresAt = folder.created + ANONYMOUS_FOLDER_LIFETIME_S;
		return folder;
	}

	/**
	 * Replaces a file's bytes in place (`save_file.php?do=update`): same hash, name and keys; new size,
	 * checksum, modification time and version (so the ETag changes). Earlier bytes are kept as versions
	 * for BUSINESS and ENTERPRISE owners and dropped otherwise.
	 */
	replaceContent(
		file: StoredFile,
		upload: Pick<NewFile, 'tmpPath' | 'size' | 'sha256' | 'watermark'>,
	): void {
		const keepVersions = ['BUSINESS', 'ENTERPRISE'].includes(this.owner(file.ownerId).plan);
		const blobPath = path.join(this.blobsDir, `${file.id}.v${file.version + 1}`);
		fs.renameSync(upload.tmpPath, blobPath);
		if (keepVersions) {
			file.versions.push({
				version: file.version,
				size: file.size,
				sha256: file.sha256,
				blobPath: file.blobPath,
				modified: file.modified,
			});
		} else {
			fs.rmSync(file.blobPath, { force: true });
		}
		Object.assign(file, {
			blobPath,
			size: upload.size,
			sha256: upload.sha256,
			modified: this.unix(),
			version: file.version + 1,
			watermark: upload.watermark ?? null,
		});
		const parent = this.folders.get(file.folderId);
		if (parent) this.touch(parent);
	}

	/**
	 * Many folders and files at once without HTTP (paging and benchmark fixtures): `folders` new folders
	 * under `parent` (default ROOT), each with `filesPerFolder` small text files named
	 * `<filePrefix><n>.txt`. Names are made unique up front, so this stays linear.
	 */
	bulkCreate(owner: Account, options: BulkOptions): { folders: Folder[]; files: StoredFile[] } {
		const parent = options.parent ?? this.rootOf(owner);
		const folderPrefix = options.folderPrefix ?? 'Bulk folder ';
		const filePrefix = options.filePrefix ?? 'file ';
		const accessType = options.accessType ?? 'PRIVATE';
		const taken = new Set(this.siblingFolderNames(parent.id, -1).map((n) => n.toLowerCase()));
		const folders: Folder[] = [];
		const files: StoredFile[] = [];
		if (options.folders === 0 && parent.isRoot)
			throw new Error('files cannot go straight into ROOT');
		const targets = options.folders === 0 ? [parent] : [];
		for (let i = 1; i <= options.folders; i++) {
			const folder = this.insertFolder(owner, parent.id, '', accessType);
			folder.name = uniqueName(`${folderPrefix}${i}`, taken, false);
			taken.add(folder.name.toLowerCase());
			folders.push(folder);
			targets.push(folder);
		}
		for (const folder of targets) {
			const existing = new Set(this.siblingFileNames(folder.id, -1).map((n) => n.toLowerCase()));
			for (let n = 1; n <= options.filesPerFolder; n++) {
				const id = this.ids.file++;
				const name = uniqueName(`${filePrefix}${n}.txt`, existing, true);
				existing.add(name.toLowerCase());
				const content = Buffer.from(`${folder.name}/${name}\n`);
				const blobPath = path.join(this.blobsDir, String(id));
				fs.writeFileSync(blobPath, content);
				const sha256 = createHash('sha256').update(content).digest('hex');
				files.push(
					this.insertFile(folder, id, name, blobPath, {
						size: content.length,
						sha256,
					}),
				);
			}
		}
		this.touch(parent);
		return { folders, files };
	}

	createFolder(
		owner: Account,
		parent: Folder,
		name: string | undefined,
		accessType: AccessType,
	): Folder {
		const folder = this.insertFolder(owner, parent.id, '', accessType);
		const desired = name || `${isoDate(folder.created)}_${folder.hash}`;
		folder.name = uniqueName(desired, this.siblingFolderNames(parent.id, folder.id), false);
		this.touch(parent);
		return folder;
	}

	addFile(folder: Folder, upload: NewFile): StoredFile {
		const id = this.ids.file++;
		const name = uniqueName(upload.name, this.siblingFileNames(folder.id, id), true);
		const blobPath = path.join(this.blobsDir, String(id));
		fs.renameSync(upload.tmpPath, blobPath);
		return this.insertFile(folder, id, name, blobPath, upload);
	}

	/** Registers a file whose bytes are already at `blobPath` under a name already known to be free. */
	private insertFile(
		folder: Folder,
		id: number,
		name: string,
		blobPath: string,
		upload: Pick<NewFile, 'size' | 'sha256' | 'watermark'>,
	): StoredFile {
		const now = this.unix();
		const file: StoredFile = {
			id,
			hash: this.newHash(),
			name,
			ownerId: folder.ownerId,
			folderId: folder.id,
			size: upload.size,
			sha256: upload.sha256,
			mime: mimeFromName(name),
			blobPath,
			deleteKey: randomKey(),
			accessType: null,
			price: null,
			created: now,
			modified: now,
			watermark: upload.watermark ?? null,
			deleted: null,
			version: 1,
			versions: [],
			encrypted: false,
		};
		this.files.set(id, file);
		this.byHash.set(file.hash, file);
		this.childSet(this.childFiles, folder.id).add(id);
		this.touch(folder);
		return file;
	}

	renameFolder(folder: Folder, name: string): string {
		folder.name = uniqueName(name, this.siblingFolderNames(folder.parentId, folder.id), false);
		this.touch(folder);
		return folder.name;
	}

	renameFile(file: StoredFile, name: string): string {
		file.name = uniqueName(name, this.siblingFileNames(file.folderId, file.id), true);
		file.mime = mimeFromName(file.name);
		file.modified = this.unix();
		return file.name;
	}

	moveFile(file: StoredFile, target: Folder): void {
		if (file.folderId === target.id) return;
		const source = this.folders.get(file.folderId);
		file.name = uniqueName(file.name, this.siblingFileNames(target.id, file.id), true);
		this.childFiles.get(file.folderId)?.delete(file.id);
		// Keep creation (id) order in the target so listings look the same as before the move.
		const ids = [...this.childSet(this.childFiles, target.id), file.id].sort((a, b) => a - b);
		this.childFiles.set(target.id, new Set(ids));
		file.folderId = target.id;
		file.modified = this.unix();
		if (source) this.touch(source);
		this.touch(target);
	}

	/** Trash marks share a batch number per delete call, so a restore brings back exactly that set. */
	nextTrashMark(): TrashMark {
		return { at: this.unix(), batch: this.ids.batch++ };
	}

	/** Largest per-file limit of any account: uploads stop writing to disk past it. */
	maxFileSizeLimit(): number {
		return Math.max(0, ...[...this.accounts.values()].map((account) => account.fileSizeLimit));
	}

	private insertFolder(
		owner: Account,
		parentId: number,
		name: string,
		accessType: AccessType,
		hash?: string,
	): Folder {
		const now = this.unix();
		const folder: Folder = {
			id: this.ids.folder++,
			hash: hash ?? this.newHash(),
			name,
			ownerId: owner.id,
			parentId,
			isRoot: false,
			accessType,
			editKey: randomKey(),
			uploadKey: randomKey(),
			created: now,
			modified: now,
			password: null,
			price: null,
			deleted: null,
			expiresAt: null,
			encrypted: false,
		};
		this.folders.set(folder.id, folder);
		this.byHash.set(folder.hash, folder);
		if (parentId !== 0) this.childSet(this.childFolders, parentId).add(folder.id);
		return folder;
	}

	private childSet(index: Map<number, Set<number>>, folderId: number): Set<number> {
		let set = index.get(folderId);
		if (!set) index.set(folderId, (set = new Set()));
		return set;
	}

	private newHash(): string {
		for (;;) {
			const hash = randomHash();
			if (!this.byHash.has(hash)) return hash;
		}
	}

	touch(folder: Folder): void {
		folder.modified = this.unix();
	}

	siblingFolderNames(parentId: number, except: number): string[] {
		return this.subfolders(parentId)
			.filter((f) => f.id !== except)
			.map((f) => f.name);
	}

	siblingFileNames(folderId: number, except: number): string[] {
		return this.filesIn(folderId)
			.filter((f) => f.id !== except)
			.map((f) => f.name);
	}
}
