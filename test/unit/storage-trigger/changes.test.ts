/**
 * The trigger's change engine as plain functions: what a poll reports given the previous state and the
 * current listing, in both tracking modes.
 */
import {
	baseline,
	compare,
	isUsableState,
	LAG_SECONDS,
	mostRecent,
	orderChanges,
	type Change,
	type ListedEntry,
	type Listing,
	type TrackingMode,
	type TriggerState,
} from '../../../nodes/shared/storage/changes';
import { flattenTree, legacySeconds, type TreeNode } from '../../../nodes/shared/storage/tree';

const T = 1_900_000_000;
const ROOT = 'R00T';

function file(
	hash: string,
	name: string,
	at: number,
	extra: Partial<ListedEntry> = {},
): ListedEntry {
	const parent = extra.parent ?? ROOT;
	return {
		hash,
		type: 'file',
		name,
		parent,
		path: extra.path ?? name,
		created: at,
		modified: at,
		...extra,
	};
}
function folder(
	hash: string,
	name: string,
	at: number,
	extra: Partial<ListedEntry> = {},
): ListedEntry {
	return {
		hash,
		type: 'folder',
		name,
		parent: ROOT,
		path: name,
		created: at,
		modified: at,
		...extra,
	};
}
const listing = (...entries: ListedEntry[]): Listing => ({
	root: { hash: ROOT, name: 'ROOT' },
	entries,
});
const summary = (changes: Change[]) =>
	orderChanges(changes).map(
		(c) =>
			`${c.event}:${c.entry.hash}${c.change ? `:${c.change}` : ''}${c.moved ? `:${c.moved}` : ''}`,
	);

/** Consecutive polls: the first records, each later one reports; returns what every poll reported. */
function polls(mode: TrackingMode, ...listings: Listing[]): string[][] {
	let state: TriggerState = baseline('scope', listings[0], mode);
	return listings.slice(1).map((current) => {
		const result = compare(state, current, mode);
		state = JSON.parse(JSON.stringify(result.next));
		return [
			...summary(result.changes),
			...result.gone.map(
				(g) => `gone:${g.entry.hash}:${g.parentListed ? 'parent-listed' : 'parent-gone'}`,
			),
		];
	});
}

describe.each<TrackingMode>(['window', 'full'])('%s mode', (mode) => {
	it('reports nothing on the first poll and nothing when nothing changed', () => {
		const now = listing(
			folder('F1', 'Docs', T),
			file('a', 'a.txt', T, { parent: 'F1', path: 'Docs/a.txt' }),
		);
		expect(polls(mode, now, now, now)).toEqual([[], []]);
	});

	it('reports each of 500 files uploaded in the same second once, also those arriving after a poll in that second', () => {
		const first = Array.from({ length: 250 }, (_, i) => file(`h${i}`, `f${i}.txt`, T));
		const second = Array.from({ length: 250 }, (_, i) => file(`h${250 + i}`, `f${250 + i}.txt`, T));
		const reported = polls(
			mode,
			listing(),
			listing(...first),
			listing(...first, ...second),
			listing(...first, ...second),
		);
		expect(reported[0]).toHaveLength(250);
		expect(reported[1]).toHaveLength(250);
		expect(reported[2]).toEqual([]);
		expect(new Set([...reported[0], ...reported[1]]).size).toBe(500);
		expect(reported.flat().every((line) => line.startsWith('fileCreated:'))).toBe(true);
	});

	it('reports a file replaced later as updated, once', () => {
		const a = file('a', 'a.txt', T);
		const replaced = { ...a, modified: T + 60 };
		expect(polls(mode, listing(a), listing(replaced), listing(replaced))).toEqual([
			[mode === 'full' ? 'fileUpdated:a:content' : 'fileUpdated:a'],
			[],
		]);
	});

	it('reports a rename as updated', () => {
		const a = file('a', 'a.txt', T);
		const renamed = { ...a, name: 'b.txt', path: 'b.txt', modified: T + 5 };
		expect(polls(mode, listing(a), listing(renamed))).toEqual([
			[mode === 'full' ? 'fileUpdated:a:renamed' : 'fileUpdated:a'],
		]);
	});

	it('reports folder creation in nested folders, folders before their files', () => {
		const before = listing(folder('F1', 'Docs', T));
		const after = listing(
			folder('F1', 'Docs', T),
			folder('F2', 'Sub', T + 10, { parent: 'F1', path: 'Docs/Sub' }),
			file('x', 'x.pdf', T + 10, { parent: 'F2', path: 'Docs/Sub/x.pdf' }),
		);
		expect(polls(mode, before, after, after)).toEqual([['folderCreated:F2', 'fileCreated:x'], []]);
	});

	it('does not look at the local clock: the same polls give the same result whatever Date.now says', () => {
		const a = file('a', 'a.txt', T);
		const b = file('b', 'b.txt', T + 1);
		const spy = jest.spyOn(Date, 'now');
		const results = [0, 4_102_444_800_000, T * 1000 - 86_400_000].map((now) => {
			spy.mockReturnValue(now);
			return polls(mode, listing(a), listing(a, b), listing(a, b));
		});
		spy.mockRestore();
		expect(results[1]).toEqual(results[0]);
		expect(results[2]).toEqual(results[0]);
		expect(results[0]).toEqual([['fileCreated:b'], []]);
	});

	it('catches an upload that became visible after a poll although its timestamp is older (within the lag window)', () => {
		const newest = file('n', 'n.txt', T + 100);
		const late = file('late', 'late.txt', T + 100 - LAG_SECONDS + 1);
		expect(
			polls(mode, listing(), listing(newest), listing(newest, late), listing(newest, late)),
		).toEqual([['fileCreated:n'], ['fileCreated:late'], []]);
	});

	it('keeps the cursor when the newest item disappears, so older items are not reported again', () => {
		const old = Array.from({ length: 5 }, (_, i) =>
			file(`o${i}`, `o${i}.txt`, T - 2 * LAG_SECONDS + i),
		);
		const newest = file('n', 'n.txt', T);
		const reported = polls(
			mode,
			listing(...old, newest),
			listing(...old),
			listing(...old),
			listing(...old),
		);
		expect(reported.flat().filter((line) => !line.startsWith('gone:'))).toEqual([]);
	});

	it('uses the service clock only: timestamps far in the past or future behave alike', () => {
		for (const base of [0, 86_400, 4_102_444_800]) {
			const a = file('a', 'a.txt', base);
			expect(
				polls(
					mode,
					listing(a),
					listing(a, file('b', 'b.txt', base)),
					listing(a, file('b', 'b.txt', base)),
				),
			).toEqual([['fileCreated:b'], []]);
		}
	});
});

