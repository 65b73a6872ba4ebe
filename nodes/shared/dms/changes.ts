/**
 * Change detection for the DMS trigger: compares the documents a poll lists with what the previous poll kept
 * in the workflow's static data. Plain data in, plain data out (no n8n imports), so every rule is unit-tested.
 *
 * Documents are tracked by id, never by their position in the newest-first list (which shifts whenever a
 * document is created while a poll pages). Service timestamps are only compared with service timestamps.
 */
import { PackError } from '../errors/pack-error';
import type { DmsDocument, Reference } from './types';

export type DmsEvent = 'created' | 'updated' | 'statusChanged' | 'responsibleChanged';

/**
 * `window`: Created only, so the state is a cursor on the creation time plus the ids created in the last
 * LAG_SECONDS before it. `full`: the other events compare each listed document with its last snapshot.
 */
export type DmsTrackingMode = 'window' | 'full';

/** How far below the newest creation time seen a document still counts as possibly unseen. */
export const LAG_SECONDS = 300;

/** Written by the service; never a change of their own. */
const META_FIELDS = new Set([
	'dvs_document_id',
	'full_number',
	'creator',
	'date_created',
	'date_updated',
]);

/**
 * A field value as kept in the state: a reference by its id (display names are kept once, in `names`),
 * a list of references by their ids, a string as it is, anything else as JSON (`{j}`).
 */
export type CompactValue = null | string | number | number[] | { j: string };

/** Per document: date_updated as listed, and the tracked fields' compact values in the order of `fields`. */
export type Snapshot = [string, CompactValue[]];

export interface DmsTriggerState {
	v: 1;
	/** Register, filters and tracked fields: any difference starts afresh. */
	scope: string;
	/** Newest creation time seen (service seconds); null while nothing was listed. */
	cursor: number | null;
	/** window mode: id → creation time of the documents created at or after `cursor - LAG_SECONDS`. */
	recent?: Record<string, number>;
	/** full mode: the compared fields, named once for every snapshot. */
	fields?: string[];
	/** full mode: every listed document's snapshot, by id. */
	docs?: Record<string, Snapshot>;
	/** full mode: `<field>:<id>` → display name, for the old values of references. */
	names?: Record<string, string>;
}

export interface DmsChange {
	event: DmsEvent;
	document: DmsDocument;
	/** updated: the fields whose listed values differ, old and new as the documents carry them. */
	changes?: Record<string, { old: unknown; new: unknown }>;
	/** statusChanged / responsibleChanged: the value before and now. */
	from?: unknown;
	to?: unknown;
	/** Service time of the change (seconds); orders the output. */
	at: number;
}

/** `YYYY-MM-DD HH:MM:SS` as seconds; the zone is unknown but the same for every service timestamp. */
export function serviceSeconds(value: unknown): number {
	const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(
		String(value ?? ''),
	);
	if (!match) return Number.NaN;
	const [, y, mo, d, h, mi, s] = match;
	return Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0)) / 1000;
}

/** The creation time a document must carry for Created events; its absence is reported, not guessed around. */
export function createdAt(doc: DmsDocument): number {
	const seconds = serviceSeconds(doc.date_created);
	if (Number.isFinite(seconds)) return seconds;
	throw new PackError(
		`The document-management API listed document ${doc.dvs_document_id} without a readable date_created`,
		{
			description: `The trigger orders new documents by their creation time (the documents describe date_created as "YYYY-MM-DD HH:MM:SS"); it received ${JSON.stringify(doc.date_created ?? null)}. Choose events other than Created for this register, or report the service's answer.`,
		},
	);
}

const isReference = (value: unknown): value is Reference =>
	!!value &&
	typeof value === 'object' &&
	!Array.isArray(value) &&
	Number.isInteger((value as Reference).id);

function compact(field: string, value: unknown, names: Record<string, string>): CompactValue {
	if (value === null || value === undefined) return null;
	if (typeof value === 'string') return value;
	if (isReference(value)) {
		names[`${field}:${value.id}`] = String(value.display_name ?? '');
		return value.id;
	}
	if (Array.isArray(value) && value.every(isReference)) {
		for (const entry of value) names[`${field}:${entry.id}`] = String(entry.display_name ?? '');
		return value.map((entry) => entry.id);
	}
	return { j: JSON.stringify(value) };
}

