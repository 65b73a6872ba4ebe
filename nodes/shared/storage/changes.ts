/**
 * Change detection for the storage trigger: compares what a poll lists with what the previous poll kept in
 * the workflow's static data. Plain data in, plain data out (no n8n imports), so every rule is unit-tested.
 *
 * Service timestamps are only ever compared with other service timestamps, never with n8n's clock, so a
 * skewed clock on either side changes nothing.
 */

export type EntryType = 'file' | 'folder';

export interface ListedEntry {
	hash: string;
	type: EntryType;
	name: string;
	/** Hash of the containing folder. */
	parent: string;
	/** Path below the watched folder, ending in the item's own name. */
	path: string;
	/** Service timestamps in seconds. `created` is unknown for items rebuilt from the state (deleted ones). */
	created?: number;
	modified: number;
	size?: number;
}

export interface Listing {
	/** The watched folder itself (not one of the entries). */
	root: { hash: string; name?: string };
	entries: ListedEntry[];
}

/**
 * `window`: only created/updated events are wanted, so the state is a cursor plus the items changed in the
 * last LAG_SECONDS before it. `full`: deleted/moved events need the previous snapshot of every item.
 */
export type TrackingMode = 'window' | 'full';

export type EventName =
	| 'fileCreated'
	| 'fileUpdated'
	| 'folderCreated'
	| 'fileDeleted'
	| 'fileMoved';

export interface Change {
	event: EventName;
	entry: ListedEntry;
	/** fileUpdated in full mode: what changed. */
	change?: 'content' | 'renamed';
	/** fileMoved: within the watched tree, into it (from elsewhere, or restored), or out of it. */
	moved?: 'within' | 'in' | 'out';
	previous?: { name?: string; parent?: string; path?: string };
	/** Service time of the change when known; orders the output. */
	at?: number;
}

/**
 * How far (in service seconds) below the newest timestamp seen an item still counts as possibly unseen.
 * Covers many items sharing a second, and an upload that becomes visible a little after its timestamp
 * (or service machines whose clocks differ slightly). Items changed in this window are remembered.
 */
export const LAG_SECONDS = 300;

/** Folder tuple: hash, index of the parent folder in the same list (-1: the watched folder), name. */
type FolderTuple = [string, number, string];
/** File tuple keyed by hash: parent folder index (-1: the watched folder), modified, name. */
type FileTuple = [number, number, string];

export interface TriggerState {
	v: 1;
	/** Watched folder, subfolders flag and mode: any difference starts afresh. */
	scope: string;
	/** Newest service timestamp seen so far; only ever grows. Null while nothing was listed. */
	cursor: number | null;
	/** window mode: item hash → the timestamp it was seen with (modified for files, created for folders). */
	recent?: Record<string, number>;
	/** full mode: every folder and file of the last poll. */
	folders?: FolderTuple[];
	files?: Record<string, FileTuple>;
}

export interface Comparison {
	changes: Change[];
	/**
	 * full mode: files listed last time and missing now. Deleted, or moved out of the watched folder: the
	 * caller decides (see `parentListed`), which may take a request per file.
	 */
	gone: Array<{ entry: ListedEntry; parentListed: boolean }>;
	next: TriggerState;
}

/** The key a window-mode item is remembered by: files change their modified time, folders only appear. */
function windowKey(entry: ListedEntry): number {
	return entry.type === 'file' ? entry.modified : (entry.created ?? entry.modified);
}

function newestTimestamp(listing: Listing, previous: number | null): number | null {
	let cursor = previous;
	for (const entry of listing.entries) {
		const key = windowKey(entry);
		if (Number.isFinite(key) && (cursor === null || key > cursor)) cursor = key;
	}
	return cursor;
}

function windowState(scope: string, listing: Listing, cursor: number | null): TriggerState {
	const recent: Record<string, number> = {};
	if (cursor !== null) {
		for (const entry of listing.entries) {
			const key = windowKey(entry);
			if (key >= cursor - LAG_SECONDS) recent[entry.hash] = key;
		}
	}
	return { v: 1, scope, cursor, recent };
}

function fullState(scope: string, listing: Listing, cursor: number | null): TriggerState {
	const folderEntries = listing.entries.filter((entry) => entry.type === 'folder');
	const index = new Map(folderEntries.map((entry, i) => [entry.hash, i]));
	const parentIndex = (hash: string) => index.get(hash) ?? -1;
	const folders: FolderTuple[] = folderEntries.map((entry) => [
		entry.hash,
		parentIndex(entry.parent),
		entry.name,
	]);
	const files: Record<string, FileTuple> = {};
	for (const entry of listing.entries) {
		if (entry.type === 'file')
			files[entry.hash] = [parentIndex(entry.parent), entry.modified, entry.name];
	}
	return { v: 1, scope, cursor, folders, files };
}

/** The state a first poll records: the current contents, with nothing reported. */
export function baseline(scope: string, listing: Listing, mode: TrackingMode): TriggerState {
	const cursor = newestTimestamp(listing, null);
	return mode === 'full' ? fullState(scope, listing, cursor) : windowState(scope, listing, cursor);
}

/** True when the stored state belongs to this scope and mode and can be compared against. */
export function isUsableState(
	value: unknown,
	scope: string,
	mode: TrackingMode,
): value is TriggerState {
	if (!value || typeof value !== 'object') return false;
	const state = value as Partial<TriggerState>;
	if (state.v !== 1 || state.scope !== scope) return false;
	return mode === 'full' ? Array.isArray(state.folders) && !!state.files : !!state.recent;
}

