import { extensionOf, extensionType } from './routes/v1-files.ts';
import { dateBound } from './routes/v2-esignature.ts';
import { sqlDateTime } from './ids.ts';
import { effectiveFileType, fileRights, folderRights, fileRightsView, isOpen } from './rights.ts';
import { fileCount, folderSize } from './stats.ts';
import type { Store } from './store.ts';
import type { Account, Folder, StoredFile } from './types.ts';

/** A validated search, whichever request style it came from. */
export interface SearchPlan {
	query: string;
	types: Set<TypeName>;
	sections: Set<SectionName>;
	thisFolder: Folder | null;
	noSubfolders: boolean;
	operator: 'AND' | 'OR';
	criteria: Criterion[];
}

export const TYPE_NAMES = ['DOCUMENTS', 'IMAGES', 'VIDEO', 'MUSIC', 'FOLDERS', 'FILES'] as const;
export type TypeName = (typeof TYPE_NAMES)[number];
export const SECTION_NAMES = [
	'MY',
	'SHARED_WITH_ME',
	'SHARED_WITH_ME_ONLY_ORGANIZATION',
	'DELETED',
	'THIS_FOLDER',
] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

/**
 * Criteria rows of advanced mode. The spec names the row fields but not their values; the sandbox
 * accepts these (case-insensitive) and answers `status: error` for anything else.
 */
export const CRITERIA_FIELDS = [
	'NAME',
	'EXTENSION',
	'CONTENT_TYPE',
	'TYPE',
	'SIZE',
	'MOD_DATE',
] as const;
const TEXT_OPERATORS = [
	'CONTAINS',
	'NOT_CONTAINS',
	'EQUALS',
	'NOT_EQUALS',
	'STARTS_WITH',
	'ENDS_WITH',
];
const RANGE_OPERATORS = ['EQUALS', 'NOT_EQUALS', 'GREATER', 'LESS', 'BETWEEN'];

export interface Criterion {
	field: (typeof CRITERIA_FIELDS)[number];
	operator: string;
	/** Lower-cased text, bytes, or a `YYYY-MM-DD HH:MM:SS` bound. */
	value: string | number;
	/** Upper bound of BETWEEN. */
	upper: string | number | null;
}

export class SearchError extends Error {}

export type Item = { kind: 'file'; file: StoredFile } | { kind: 'folder'; folder: Folder };

/** Storage subscribers: every plan but FREE. */
export const isSubscriber = (account: Account) => account.plan !== 'FREE';

export function parseCriterion(raw: unknown): Criterion {
	const row = (raw ?? {}) as Record<string, unknown>;
	const field = String(row.Field ?? '').toUpperCase() as Criterion['field'];
	const operator = String(row.Operator ?? '').toUpperCase();
	const query = row.Query;
	if (!CRITERIA_FIELDS.includes(field)) {
		throw new SearchError(`Criteria Field must be one of ${CRITERIA_FIELDS.join(', ')}`);
	}
	if (typeof query !== 'string' && typeof query !== 'number')
		throw new SearchError('Criteria Query is required');
	const ranged = field === 'SIZE' || field === 'MOD_DATE';
	if (!(ranged ? RANGE_OPERATORS : TEXT_OPERATORS).includes(operator)) {
		throw new SearchError(`Operator ${operator || '(none)'} does not apply to ${field}`);
	}
	const convert = (value: unknown, upper: boolean): string | number => {
		if (field === 'SIZE') {
			const bytes = Number(value);
			if (!Number.isFinite(bytes) || String(value).trim() === '')
				throw new SearchError('SIZE needs a number of bytes');
			return bytes;
		}
		if (field === 'MOD_DATE') {
			const bound = dateBound(String(value), upper);
			if (!bound) throw new SearchError('MOD_DATE needs a date YYYY-MM-DD [HH:MM:SS]');
			return bound;
		}
		return String(value).toLowerCase();
	};
	const between = operator === 'BETWEEN';
	if (between && (row.AdditionalParam === undefined || row.AdditionalParam === '')) {
		throw new SearchError('BETWEEN needs the upper bound in AdditionalParam');
	}
	return {
		field,
		operator,
		value: convert(query, operator === 'LESS' || operator === 'EQUALS'),
		upper: between ? convert(row.AdditionalParam, true) : null,
	};
}

