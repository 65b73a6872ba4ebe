/**
 * The three paging styles of the service, each fetching pages through a caller-supplied function so
 * that the HTTP, retries and errors stay in one place (apiRequest). Every helper stops at `max` items.
 */

import { mapBounded } from './bounded';

export interface OffsetPage<T> {
	items: T[];
	total: number;
}

/** DMS get_documents: limit/offset, continuing with offset + items until offset reaches total. */
export async function collectByOffsetTotal<T>(
	fetchPage: (offset: number, limit: number) => Promise<OffsetPage<T>>,
	options: { pageSize: number; max?: number; concurrency?: number },
): Promise<T[]> {
	const max = options.max ?? Number.POSITIVE_INFINITY;
	const results: T[] = [];
	let offset = 0;
	for (;;) {
		const limit = Math.min(options.pageSize, max - results.length);
		const page = await fetchPage(offset, limit);
		results.push(...page.items.slice(0, max - results.length));
		offset += page.items.length;
		// An empty page before total would otherwise loop for ever if the total shrank meanwhile.
		if (page.items.length === 0 || offset >= page.total || results.length >= max) return results;
		if ((options.concurrency ?? 1) > 1 && page.items.length === limit) {
			const rest = await fetchAhead(
				fetchPage,
				offset,
				Math.min(page.total, max) - results.length,
				options,
			);
			results.push(...rest.items.slice(0, max - results.length));
			offset += rest.items.length;
			// Items created meanwhile push older ones past the first total: continue while the list says so.
			if ((!rest.gap && offset >= rest.total) || results.length >= max) return results;
		}
	}
}

/**
 * Once the first page has given the total, the remaining pages are known in advance and can be fetched
 * a few at a time. Pages are assembled in order; a short page before the end means the list changed
 * meanwhile, so later pages are dropped (`gap`) and the caller continues one page at a time from there.
 */
async function fetchAhead<T>(
	fetchPage: (offset: number, limit: number) => Promise<OffsetPage<T>>,
	start: number,
	remaining: number,
	options: { pageSize: number; concurrency?: number },
): Promise<{ items: T[]; gap: boolean; total: number }> {
	const plan: Array<{ offset: number; limit: number }> = [];
	for (let planned = 0; planned < remaining; planned += options.pageSize) {
		plan.push({ offset: start + planned, limit: Math.min(options.pageSize, remaining - planned) });
	}
	const pages = await mapBounded(
		plan,
		options.concurrency ?? 1,
		async (page) => await fetchPage(page.offset, page.limit),
	);
	const items: T[] = [];
	for (let index = 0; index < plan.length; index++) {
		const page = pages[index];
		items.push(...page.items);
		if (page.items.length < plan[index].limit) return { items, gap: true, total: page.total };
	}
	return { items, gap: false, total: pages[pages.length - 1].total };
}

export interface NumberedPage<T> {
	rows: T[];
	pageCount: number;
}

/** Search: zero-based table_page with table_size rows, until page_count pages were read. */
export async function collectByPageNumber<T>(
	fetchPage: (page: number, size: number) => Promise<NumberedPage<T>>,
	options: { pageSize: number; max?: number },
): Promise<T[]> {
	const max = options.max ?? Number.POSITIVE_INFINITY;
	const results: T[] = [];
	for (let page = 0; ; page++) {
		const { rows, pageCount } = await fetchPage(page, options.pageSize);
		results.push(...rows.slice(0, max - results.length));
		if (rows.length === 0 || page + 1 >= pageCount || results.length >= max) return results;
	}
}

export interface RawOffsetPage<T> {
	items: T[];
	/** How many raw entries the server stepped over for this page (visible or filtered out). */
	consumed: number;
}

/**
 * MCP folder listing: `offset` addresses the raw sequence, and a page may come back short after
 * access-right filtering, so a short page is not the end: only a page that consumed nothing is.
 */
export async function collectByRawOffset<T>(
	fetchPage: (offset: number, limit: number) => Promise<RawOffsetPage<T>>,
	options: { pageSize: number; max?: number },
): Promise<T[]> {
	const max = options.max ?? Number.POSITIVE_INFINITY;
	const results: T[] = [];
	let offset = 0;
	for (;;) {
		const page = await fetchPage(offset, options.pageSize);
		results.push(...page.items.slice(0, max - results.length));
		if (page.consumed <= 0 || results.length >= max) return results;
		offset += page.consumed;
	}
}
