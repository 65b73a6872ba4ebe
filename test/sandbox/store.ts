import fs from 'node:fs';
import path from 'node:path';
import { newAccount, SEEDED_ACCOUNTS, type AccountSeed } from './accounts.ts';
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

export type AccountPatch = Partial<
	Pick<
		Account,
		'fileSizeLimit' | 'folderSizeLimit' | 'quotaBytes' | 'queueSizeLimit' | 'requires2fa' | 'plan' | 'password'
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
	private readonly byHash = new Map<string, Folder | StoredFile>();
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
		this.ids = { account: 5000, folder: 1, file: 1, batch: 1 };
		fs.rmSync(this.blobsDir, { recursive: true, force: true });
		fs.mkdirSync(this.blobsDir, { recursive: true });
		fs.mkdirSync(this.tmpDir, { recursive: true });
		for (const seed of this.seeds) this.createAccount(seed);
	}

	createAccount(seed: AccountSeed): Account {
		const id = seed.id ?? this.ids.account++;
		if (this.accounts.has(id) || this.accountByLogin(seed.username) || this.accountByLogin(seed.email)) {
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
			if (account.username.toLowerCase() === wanted || account.email.toLowerCase() === wanted) return account;
		}
		return undefined;
	}

	mintToken(account: Account): string {
		const token = randomKey();
		account.tokens.push(token);
		return token;
	}

	rootOf(account: Account): Folder {
		return this.folders.get(account.rootFolderId)!;
	}

	/** Live folder by hash; trashed ones are invisible here. */
	folder(hash: string | undefined | null): Folder | undefined {
		const item = hash ? this.byHash.get(hash) : undefined;
		return item && 'uploadKey' in item && !item.deleted ? item : undefined;
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
		return [...this.folders.values()].filter((f) => f.parentId === folderId && !f.deleted);
	}

	filesIn(folderId: number): StoredFile[] {
		return [...this.files.values()].filter((f) => f.folderId === folderId && !f.deleted);
	}

	createFolder(owner: Account, parent: Folder, name: string | undefined, accessType: AccessType): Folder {
		const folder = this.insertFolder(owner, parent.id, '', accessType);
		const desired = name || `${isoDate(folder.created)}_${folder.hash}`;
		folder.name = uniqueName(desired, this.siblingFolderNames(parent.id, folder.id), false);
		this.touch(parent);
		return folder;
	}

	addFile(folder: Folder, upload: NewFile): StoredFile {
		const now = this.unix();
		const id = this.ids.file++;
		const name = uniqueName(upload.name, this.siblingFileNames(folder.id, id), true);
		const blobPath = path.join(this.blobsDir, String(id));
		fs.renameSync(upload.tmpPath, blobPath);
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
		};
		this.files.set(id, file);
		this.byHash.set(file.hash, file);
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

	private insertFolder(owner: Account, parentId: number, name: string, accessType: AccessType, hash?: string): Folder {
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
		};
		this.folders.set(folder.id, folder);
		this.byHash.set(folder.hash, folder);
		return folder;
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