function attribute(store: Store, item: Item, field: Criterion['field']): string | number {
	const name = item.kind === 'file' ? item.file.name : item.folder.name;
	switch (field) {
		case 'NAME':
			return name.toLowerCase();
		case 'EXTENSION':
			return item.kind === 'file' ? extensionOf(name) : '';
		case 'CONTENT_TYPE':
			return item.kind === 'file' ? item.file.mime : '';
		case 'TYPE':
			return item.kind;
		case 'SIZE':
			return item.kind === 'file' ? item.file.size : folderSize(store, item.folder.id);
		case 'MOD_DATE':
			return sqlDateTime(item.kind === 'file' ? item.file.modified : item.folder.modified);
	}
}

function meets(store: Store, item: Item, criterion: Criterion): boolean {
	const actual = attribute(store, item, criterion.field);
	const { value, upper } = criterion;
	switch (criterion.operator) {
		case 'CONTAINS':
			return String(actual).includes(String(value));
		case 'NOT_CONTAINS':
			return !String(actual).includes(String(value));
		case 'EQUALS':
			return criterion.field === 'MOD_DATE'
				? String(actual).startsWith(String(value).slice(0, 10))
				: actual === value;
		case 'NOT_EQUALS':
			return actual !== value;
		case 'STARTS_WITH':
			return String(actual).startsWith(String(value));
		case 'ENDS_WITH':
			return String(actual).endsWith(String(value));
		case 'GREATER':
			return actual > value;
		case 'LESS':
			return actual < value;
		case 'BETWEEN':
			return actual >= value && actual <= upper!;
		default:
			return false;
	}
}

/** Subscribers: every whitespace-separated term in the name. Others: the whole query as one substring. */
function matchesQuery(name: string, query: string, subscriber: boolean): boolean {
	if (!query) return true;
	const lower = name.toLowerCase();
	if (!subscriber) return lower.includes(query.toLowerCase());
	return query
		.toLowerCase()
		.split(/\s+/)
		.filter(Boolean)
		.every((term) => lower.includes(term));
}

function typeOf(item: Item): TypeName[] {
	if (item.kind === 'folder') return ['FOLDERS'];
	const category = extensionType(extensionOf(item.file.name));
	const byCategory: Record<string, TypeName> = {
		document: 'DOCUMENTS',
		image: 'IMAGES',
		video: 'VIDEO',
		audio: 'MUSIC',
	};
	return byCategory[category] ? ['FILES', byCategory[category]] : ['FILES'];
}

function below(store: Store, folder: Folder, recursive: boolean, out: Item[]): void {
	for (const child of store.subfolders(folder.id)) {
		out.push({ kind: 'folder', folder: child });
		if (recursive) below(store, child, true, out);
	}
	for (const file of store.filesIn(folder.id)) out.push({ kind: 'file', file });
}

/** Candidates of the chosen sections, each once. Shared sections are empty: the sandbox models no shares. */
function candidates(store: Store, caller: Account, plan: SearchPlan): Item[] {
	const found = new Map<string, Item>();
	const add = (item: Item) =>
		found.set(item.kind === 'file' ? `f${item.file.id}` : `d${item.folder.id}`, item);
	if (plan.sections.has('MY')) {
		const own: Item[] = [];
		below(store, store.rootOf(caller), true, own);
		own.forEach(add);
	}
	if (plan.sections.has('DELETED') && isSubscriber(caller)) {
		for (const folder of store.folders.values())
			if (folder.ownerId === caller.id && folder.deleted) add({ kind: 'folder', folder });
		for (const file of store.files.values())
			if (file.ownerId === caller.id && file.deleted) add({ kind: 'file', file });
	}
	if (plan.sections.has('THIS_FOLDER') && plan.thisFolder) {
		const inside: Item[] = [];
		below(store, plan.thisFolder, !plan.noSubfolders, inside);
		inside.forEach(add);
	}
	return [...found.values()].filter((item) =>
		item.kind === 'file'
			? fileRights(store, item.file, caller).allow_view
			: folderRights(item.folder, caller).allow_view,
	);
}

