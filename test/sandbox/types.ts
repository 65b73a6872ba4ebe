export type Plan = 'FREE' | 'PERSONAL' | 'LIFETIME' | 'PRO' | 'BUSINESS' | 'ENTERPRISE';
export type AccessType = 'PRIVATE' | 'LINK' | 'PASSWORD' | 'PUBLIC';

export interface Account {
	id: number;
	username: string;
	email: string;
	password: string;
	tokens: string[];
	plan: Plan;
	firstName: string;
	lastName: string;
	requires2fa: boolean;
	/** IPs from which the e-mailed 2FA confirmation link was opened. */
	confirmedIps: Set<string>;
	fileSizeLimit: number;
	/** null = unlimited */
	folderSizeLimit: number | null;
	queueSizeLimit: number;
	quotaBytes: number;
	/** Opaque per-user value that `api/login.php` reports as `hash`. */
	userHash: string;
	rootFolderId: number;
	/** Published end-to-end-encryption public keys (opaque strings), or null before `save_user_encryption_keys`. */
	encryptionKeys: UserPublicKeys | null;
}

export interface UserPublicKeys {
	kem: string;
	dsa: string;
	x25519: string;
	ed25519: string;
}

/** Items are never removed on delete: they are marked, so the undelete scripts can restore a whole batch. */
export interface TrashMark {
	at: number;
	batch: number;
}

export interface Folder {
	id: number;
	hash: string;
	name: string;
	ownerId: number;
	/** 0 for ROOT */
	parentId: number;
	isRoot: boolean;
	accessType: AccessType;
	editKey: string;
	uploadKey: string;
	created: number;
	modified: number;
	password: string | null;
	price: number | null;
	deleted: TrashMark | null;
	/** Anonymous folders from `api/get_upload_id.php` vanish after about a month (unix seconds); null = never. */
	expiresAt: number | null;
	/** Set by `save_upload_encryption_key`. */
	encrypted: boolean;
}

export interface Watermark {
	text: string;
	position: string;
	color: string;
}

export interface StoredFile {
	id: number;
	hash: string;
	name: string;
	ownerId: number;
	folderId: number;
	size: number;
	sha256: string;
	mime: string;
	blobPath: string;
	deleteKey: string;
	/** null: the parent folder's type applies */
	accessType: AccessType | null;
	price: number | null;
	created: number;
	modified: number;
	watermark: Watermark | null;
	deleted: TrashMark | null;
	/** Bumped by every `save_file.php?do=update`; part of the ETag. */
	version: number;
	/** Earlier contents, kept only for BUSINESS and ENTERPRISE owners. */
	versions: FileVersion[];
	/** Set by `save_file_encryption_key`. */
	encrypted: boolean;
}

export interface FileVersion {
	version: number;
	size: number;
	sha256: string;
	blobPath: string;
	modified: number;
}