describe('full mode only', () => {
	it('reports a file missing from the listing as gone, with its last known path and whether its folder is still there', () => {
		const docs = folder('F1', 'Docs', T);
		const sub = folder('F2', 'Sub', T, { parent: 'F1', path: 'Docs/Sub' });
		const a = file('a', 'a.txt', T, { parent: 'F2', path: 'Docs/Sub/a.txt' });
		const b = file('b', 'b.txt', T, { parent: 'F1', path: 'Docs/b.txt' });
		const state = baseline('s', listing(docs, sub, a, b), 'full');
		const { gone, changes } = compare(JSON.parse(JSON.stringify(state)), listing(docs, b), 'full');
		expect(changes).toEqual([]);
		expect(gone).toEqual([
			{
				entry: {
					hash: 'a',
					type: 'file',
					name: 'a.txt',
					parent: 'F2',
					path: 'Docs/Sub/a.txt',
					modified: T,
				},
				parentListed: false,
			},
		]);
		const second = compare(JSON.parse(JSON.stringify(state)), listing(docs, sub, a), 'full');
		expect(second.gone.map((g) => [g.entry.hash, g.entry.path, g.parentListed])).toEqual([
			['b', 'Docs/b.txt', true],
		]);
	});

	it('reports a move between watched folders with the previous folder and path', () => {
		const one = folder('F1', 'One', T);
		const two = folder('F2', 'Two', T);
		const a = file('a', 'a.txt', T, { parent: 'F1', path: 'One/a.txt' });
		const moved = { ...a, parent: 'F2', path: 'Two/a.txt', modified: T + 3 };
		const state = baseline('s', listing(one, two, a), 'full');
		const { changes, gone } = compare(state, listing(one, two, moved), 'full');
		expect(gone).toEqual([]);
		expect(changes).toEqual([
			{
				event: 'fileMoved',
				entry: moved,
				moved: 'within',
				previous: { parent: 'F1', name: 'a.txt', path: 'One/a.txt' },
				at: T + 3,
			},
		]);
	});

	it('reports an old file that appears as moved in, a new one as created', () => {
		const now = file('n', 'n.txt', T + 1000);
		const old = file('old', 'old.txt', T, { modified: T + 1000 });
		expect(
			polls('full', listing(now), listing(now, old, file('new', 'new.txt', T + 1000))),
		).toEqual([['fileCreated:new', 'fileMoved:old:in']]);
	});

	it('detects a rename within the same second as the previous poll (the name is compared, not only the time)', () => {
		const a = file('a', 'a.txt', T);
		expect(polls('full', listing(a), listing({ ...a, name: 'z.txt', path: 'z.txt' }))).toEqual([
			['fileUpdated:a:renamed'],
		]);
	});

	it('keeps the state compact: a few dozen bytes per item', () => {
		const entries = Array.from({ length: 1000 }, (_, i) =>
			file(`hash${i}abcdefghij`, `file ${i}.txt`, T + i, { parent: 'F1' }),
		);
		const state = baseline('s', listing(folder('F1', 'Docs', T), ...entries), 'full');
		expect(JSON.stringify(state).length / 1000).toBeLessThan(60);
	});
});