/** The value as the document carried it when the snapshot was taken. */
export function expand(
	field: string,
	value: CompactValue | undefined,
	names: Record<string, string>,
): unknown {
	if (value === null || value === undefined) return null;
	if (typeof value === 'string') return value;
	const reference = (id: number): Reference => ({
		id,
		display_name: names[`${field}:${id}`] ?? '',
	});
	if (typeof value === 'number') return reference(value);
	if (Array.isArray(value)) return value.map(reference);
	return JSON.parse(value.j) as unknown;
}

const sameCompact = (a: CompactValue | undefined, b: CompactValue | undefined) =>
	JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields a full-mode snapshot keeps: all of them for Updated, else only those the events compare. */
export function trackedFields(events: Set<DmsEvent>): 'all' | string[] {
	if (events.has('updated')) return 'all';
	return [
		...(events.has('statusChanged') ? ['dropdown_status'] : []),
		...(events.has('responsibleChanged') ? ['responsible'] : []),
	];
}

function fieldOrder(docs: DmsDocument[], fields: 'all' | string[]): string[] {
	if (fields !== 'all') return fields;
	const keys = new Set<string>();
	for (const doc of docs)
		for (const key of Object.keys(doc)) if (!META_FIELDS.has(key)) keys.add(key);
	return [...keys].sort();
}

function values(
	doc: DmsDocument,
	order: string[],
	names: Record<string, string>,
): Record<string, CompactValue> {
	return Object.fromEntries(order.map((key) => [key, compact(key, doc[key], names)]));
}

function newestCreated(docs: DmsDocument[], previous: number | null): number | null {
	let cursor = previous;
	for (const doc of docs) {
		const created = createdAt(doc);
		if (cursor === null || created > cursor) cursor = created;
	}
	return cursor;
}

/**
 * The ids to remember: those listed now and those remembered before, within the window below the cursor.
 * Earlier entries are kept because a poll stops paging at its cursor and may not list the whole window again.
 */
function recentIds(
	docs: DmsDocument[],
	cursor: number | null,
	before: Record<string, number> = {},
): Record<string, number> {
	const recent: Record<string, number> = {};
	if (cursor === null) return recent;
	for (const [id, created] of Object.entries(before))
		if (created >= cursor - LAG_SECONDS) recent[id] = created;
	for (const doc of docs) {
		const created = createdAt(doc);
		if (created >= cursor - LAG_SECONDS) recent[doc.dvs_document_id] = created;
	}
	return recent;
}

function fullState(
	scope: string,
	docs: DmsDocument[],
	cursor: number | null,
	fields: 'all' | string[],
): DmsTriggerState {
	const names: Record<string, string> = {};
	const order = fieldOrder(docs, fields);
	const snapshots: Record<string, Snapshot> = {};
	for (const doc of docs)
		snapshots[doc.dvs_document_id] = [
			String(doc.date_updated ?? ''),
			order.map((key) => compact(key, doc[key], names)),
		];
	return { v: 1, scope, cursor, fields: order, docs: snapshots, names };
}

/** The state a first poll records: the current documents, with nothing reported. */
export function baseline(
	scope: string,
	docs: DmsDocument[],
	mode: DmsTrackingMode,
	fields: 'all' | string[],
): DmsTriggerState {
	const cursor = newestCreated(docs, null);
	return mode === 'full'
		? fullState(scope, docs, cursor, fields)
		: { v: 1, scope, cursor, recent: recentIds(docs, cursor) };
}

export function isUsableState(
	value: unknown,
	scope: string,
	mode: DmsTrackingMode,
): value is DmsTriggerState {
	if (!value || typeof value !== 'object') return false;
	const state = value as Partial<DmsTriggerState>;
	if (state.v !== 1 || state.scope !== scope) return false;
	return mode === 'full'
		? Array.isArray(state.fields) && !!state.docs && !!state.names
		: !!state.recent && typeof state.recent === 'object' && !Array.isArray(state.recent);
}

/**
 * window mode: true once a newest-first page reached a document created before the cursor, so later pages
 * hold nothing newer and paging stops (a quiet poll is one request).
 */
export function reachedOlder(cursor: number | null, page: DmsDocument[]): boolean {
	return cursor !== null && page.some((doc) => createdAt(doc) < cursor);
}

