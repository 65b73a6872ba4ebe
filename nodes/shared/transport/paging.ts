/**
 * The three paging styles of the service, each fetching pages through a caller-supplied function so
 * that the HTTP, retries and errors stay in one place (apiRequest). Every helper stops at `max` items.
 */

export interface OffsetPage<T> {
	items: T[];
	total: number;
}

/** DMS get_documents: limit/offset, continuing with offset + items until offset reaches total. */
export async function collectByOffsetTotal<T>(
	fetchPage: (offset: number, limit: number) => Promise<OffsetPage<T>>,
	options: { pageSize: number; max?: number },
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
	}
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
