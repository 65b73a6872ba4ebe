import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import type { V2Action } from './routes/v2.ts';
import { v2FileActions } from './routes/v2-files.ts';
import { v2FolderActions } from './routes/v2-folders.ts';
import { v2UploadActions } from './routes/v2-upload.ts';
import type { Store } from './store.ts';
import type { StoredFile } from './types.ts';

export { isUnavailable, makeUnavailable } from './unavailable.ts';

/**
 * The shared world a client meets, for in-process tests (issue #35): other clients writing into the same
 * account, items the service answers 405 for although they exist ("resource unavailable"), and writes the
 * service is still applying when the client's Timeout ends. Everything here is something the documents
 * allow; nothing changes what the sandbox answers to a request of its own accord.
 */

let seq = 0;
function bytesFile(store: Store, content: string | Buffer) {
	const tmpPath = path.join(store.tmpDir, `other-client-${process.pid}-${++seq}`);
	fs.writeFileSync(tmpPath, content);
	const bytes = fs.readFileSync(tmpPath);
	return { tmpPath, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Another client (a person, a sync client, another workflow) uploads a file into a folder, as its owner. */
export function uploadAsAnotherClient(
	store: Store,
	folderHash: string,
	name: string,
	content: string | Buffer,
): StoredFile {
	const folder = store.folder(folderHash);
	if (!folder) throw new Error(`no folder ${folderHash}`);
	return store.addFile(folder, { name, ...bytesFile(store, content) });
}

/** Another client replaces a file's content in place (as `save_file.php?do=update` does). */
export function replaceAsAnotherClient(store: Store, fileHash: string, content: string | Buffer) {
	const file = store.file(fileHash);
	if (!file) throw new Error(`no file ${fileHash}`);
	store.replaceContent(file, { ...bytesFile(store, content), watermark: null });
}

const V2_ACTIONS: Record<string, V2Action>[] = [v2UploadActions, v2FileActions, v2FolderActions];

export interface HeldWrite {
	/** Resolves when the held request has arrived (its body read) and waits. */
	arrived: Promise<void>;
	/** Lets it be applied; resolves once it was. */
	release(): Promise<void>;
}

/**
 * Holds the next request of a V2 action after its body arrived and before it is applied, until the test
 * releases it: a service still applying a write when the client's Timeout ends, without racing a clock.
 * The client's giving up does not stop it: released, it is applied as a slow service would.
 */
export function holdNext(action: string): HeldWrite {
	const entry = V2_ACTIONS.find((actions) => Object.hasOwn(actions, action))?.[action];
	if (!entry) throw new Error(`no V2 action ${action}`);
	const original = entry.handle;
	let arrive!: () => void;
	let open!: () => void;
	let done!: () => void;
	const arrived = new Promise<void>((resolve) => (arrive = resolve));
	const gate = new Promise<void>((resolve) => (open = resolve));
	const applied = new Promise<void>((resolve) => (done = resolve));
	entry.handle = async (...args) => {
		entry.handle = original;
		arrive();
		await gate;
		try {
			return await original(...args);
		} finally {
			done();
		}
	};
	return {
		arrived,
		release: async () => {
			open();
			await applied;
		},
	};
}
