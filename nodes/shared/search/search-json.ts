/**
 * The search endpoint's `search_json` object (spec: Search), built from the node's fields or taken from
 * a user's raw JSON, and checked against the documented rules before anything is sent. No n8n imports:
 * problems are raised as SearchInputError (a PackError), which the router turns into n8n's input error.
 */
import { PackError } from '../errors/pack-error';

export const SEARCH_TYPES = ['DOCUMENTS', 'IMAGES', 'VIDEO', 'MUSIC', 'FOLDERS', 'FILES'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SEARCH_SECTIONS = [
	'MY',
	'SHARED_WITH_ME',
	'SHARED_WITH_ME_ONLY_ORGANIZATION',
	'DELETED',
	'THIS_FOLDER',
] as const;
export type SearchSection = (typeof SEARCH_SECTIONS)[number];

export const MIN_QUERY_LENGTH = 2;

export interface SearchCriterion {
	Field: string;
	Operator: string;
	Query: string | number;
	AdditionalParam?: string | number;
}

export interface SearchJson {
	Mode: 'simple' | 'advanced';
	Query?: string;
	Types?: Partial<Record<SearchType, boolean>>;
	Sections: Partial<Record<SearchSection, boolean>>;
	ThisFolder?: string;
	Operator?: 'AND' | 'OR';
	Criteria?: SearchCriterion[];
}

/** Bad input found before any request: a PackError of kind 'input', its hint the fix. */
export class SearchInputError extends PackError {
	constructor(message: string, hint: string) {
		super(message, { kind: 'input', description: hint });
	}
}

/** The query of either request style: trimmed, at least two characters (the service's minimum). */
export function checkQuery(query: unknown, what = 'Query'): string {
	const text =
		typeof query === 'string' ? query.trim() : typeof query === 'number' ? String(query) : '';
	if (text.length < MIN_QUERY_LENGTH) {
		throw new SearchInputError(
			text ? `${what} "${text}" is too short` : `${what} is empty`,
			`The search needs at least ${MIN_QUERY_LENGTH} characters, e.g. "invoice".`,
		);
	}
	return text;
}

export interface SearchFormInput {
	mode: 'simple' | 'advanced';
	query?: string;
	types: string[];
	sections: string[];
	thisFolder?: string;
	operator?: string;
	criteria?: Array<{
		field?: string;
		operator?: string;
		query?: string | number;
		additionalParam?: string | number;
	}>;
}

function flags<T extends string>(names: string[]): Partial<Record<T, boolean>> {
	return Object.fromEntries(names.map((name) => [name.toUpperCase(), true])) as Partial<
		Record<T, boolean>
	>;
}

/** search_json from the node's fields; the result still goes through validateSearchJson. */
export function buildSearchJson(input: SearchFormInput): SearchJson {
	const json: SearchJson = {
		Mode: input.mode,
		Types: flags<SearchType>(input.types),
		Sections: flags<SearchSection>(input.sections),
	};
	const query = (input.query ?? '').trim();
	if (query || input.mode === 'simple') json.Query = query;
	if (input.thisFolder !== undefined && json.Sections.THIS_FOLDER)
		json.ThisFolder = input.thisFolder;
	if (input.mode === 'advanced') {
		json.Operator = (input.operator ?? 'AND') as 'AND' | 'OR';
		json.Criteria = (input.criteria ?? []).map((row) => {
			const criterion: SearchCriterion = {
				Field: row.field ?? '',
				Operator: row.operator ?? '',
				Query: row.query ?? '',
			};
			if (row.additionalParam !== undefined && row.additionalParam !== '')
				criterion.AdditionalParam = row.additionalParam;
			return criterion;
		});
	}
	return json;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkFlags<T extends string>(
	value: unknown,
	allowed: readonly T[],
	field: string,
): Partial<Record<T, boolean>> {
	if (!isPlainObject(value)) {
		throw new SearchInputError(
			`${field} must be an object of booleans`,
			`For example {"${allowed[0]}": true}. Allowed keys: ${allowed.join(', ')}.`,
		);
	}
	for (const [key, on] of Object.entries(value)) {
		if (!allowed.includes(key as T)) {
			throw new SearchInputError(
				`${field} has an unknown key "${key}"`,
				`Allowed keys (upper case): ${allowed.join(', ')}.`,
			);
		}
		if (typeof on !== 'boolean')
			throw new SearchInputError(
				`${field}.${key} must be true or false`,
				'Use JSON booleans, not strings or numbers.',
			);
	}
	return value as Partial<Record<T, boolean>>;
}

function checkCriterion(row: unknown, index: number): SearchCriterion {
	const where = `Criteria row ${index + 1}`;
	if (!isPlainObject(row))
		throw new SearchInputError(
			`${where} must be an object`,
			'Each row has Field, Operator, Query and optionally AdditionalParam.',
		);
	for (const name of ['Field', 'Operator'] as const) {
		if (typeof row[name] !== 'string' || !(row[name] as string).trim()) {
			throw new SearchInputError(
				`${where} has no ${name}`,
				'Each row needs a Field (e.g. NAME) and an Operator (e.g. CONTAINS).',
			);
		}
	}
	const isValue = (value: unknown) =>
		(typeof value === 'string' && value.trim() !== '') ||
		(typeof value === 'number' && Number.isFinite(value));
	if (!isValue(row.Query))
		throw new SearchInputError(
			`${where} has no Query`,
			'Give the value to compare with, e.g. "invoice" or a number of bytes.',
		);
	if (
		row.AdditionalParam !== undefined &&
		row.AdditionalParam !== '' &&
		!isValue(row.AdditionalParam)
	) {
		throw new SearchInputError(
			`${where}: AdditionalParam must be text or a number`,
			'It carries the second value of operators such as BETWEEN.',
		);
	}
	return row as unknown as SearchCriterion;
}

/** The spec's rules for search_json, checked before sending so that a mistake never costs a request. */
export function validateSearchJson(value: unknown): SearchJson {
	if (!isPlainObject(value))
		throw new SearchInputError(
			'The search JSON must be an object',
			'For example {"Mode": "simple", "Query": "invoice", "Types": {}, "Sections": {"MY": true}}.',
		);
	const allowed = ['Mode', 'Query', 'Types', 'Sections', 'ThisFolder', 'Operator', 'Criteria'];
	const unknown = Object.keys(value).find((key) => !allowed.includes(key));
	if (unknown)
		throw new SearchInputError(
			`The search JSON has an unknown field "${unknown}"`,
			`Fields (case-sensitive): ${allowed.join(', ')}.`,
		);
	if (value.Mode !== 'simple' && value.Mode !== 'advanced') {
		throw new SearchInputError(
			'Mode must be "simple" or "advanced"',
			'Simple searches by Query and Types; advanced adds Operator and Criteria rows.',
		);
	}
	const simple = value.Mode === 'simple';
	if (simple || (value.Query !== undefined && value.Query !== '')) checkQuery(value.Query);
	if (simple && value.Types === undefined) {
		throw new SearchInputError(
			'Types is required in simple mode',
			'Use {} to search every type, or e.g. {"DOCUMENTS": true}.',
		);
	}
	if (value.Types !== undefined) checkFlags(value.Types, SEARCH_TYPES, 'Types');
	if (value.Sections === undefined)
		throw new SearchInputError(
			'Sections is required',
			'For example {"MY": true} to search your own files.',
		);
	const sections = checkFlags(value.Sections, SEARCH_SECTIONS, 'Sections');
	if (!Object.values(sections).some(Boolean)) {
		throw new SearchInputError(
			'Choose at least one section to search',
			`Sections: ${SEARCH_SECTIONS.join(', ')}; at least one must be true.`,
		);
	}
	if (sections.THIS_FOLDER && (typeof value.ThisFolder !== 'string' || !value.ThisFolder.trim())) {
		throw new SearchInputError(
			'The section "This Folder" needs a folder',
			'Give the folder to search in (ThisFolder: its hash).',
		);
	}
	if (!simple) {
		if (value.Operator !== 'AND' && value.Operator !== 'OR') {
			throw new SearchInputError(
				'Operator must be "AND" or "OR" in advanced mode',
				'AND: every criteria row must match; OR: any row.',
			);
		}
		if (!Array.isArray(value.Criteria) || value.Criteria.length === 0) {
			throw new SearchInputError(
				'Advanced mode needs at least one criteria row',
				'Add a row with Field, Operator and Query, or use simple mode.',
			);
		}
		value.Criteria.forEach(checkCriterion);
	}
	return value as unknown as SearchJson;
}

/** A user's raw search_json: a JSON text (or an object from an expression), validated like the built one. */
export function parseSearchJson(raw: unknown): SearchJson {
	let value = raw;
	if (typeof raw === 'string') {
		if (!raw.trim())
			throw new SearchInputError(
				'The search JSON is empty',
				'Enter a search_json object, or switch Define Search to Using Fields.',
			);
		let problem: string | undefined;
		try {
			value = JSON.parse(raw);
		} catch (error) {
			problem = (error as Error).message;
		}
		if (problem !== undefined)
			throw new SearchInputError(
				'The search JSON is not valid JSON',
				`${problem}. Check quotes, commas and brackets.`,
			);
	}
	return validateSearchJson(value);
}

/** table_column[<index>] of the spec: 2 name, 4 size, 5 owner, 6 views, any other index modification date. */
export const SORT_COLUMNS = { name: 2, size: 4, owner: 5, views: 6, modified: 7 } as const;
export type SortBy = keyof typeof SORT_COLUMNS;

export function sortFields(
	sortBy: SortBy,
	direction: 'ascending' | 'descending',
): Record<string, number> {
	const column = SORT_COLUMNS[sortBy] ?? SORT_COLUMNS.modified;
	return { [`table_column[${column}]`]: direction === 'ascending' ? 0 : 1 };
}

export const MAX_PAGE_SIZE = 1000;

export function checkPageSize(value: unknown): number {
	const size = Number(value);
	if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
		throw new SearchInputError(
			`Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
			'The service returns at most 1,000 results per page.',
		);
	}
	return size;
}