function compareWindow(state: TriggerState, listing: Listing): Change[] {
	const recent = state.recent ?? {};
	const floor = state.cursor === null ? -Infinity : state.cursor - LAG_SECONDS;
	const changes: Change[] = [];
	for (const entry of listing.entries) {
		const key = windowKey(entry);
		// Older than the window: seen by an earlier poll (it was remembered while it was recent).
		if (!(key >= floor)) continue;
		const seen = recent[entry.hash];
		if (seen === key) continue;
		if (entry.type === 'folder') {
			if (seen === undefined) changes.push({ event: 'folderCreated', entry, at: key });
			continue;
		}
		// Not remembered and created inside the window: it did not exist (or was not visible) last time.
		const created = seen === undefined && (entry.created ?? -Infinity) >= floor;
		changes.push({ event: created ? 'fileCreated' : 'fileUpdated', entry, at: key });
	}
	return changes;
}

interface PreviousFull {
	folders: Map<string, { parent: string; name: string; path: string }>;
	files: Map<string, { parent: string; modified: number; name: string }>;
}

function decodeFull(state: TriggerState, rootHash: string): PreviousFull {
	const tuples = state.folders ?? [];
	const paths: string[] = [];
	const pathOf = (i: number, depth = 0): string => {
		if (i < 0 || i >= tuples.length || depth > tuples.length) return '';
		if (paths[i] === undefined) {
			const parentPath = pathOf(tuples[i][1], depth + 1);
			paths[i] = parentPath ? `${parentPath}/${tuples[i][2]}` : tuples[i][2];
		}
		return paths[i];
	};
	const hashAt = (i: number) => (i >= 0 && i < tuples.length ? tuples[i][0] : rootHash);
	const folders = new Map(
		tuples.map(([hash, parent, name], i) => [
			hash,
			{ parent: hashAt(parent), name, path: pathOf(i) },
		]),
	);
	const files = new Map(
		Object.entries(state.files ?? {}).map(([hash, [parent, modified, name]]) => [
			hash,
			{ parent: hashAt(parent), modified, name },
		]),
	);
	return { folders, files };
}

function compareFull(state: TriggerState, listing: Listing): Pick<Comparison, 'changes' | 'gone'> {
	const previous = decodeFull(state, listing.root.hash);
	const floor = state.cursor === null ? -Infinity : state.cursor - LAG_SECONDS;
	const changes: Change[] = [];
	const listedFolders = new Set([listing.root.hash]);
	const listedFiles = new Set<string>();
	for (const entry of listing.entries) {
		if (entry.type === 'folder') {
			listedFolders.add(entry.hash);
			if (!previous.folders.has(entry.hash))
				changes.push({ event: 'folderCreated', entry, at: entry.created });
			continue;
		}
		listedFiles.add(entry.hash);
		const before = previous.files.get(entry.hash);
		if (!before) {
			// An older file that was not here last time came from elsewhere (moved in, or restored from the trash).
			const created = (entry.created ?? -Infinity) >= floor;
			changes.push(
				created
					? { event: 'fileCreated', entry, at: entry.created }
					: { event: 'fileMoved', entry, moved: 'in', at: entry.modified },
			);
		} else if (before.parent !== entry.parent) {
			const previousPath = previous.folders.get(before.parent)?.path ?? '';
			changes.push({
				event: 'fileMoved',
				entry,
				moved: 'within',
				previous: {
					parent: before.parent,
					name: before.name,
					path: previousPath ? `${previousPath}/${before.name}` : before.name,
				},
				at: entry.modified,
			});
		} else if (before.name !== entry.name) {
			changes.push({
				event: 'fileUpdated',
				entry,
				change: 'renamed',
				previous: { name: before.name },
				at: entry.modified,
			});
		} else if (before.modified !== entry.modified) {
			changes.push({ event: 'fileUpdated', entry, change: 'content', at: entry.modified });
		}
	}
	const gone: Comparison['gone'] = [];
	for (const [hash, before] of previous.files) {
		if (listedFiles.has(hash)) continue;
		const parentPath = previous.folders.get(before.parent)?.path ?? '';
		gone.push({
			entry: {
				hash,
				type: 'file',
				name: before.name,
				parent: before.parent,
				path: parentPath ? `${parentPath}/${before.name}` : before.name,
				modified: before.modified,
			},
			parentListed: listedFolders.has(before.parent),
		});
	}
	return { changes, gone };
}

/** What changed since the stored state, and the state to store once the poll has fully succeeded. */
export function compare(state: TriggerState, listing: Listing, mode: TrackingMode): Comparison {
	const cursor = newestTimestamp(listing, state.cursor);
	if (mode === 'window') {
		return {
			changes: compareWindow(state, listing),
			gone: [],
			next: windowState(state.scope, listing, cursor),
		};
	}
	return { ...compareFull(state, listing), next: fullState(state.scope, listing, cursor) };
}

/** Deterministic output order: by service time of the change, then path, then hash; unknown times last. */
export function orderChanges(changes: Change[]): Change[] {
	const time = (change: Change) =>
		change.at !== undefined && Number.isFinite(change.at) ? change.at : Infinity;
	return [...changes].sort(
		(a, b) =>
			time(a) - time(b) ||
			(a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0) ||
			(a.entry.hash < b.entry.hash ? -1 : a.entry.hash > b.entry.hash ? 1 : 0),
	);
}

/** The most recently changed items, newest first, for a manual test run. */
export function mostRecent(listing: Listing, limit: number): ListedEntry[] {
	const latest = (entry: ListedEntry) => Math.max(entry.modified, entry.created ?? -Infinity);
	return [...listing.entries]
		.sort((a, b) => latest(b) - latest(a) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
		.slice(0, limit);
}
