import { json, type Reply } from '../http/reply.ts';
import { flag, type SandboxRequest } from '../http/request.ts';
import { folderRights } from '../rights.ts';
import type { Ctx, Route } from '../router.ts';
import {
	jsonItem,
	parseCriterion,
	runSearch,
	SearchError,
	SECTION_NAMES,
	sortItems,
	TYPE_NAMES,
	type Item,
	type SearchPlan,
	type SectionName,
	type TypeName,
} from '../search.ts';
import type { Store } from '../store.ts';
import type { Account, Folder } from '../types.ts';

const failure = (message: string, status = 200) => json({ status: 'error', message }, status);

const HEADERS = ['', 'Type', 'Name', 'Path', 'Size', 'Owner', 'Views', 'Modified'];

function folderFor(store: Store, hash: unknown, caller: Account, what: string): Folder {
	if (typeof hash !== 'string' || !hash) throw new SearchError(`${what} needs a folder hash`);
	const folder = store.folder(hash);
	if (!folder || !folderRights(folder, caller).allow_view)
		throw new SearchError(`${what}: folder not found`);
	return folder;
}

function trueKeys<T extends string>(value: unknown, allowed: readonly T[], what: string): Set<T> {
	if (value === undefined || value === null) return new Set();
	if (typeof value !== 'object' || Array.isArray(value))
		throw new SearchError(`${what} must be an object of booleans`);
	const keys = Object.entries(value as Record<string, unknown>)
		.filter(([, on]) => on === true || on === 1 || on === '1' || on === 'true')
		.map(([key]) => key.toUpperCase() as T);
	const unknown = keys.find((key) => !allowed.includes(key));
	if (unknown) throw new SearchError(`${what}: unknown key ${unknown}`);
	return new Set(keys);
}

/** Style 1: `result_format=JSON` + `query` [+ `folder_hash`, subfolders unless NoSubfolders]. */
function simplePlan(req: SandboxRequest, store: Store, caller: Account): SearchPlan {
	const query = (req.fields.get('query') ?? '').trim();
	if (query.length < 2) throw new SearchError('query must have at least 2 characters');
	const hash = req.fields.get('folder_hash');
	const root = store.rootOf(caller);
	const inFolder =
		hash && hash !== root.hash ? folderFor(store, hash, caller, 'folder_hash') : null;
	return {
		query,
		types: new Set(),
		sections: new Set<SectionName>(
			inFolder ? ['THIS_FOLDER'] : ['MY', 'SHARED_WITH_ME_ONLY_ORGANIZATION'],
		),
		thisFolder: inFolder,
		noSubfolders: flag(req.fields.get('NoSubfolders')),
		operator: 'AND',
		criteria: [],
	};
}

/** Style 2: `search_json`, validated field by field (each problem is a `status: error` message). */
function fullPlan(req: SandboxRequest, raw: string, store: Store, caller: Account): SearchPlan {
	let spec: Record<string, unknown>;
	try {
		spec = JSON.parse(raw);
	} catch {
		throw new SearchError('search_json is not valid JSON');
	}
	if (!spec || typeof spec !== 'object' || Array.isArray(spec))
		throw new SearchError('search_json must be an object');
	const mode = spec.Mode;
	if (mode !== 'simple' && mode !== 'advanced')
		throw new SearchError('Mode must be simple or advanced');
	const query = typeof spec.Query === 'string' ? spec.Query.trim() : '';
	if (mode === 'simple' && query.length < 2)
		throw new SearchError('Query must have at least 2 characters');
	if (mode === 'simple' && (typeof spec.Types !== 'object' || spec.Types === null)) {
		throw new SearchError('Types is required in simple mode (an empty object searches all types)');
	}
	if (mode === 'advanced' && query && query.length < 2)
		throw new SearchError('Query must have at least 2 characters');
	const types = trueKeys<TypeName>(spec.Types, TYPE_NAMES, 'Types');
	if (typeof spec.Sections !== 'object' || spec.Sections === null)
		throw new SearchError('Sections is required');
	const sections = trueKeys<SectionName>(spec.Sections, SECTION_NAMES, 'Sections');
	if (!sections.size) throw new SearchError('Sections: at least one section must be true');
	const thisFolder = sections.has('THIS_FOLDER')
		? folderFor(store, spec.ThisFolder, caller, 'ThisFolder')
		: null;
	let operator: 'AND' | 'OR' = 'AND';
	let criteria: SearchPlan['criteria'] = [];
	if (mode === 'advanced') {
		if (spec.Operator !== 'AND' && spec.Operator !== 'OR')
			throw new SearchError('Operator must be AND or OR');
		if (!Array.isArray(spec.Criteria) || !spec.Criteria.length) {
			throw new SearchError('Criteria must be a non-empty array in advanced mode');
		}
		operator = spec.Operator;
		criteria = spec.Criteria.map(parseCriterion);
	}
	return {
		query,
		types,
		sections,
		thisFolder,
		noSubfolders: flag(req.fields.get('NoSubfolders')),
		operator,
		criteria,
	};
}

