/** A wrapped content key as the client saved it; the sandbox never sees plaintext keys. */
export interface WrappedKey {
	encryptionKey: string;
	keySignature: string;
	fileSignature: string | null;
	/** The user who saved this entry (the "sender" whose public keys accompany it). */
	userId: number;
	savedAt: number;
}

type ItemRef = `file:${number}` | `folder:${number}`;

/**
 * Wrapped keys per item and per user: every user who can edit an item may store their own wrapped copy;
 * the first one to save a key for an item is its encrypting user (`isEncryptedFolder` fetches that one).
 */
export class EncryptionVault {
	private readonly entries = new Map<ItemRef, Map<number, WrappedKey>>();
	private readonly encryptingUser = new Map<ItemRef, number>();

	save(ref: ItemRef, key: WrappedKey): void {
		let perUser = this.entries.get(ref);
		if (!perUser) this.entries.set(ref, (perUser = new Map()));
		perUser.set(key.userId, key);
		if (!this.encryptingUser.has(ref)) this.encryptingUser.set(ref, key.userId);
	}

	/** The entry saved by `userId`, or with `fromEncryptingUser` the one saved by whoever encrypted the item. */
	get(ref: ItemRef, userId: number, fromEncryptingUser: boolean): WrappedKey | undefined {
		const perUser = this.entries.get(ref);
		if (!perUser) return undefined;
		const owner = this.encryptingUser.get(ref);
		return fromEncryptingUser && owner !== undefined ? perUser.get(owner) : perUser.get(userId);
	}

	/** For the state view: which users hold a key for the item. */
	holders(ref: ItemRef): number[] {
		return [...(this.entries.get(ref)?.keys() ?? [])];
	}

	clear(): void {
		this.entries.clear();
		this.encryptingUser.clear();
	}
}