export function runSearch(store: Store, caller: Account, plan: SearchPlan): Item[] {
	const subscriber = isSubscriber(caller);
	return candidates(store, caller, plan).filter((item) => {
		const name = item.kind === 'file' ? item.file.name : item.folder.name;
		if (!matchesQuery(name, plan.query, subscriber)) return false;
		if (plan.types.size && !typeOf(item).some((type) => plan.types.has(type))) return false;
		// Non-subscribers get the simpler substring search only: criteria rows are not applied.
		if (!subscriber || !plan.criteria.length) return true;
		const results = plan.criteria.map((criterion) => meets(store, item, criterion));
		return plan.operator === 'AND' ? results.every(Boolean) : results.some(Boolean);
	});
}

/** `table_column[<index>]`: 2 name, 4 size, 5 owner, 6 views, anything else modification date. */
export function sortItems(
	store: Store,
	items: Item[],
	column: number | null,
	ascending: boolean,
): Item[] {
	const key = (item: Item): string | number => {
		const isFile = item.kind === 'file';
		switch (column) {
			case 2:
				return (isFile ? item.file.name : item.folder.name).toLowerCase();
			case 4:
				return isFile ? item.file.size : folderSize(store, item.folder.id);
			case 5:
				return store.owner(isFile ? item.file.ownerId : item.folder.ownerId).username.toLowerCase();
			case 6:
				return 0; // views are not counted by the sandbox
			default:
				return isFile ? item.file.modified : item.folder.modified;
		}
	};
	// Ties are broken by kind and id, always ascending, so pages never overlap or skip.
	const id = (item: Item) => (item.kind === 'folder' ? item.folder.id : 1e12 + item.file.id);
	const keyed = items.map((item) => ({ item, key: key(item), id: id(item) }));
	keyed.sort((a, b) => {
		const order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
		return (ascending ? order : -order) || a.id - b.id;
	});
	return keyed.map((entry) => entry.item);
}

export function pathOf(store: Store, folder: Folder, memo = new Map<number, string>()): string {
	if (folder.isRoot || folder.parentId === 0) return folder.isRoot ? '' : `/${folder.name}`;
	const cached = memo.get(folder.id);
	if (cached !== undefined) return cached;
	const parent = store.folders.get(folder.parentId);
	const value = `${parent ? pathOf(store, parent, memo) : ''}/${folder.name}`;
	memo.set(folder.id, value);
	return value;
}

/** The spec's "Search item (JSON format)". `path` is the item's full path from ROOT, e.g. `/Invoices/a.pdf`. */
export function jsonItem(
	store: Store,
	item: Item,
	caller: Account,
	withRights: boolean,
	memo: Map<number, string>,
) {
	if (item.kind === 'folder') {
		const { folder } = item;
		const parent = store.folders.get(folder.parentId);
		return {
			type: 'folder',
			name: folder.name,
			hash: folder.hash,
			size: folderSize(store, folder.id),
			mod_date: sqlDateTime(folder.modified),
			path: pathOf(store, folder, memo),
			public_access_type: isOpen(folder.accessType) ? 'PUBLIC' : 'PRIVATE',
			parent_hash: parent?.hash ?? null,
			content_type: null,
			file_count: fileCount(store, folder.id),
			subfolder_count: store.subfolders(folder.id).length,
			access_rights: withRights ? folderRights(folder, caller) : null,
		};
	}
	const { file } = item;
	const parent = store.folders.get(file.folderId)!;
	return {
		type: 'file',
		name: file.name,
		hash: file.hash,
		size: file.size,
		mod_date: sqlDateTime(file.modified),
		path: `${pathOf(store, parent, memo)}/${file.name}`,
		public_access_type: isOpen(effectiveFileType(store, file)) ? 'PUBLIC' : 'PRIVATE',
		parent_hash: parent.hash,
		content_type: file.mime,
		file_count: null,
		subfolder_count: null,
		access_rights: withRights ? fileRightsView(fileRights(store, file, caller)) : null,
	};
}
