/** The DMS trigger's change detection, on inline documents: ids not positions, old values, the window. */
import {
	baseline,
	compare,
	createdAt,
	isUsableState,
	LAG_SECONDS,
	orderChanges,
	reachedOlder,
	trackedFields,
	type DmsEvent,
} from '../../../nodes/shared/dms/changes';
import type { DmsDocument } from '../../../nodes/shared/dms/types';

const at = (seconds: number) =>
	new Date(Date.UTC(2030, 0, 1) + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
const OPEN = { id: 31, display_name: 'Open' };
const DONE = { id: 33, display_name: 'Done' };
const ALICE = { id: 2001, display_name: 'Alice Archer' };
const BOB = { id: 2002, display_name: 'Bob Baker' };

function task(id: number, created: number, extra: Partial<DmsDocument> = {}): DmsDocument {
	return {
		dvs_document_id: id,
		full_number: `T-${id}`,
		name: `Task ${id}`,
		dvs_project_id: { id: 11, display_name: 'Website relaunch' },
		dropdown_status: OPEN,
		responsible: ALICE,
		followers: [ALICE],
		estimated_hours: '2',
		creator: ALICE,
		date_created: at(created),
		date_updated: at(created),
		...extra,
	};
}

const events = (...names: DmsEvent[]) => new Set(names);
const summary = (changes: ReturnType<typeof compare>['changes']) =>
	changes.map((change) => `${change.event} ${change.document.dvs_document_id}`);

describe('window mode (Created only)', () => {
	it('records the newest documents on the first poll and reports only documents it has not seen', () => {
		const first = baseline('s', [task(2, 100), task(1, 50)], 'window', []);
		const t = createdAt(task(1, 0));
		expect(first).toEqual({ v: 1, scope: 's', cursor: t + 100, recent: { 1: t + 50, 2: t + 100 } });
		const { changes, next, changed } = compare(
			first,
			[task(4, 100), task(3, 101), task(2, 100), task(1, 50)],
			'window',
			[],
		);
		expect(summary(orderChanges(changes))).toEqual(['created 4', 'created 3']);
		expect(changed).toBe(true);
		expect(compare(next, [task(4, 100), task(3, 101), task(2, 100)], 'window', []).changes).toEqual(
			[],
		);
	});

	it('tracks by id: a document seen on two pages (the list shifted) is reported once', () => {
		const first = baseline('s', [task(1, 0)], 'window', []);
		const shifted = [task(3, 10), task(2, 5), task(2, 5), task(1, 0)];
		expect(summary(compare(first, shifted, 'window', []).changes)).toEqual([
			'created 3',
			'created 2',
			'created 2',
		]);
	});

	it('stops paging at the first document created before the cursor, and not before', () => {
		const state = baseline('s', [task(1, 1000)], 'window', []);
		expect(reachedOlder(state.cursor, [task(2, 1001), task(1, 1000)])).toBe(false);
		expect(reachedOlder(state.cursor, [task(2, 1001), task(1, 999)])).toBe(true);
	});

	it('remembers the window across polls that did not list all of it (no document reported twice)', () => {
		const state = baseline('s', [task(3, 1000), task(2, 900), task(1, 800)], 'window', []);
		// The next poll stopped on its first page: only the newest were listed.
		const { next } = compare(state, [task(4, 1001), task(3, 1000)], 'window', []);
		expect(Object.keys(next.recent!)).toEqual(['1', '2', '3', '4']);
		expect(
			compare(next, [task(4, 1001), task(3, 1000), task(2, 900)], 'window', []).changes,
		).toEqual([]);
		expect(
			Object.keys(compare(next, [task(5, 1000 + LAG_SECONDS)], 'window', []).next.recent!),
		).toEqual(['3', '4', '5']);
	});

	it('a quiet poll leaves the state unchanged (nothing to save)', () => {
		const state = baseline('s', [task(2, 100), task(1, 50)], 'window', []);
		expect(compare(state, [task(2, 100), task(1, 50)], 'window', []).changed).toBe(false);
	});

	it('refuses documents without a readable date_created, naming the value', () => {
		expect(() => baseline('s', [task(1, 0, { date_created: 'yesterday' })], 'window', [])).toThrow(
			/without a readable date_created/,
		);
	});
});

describe('full mode (Updated, Status Changed, Responsible Changed)', () => {
	const all = trackedFields(events('updated', 'statusChanged', 'responsibleChanged'));

	it('reports the changed fields with old and new values as the documents carry them', () => {
		const state = baseline('s', [task(1, 0)], 'full', all);
		const updated = task(1, 0, {
			date_updated: at(60),
			dropdown_status: DONE,
			responsible: BOB,
			followers: [ALICE, BOB],
			estimated_hours: '3',
		});
		const { changes } = compare(state, [updated], 'full', all);
		expect(summary(changes)).toEqual(['updated 1', 'statusChanged 1', 'responsibleChanged 1']);
		expect(changes[0].changes).toEqual({
			dropdown_status: { old: OPEN, new: DONE },
			responsible: { old: ALICE, new: BOB },
			followers: { old: [ALICE], new: [ALICE, BOB] },
			estimated_hours: { old: '2', new: '3' },
		});
		expect(changes[1]).toMatchObject({ from: OPEN, to: DONE });
		expect(changes[2]).toMatchObject({ from: ALICE, to: BOB });
	});

	it('reports an update of a field the list omits (date_updated moved) with no listed changes', () => {
		const state = baseline('s', [task(1, 0)], 'full', all);
		const { changes } = compare(state, [task(1, 0, { date_updated: at(5) })], 'full', all);
		expect(changes).toHaveLength(1);
		expect(changes[0]).toMatchObject({ event: 'updated', changes: {} });
	});

	it('catches a change within the same second as the last poll (values compared, not only date_updated)', () => {
		const state = baseline('s', [task(1, 0)], 'full', all);
		expect(summary(compare(state, [task(1, 0, { name: 'Renamed' })], 'full', all).changes)).toEqual(
			['updated 1'],
		);
	});

	it('status-only tracking keeps only the status of each document', () => {
		const fields = trackedFields(events('statusChanged'));
		const state = baseline('s', [task(1, 0)], 'full', fields);
		expect(state.fields).toEqual(['dropdown_status']);
		expect(state.docs).toEqual({ 1: [at(0), [31]] });
		expect(state.names).toEqual({ 'dropdown_status:31': 'Open' });
		expect(
			summary(
				compare(state, [task(1, 0, { name: 'x', date_updated: at(1) })], 'full', fields).changes,
			),
		).toEqual([]);
		expect(
			summary(compare(state, [task(1, 0, { dropdown_status: DONE })], 'full', fields).changes),
		).toEqual(['statusChanged 1']);
	});

	it('a new document is Created; an old one newly visible (filter, permission) is no event; a vanished one neither', () => {
		const state = baseline('s', [task(1, 1000), task(2, 900)], 'full', all);
		const { changes, next } = compare(
			state,
			[task(3, 1001), task(9, 10), task(1, 1000)],
			'full',
			all,
		);
		expect(summary(changes)).toEqual(['created 3']);
		expect(Object.keys(next.docs!)).toEqual(['1', '3', '9']);
	});

	it('keeps values that are neither strings nor references, and display names for old values', () => {
		const state = baseline('s', [task(1, 0, { extra: { a: 1 }, labels: [] })], 'full', all);
		const { changes } = compare(state, [task(1, 0, { extra: { a: 2 }, labels: [] })], 'full', all);
		expect(changes[0].changes).toEqual({ extra: { old: { a: 1 }, new: { a: 2 } } });
	});

	it('names each compared field once in the state; a field the list starts to carry is a change from null', () => {
		const state = baseline('s', [task(1, 0), task(2, 0)], 'full', all);
		expect(state.fields).toEqual([
			'dropdown_status',
			'dvs_project_id',
			'estimated_hours',
			'followers',
			'name',
			'responsible',
		]);
		expect(state.docs![1]).toEqual([at(0), [31, 11, '2', [2001], 'Task 1', 2001]]);
		const { changes } = compare(
			state,
			[task(1, 0, { date_due: '2030-02-01' }), task(2, 0)],
			'full',
			all,
		);
		expect(changes.map((change) => change.changes)).toEqual([
			{ date_due: { old: null, new: '2030-02-01' } },
		]);
	});

	it('orders by service time, then id', () => {
		const state = baseline('s', [task(1, 0), task(2, 0)], 'full', all);
		const { changes } = compare(
			state,
			[
				task(2, 0, { name: 'b', date_updated: at(5) }),
				task(1, 0, { name: 'a', date_updated: at(9) }),
			],
			'full',
			all,
		);
		expect(summary(orderChanges(changes))).toEqual(['updated 2', 'updated 1']);
	});

	it('a state from other settings is not used', () => {
		const state = baseline('s', [task(1, 0)], 'full', all);
		expect(isUsableState(state, 's', 'full')).toBe(true);
		expect(isUsableState(state, 'other', 'full')).toBe(false);
		expect(isUsableState(state, 's', 'window')).toBe(false);
	});
});