function integerField(
	req: SandboxRequest,
	name: string,
	fallback: number,
	min: number,
	max: number,
): number {
	const raw = req.fields.get(name);
	if (raw === null || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < min || value > max) {
		throw new SearchError(`${name} must be an integer from ${min} to ${max}`);
	}
	return value;
}

/** The first `table_column[<index>]` parameter: 0 ascending, anything else descending. Default: newest first. */
function sortOrder(req: SandboxRequest): { column: number | null; ascending: boolean } {
	for (const [name, value] of req.fields) {
		const match = /^table_column\[(\d+)\]$/.exec(name);
		if (match) return { column: Number(match[1]), ascending: value.trim() === '0' };
	}
	return { column: null, ascending: false };
}

const escape = (value: string) =>
	value.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
	);

function htmlRow(ctx: Ctx, item: ReturnType<typeof jsonItem>, owner: string): string {
	const link = `${ctx.webUrl}/${item.type === 'file' ? 'f' : 'u'}/${item.hash}`;
	const cells = [
		`<input type="checkbox" value="${escape(item.hash)}">`,
		item.type,
		`<a href="${escape(link)}">${escape(item.name)}</a>`,
		escape(item.path),
		String(item.size),
		escape(owner),
		'0',
		item.mod_date,
	];
	return `<tr data-hash="${escape(item.hash)}" data-type="${item.type}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
}

/**
 * `{web_url}/ajax/search.php`. Session only (cookie or PHPSESSID parameter): any other credential, or an
 * expired session, is `status: error` with HTTP 401 (or 200: config.searchSessionErrorStatus). Bad requests answer HTTP 200 with `status: error` and a
 * message, as the spec describes. Both formats share the envelope status, total_rows, page_count,
 * total_time and rows (JSON items, or HTML rows plus headers for the web-table format).
 */
function search(req: SandboxRequest, ctx: Ctx): Reply {
	const started = process.hrtime.bigint();
	const { auth, store } = ctx;
	const bySession =
		auth.kind === 'ok' && (auth.method === 'session-cookie' || auth.method === 'session-param');
	if (!bySession)
		return failure(
			auth.kind === 'none' ? 'Not logged in' : 'Session expired or invalid',
			ctx.config.searchSessionErrorStatus,
		);
	const caller = auth.account;
	try {
		const format = req.fields.get('result_format');
		if (format === 'UNIFIED')
			throw new SearchError('result_format UNIFIED is not modelled by the sandbox');
		if (format !== null && format !== 'JSON')
			throw new SearchError('result_format must be JSON or UNIFIED');
		const rawJson = req.fields.get('search_json');
		const plan =
			rawJson !== null ? fullPlan(req, rawJson, store, caller) : simplePlan(req, store, caller);
		const size = integerField(req, 'table_size', 1000, 1, 1000);
		const page = integerField(req, 'table_page', 0, 0, Number.MAX_SAFE_INTEGER);
		const { column, ascending } = sortOrder(req);
		const found = sortItems(store, runSearch(store, caller, plan), column, ascending);
		const memo = new Map<number, string>();
		const withRights = flag(req.fields.get('get_access_rights'));
		const items = found
			.slice(page * size, (page + 1) * size)
			.map((item: Item) => jsonItem(store, item, caller, withRights, memo));
		const envelope = {
			status: 'ok',
			total_rows: found.length,
			page_count: Math.ceil(found.length / size),
			total_time: Number(process.hrtime.bigint() - started) / 1e9,
		};
		if (format === 'JSON') return json({ ...envelope, rows: items });
		const ownerName = (hash: string) => {
			const item = store.anyByHash(hash);
			return item ? store.owner(item.ownerId).username : '';
		};
		return json({
			...envelope,
			headers: HEADERS,
			rows: items.map((item) => htmlRow(ctx, item, ownerName(item.hash))),
		});
	} catch (error) {
		if (error instanceof SearchError) return failure(error.message);
		throw error;
	}
}

export const searchRoutes: Route[] = [
	{
		api: 'search',
		methods: ['GET', 'POST'],
		path: '/ajax/search.php',
		body: 'form',
		action: () => 'search',
		handle: search,
	},
];