describe('window mode only', () => {
	it('keeps only the items changed within the lag window before the newest timestamp', () => {
		const old = Array.from({ length: 100 }, (_, i) =>
			file(`o${i}`, `o${i}.txt`, T - LAG_SECONDS - 10 - i),
		);
		const fresh = Array.from({ length: 3 }, (_, i) => file(`n${i}`, `n${i}.txt`, T - i));
		const state = baseline('s', listing(...old, ...fresh), 'window');
		expect(state.cursor).toBe(T);
		expect(Object.keys(state.recent ?? {}).sort()).toEqual(['n0', 'n1', 'n2']);
	});

	it('reports a change to an old file as updated, not created', () => {
		const a = file('a', 'a.txt', T - 10 * LAG_SECONDS);
		expect(
			polls(
				'window',
				listing(a, file('b', 'b.txt', T)),
				listing({ ...a, modified: T + 1 }, file('b', 'b.txt', T)),
			),
		).toEqual([['fileUpdated:a']]);
	});
});

describe('state checks, ordering and samples', () => {
	it('accepts only a state of the same scope and mode', () => {
		const state = baseline('scope-1', listing(), 'full');
		expect(isUsableState(state, 'scope-1', 'full')).toBe(true);
		expect(isUsableState(state, 'scope-2', 'full')).toBe(false);
		expect(isUsableState(state, 'scope-1', 'window')).toBe(false);
		expect(isUsableState(undefined, 'scope-1', 'full')).toBe(false);
		expect(isUsableState({ v: 2, scope: 'scope-1' }, 'scope-1', 'full')).toBe(false);
	});

	it('orders by service time, then path, then hash, with unknown times last', () => {
		const changes: Change[] = [
			{ event: 'fileDeleted', entry: file('d', 'd', T) },
			{ event: 'fileCreated', entry: file('b', 'b', T), at: T },
			{ event: 'fileCreated', entry: file('a', 'a', T), at: T },
			{ event: 'fileCreated', entry: file('z', 'z', T - 1), at: T - 1 },
		];
		expect(orderChanges(changes).map((c) => c.entry.hash)).toEqual(['z', 'a', 'b', 'd']);
	});

	it('lists the most recently changed items first', () => {
		const items = [
			file('a', 'a', T),
			file('b', 'b', T + 5),
			file('c', 'c', T, { modified: T + 9 }),
		];
		expect(mostRecent(listing(...items), 2).map((e) => e.hash)).toEqual(['c', 'b']);
	});
});

describe('tree flattening', () => {
	it('gives every nested item its parent hash and path; legacy date-times read as UTC', () => {
		const tree: TreeNode = {
			Type: 'folder',
			Hash: 'R',
			Name: 'ROOT',
			ParentID: 0,
			Children: [
				{
					Type: 'folder',
					Hash: 'F',
					Name: 'Docs',
					CreatedDate: '2030-01-02 03:04:05',
					ModifiedDate: '2030-01-02 03:04:06',
					Children: [
						{
							Type: 'file',
							Hash: 'x',
							Name: 'x.pdf',
							CreatedDate: '2030-01-02 03:04:07',
							ModifiedDate: '2030-01-02 03:04:08',
							Children: false as const,
						},
					],
				},
			],
		};
		const flat = flattenTree(tree);
		expect(flat.root).toEqual({ hash: 'R', name: 'ROOT' });
		expect(flat.entries.map((e) => [e.type, e.hash, e.parent, e.path])).toEqual([
			['folder', 'F', 'R', 'Docs'],
			['file', 'x', 'F', 'Docs/x.pdf'],
		]);
		expect(flat.entries[1].modified).toBe(Date.UTC(2030, 0, 2, 3, 4, 8) / 1000);
		expect(legacySeconds('garbage')).toBeNaN();
	});
});