export interface DmsComparison {
	changes: DmsChange[];
	next: DmsTriggerState;
	/** False when the next state equals the stored one, so the workflow need not be saved. */
	changed: boolean;
}

function compareWindow(state: DmsTriggerState, docs: DmsDocument[]): DmsChange[] {
	const seen = new Set(Object.keys(state.recent ?? {}).map(Number));
	const floor = state.cursor === null ? -Infinity : state.cursor - LAG_SECONDS;
	const changes: DmsChange[] = [];
	for (const doc of docs) {
		const created = createdAt(doc);
		if (created >= floor && !seen.has(doc.dvs_document_id))
			changes.push({ event: 'created', document: doc, at: created });
	}
	return changes;
}

function compareFull(
	state: DmsTriggerState,
	docs: DmsDocument[],
	fields: 'all' | string[],
): DmsChange[] {
	const floor = state.cursor === null ? -Infinity : state.cursor - LAG_SECONDS;
	const names = state.names ?? {};
	const previousOrder = state.fields ?? [];
	const order = fieldOrder(docs, fields);
	const changes: DmsChange[] = [];
	for (const doc of docs) {
		const before = state.docs?.[doc.dvs_document_id];
		if (!before) {
			// Not listed last time: created since, or older and only now visible (filters, permissions), which is no event.
			const created = createdAt(doc);
			if (created >= floor) changes.push({ event: 'created', document: doc, at: created });
			continue;
		}
		const then = Object.fromEntries(previousOrder.map((key, i) => [key, before[1][i] ?? null]));
		const now = values(doc, order, {});
		const at = serviceSeconds(doc.date_updated);
		const differing = [...new Set([...previousOrder, ...order])]
			.sort()
			.filter((key) => !sameCompact(then[key], now[key]));
		const touched = before[0] !== String(doc.date_updated ?? '');
		if (!touched && differing.length === 0) continue;
		const timeOf = Number.isFinite(at) ? at : Number.POSITIVE_INFINITY;
		if (fields === 'all') {
			const fieldChanges: Record<string, { old: unknown; new: unknown }> = {};
			for (const key of differing)
				fieldChanges[key] = { old: expand(key, then[key], names), new: doc[key] ?? null };
			changes.push({ event: 'updated', document: doc, changes: fieldChanges, at: timeOf });
		}
		for (const [event, field] of [
			['statusChanged', 'dropdown_status'],
			['responsibleChanged', 'responsible'],
		] as const) {
			if (differing.includes(field)) {
				changes.push({
					event,
					document: doc,
					from: expand(field, then[field], names),
					to: doc[field] ?? null,
					at: timeOf,
				});
			}
		}
	}
	return changes;
}

/** What changed since the stored state, and the state to store once the whole poll has succeeded. */
export function compare(
	state: DmsTriggerState,
	docs: DmsDocument[],
	mode: DmsTrackingMode,
	fields: 'all' | string[],
): DmsComparison {
	const cursor = newestCreated(docs, state.cursor);
	if (mode === 'window') {
		const changes = compareWindow(state, docs);
		const next: DmsTriggerState = {
			v: 1,
			scope: state.scope,
			cursor,
			recent: recentIds(docs, cursor, state.recent),
		};
		return {
			changes,
			next,
			changed: changes.length > 0 || JSON.stringify(next) !== JSON.stringify(state),
		};
	}
	const changes = compareFull(state, docs, fields);
	const next = fullState(state.scope, docs, cursor, fields);
	return {
		changes,
		next,
		changed: changes.length > 0 || JSON.stringify(next) !== JSON.stringify(state),
	};
}

/** Deterministic output order: by service time, then id, then the order of the events above. */
export function orderChanges(changes: DmsChange[]): DmsChange[] {
	const rank: Record<DmsEvent, number> = {
		created: 0,
		updated: 1,
		statusChanged: 2,
		responsibleChanged: 3,
	};
	const byTime = (a: DmsChange, b: DmsChange) => (a.at === b.at ? 0 : a.at < b.at ? -1 : 1);
	return [...changes].sort(
		(a, b) =>
			byTime(a, b) ||
			a.document.dvs_document_id - b.document.dvs_document_id ||
			rank[a.event] - rank[b.event],
	);
}
