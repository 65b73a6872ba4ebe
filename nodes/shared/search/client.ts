import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { requireAccount, type StorageAccount } from '../storage/client';
import { fileLink, folderLink } from '../storage/links';
import {
	apiRequest,
	collectByPageNumber,
	formBody,
	type FormFields,
	joinUrl,
	runCredentials,
} from '../transport';

/** The JSON-format answer of `{web_url}/ajax/search.php`. */
interface SearchAnswer {
	status?: string;
	message?: string;
	total_rows?: number;
	page_count?: number;
	rows?: unknown;
}

export interface SearchRun {
	/** Request fields besides paging: query/folder_hash/NoSubfolders or search_json, sorting, rights. */
	fields: FormFields;
	max: number;
	pageSize: number;
	itemIndex: number;
}

function refusal(ctx: IExecuteFunctions, answer: SearchAnswer, itemIndex: number): NodeApiError {
	const said =
		typeof answer.message === 'string' && answer.message
			? answer.message.slice(0, 300)
			: 'no reason given';
	const message = `The search was refused: ${said}`;
	const description =
		'The service answered status "error", also after a fresh login. Check the query (at least 2 characters), the sections (at least one; This Folder needs a folder the account can see), the criteria rows and the page size (1 to 1,000).';
	return new NodeApiError(
		ctx.getNode(),
		{ message, description },
		{ message, description, itemIndex },
	);
}

/** The spec's search item, with its public link added like every other folder or file output. */
function outputItem(account: StorageAccount, row: IDataObject): IDataObject {
	const hash = String(row.hash ?? '');
	const link =
		row.type === 'folder' ? folderLink(account.webUrl, hash) : fileLink(account.webUrl, hash);
	return { ...row, link };
}

const isRowList = (value: unknown): value is IDataObject[] =>
	Array.isArray(value) &&
	value.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row));

/**
 * The JSON format's answer is not shown in the documents (only the web-table format's envelope is). The
 * choice: the web-table envelope {rows, total_rows, page_count}; also read are a bare array of search
 * items and an envelope whose one array of objects sits under another key (items, results, data…).
 * Without a page count, a page shorter than asked is the last one.
 */
function readPage(
	body: SearchAnswer | unknown[],
	size: number,
): { rows: IDataObject[]; pageCount: number } | undefined {
	if (Array.isArray(body))
		return isRowList(body)
			? { rows: body, pageCount: body.length < size ? 0 : Number.POSITIVE_INFINITY }
			: undefined;
	let rows: IDataObject[] | undefined;
	if (isRowList(body.rows)) rows = body.rows;
	else if (body.rows === undefined) {
		const lists = Object.values(body as IDataObject).filter(isRowList);
		if (lists.length === 1) rows = lists[0];
	}
	if (!rows) return undefined;
	const total = Number(body.total_rows);
	const pageCount = Number.isFinite(Number(body.page_count))
		? Number(body.page_count)
		: Number.isFinite(total)
			? Math.ceil(total / size)
			: rows.length < size
				? 0
				: Number.POSITIVE_INFINITY;
	return { rows, pageCount };
}

/**
 * Runs a search in the JSON result format and pages through it with table_page/table_size. The service
 * orders results stably, so page-number paging neither repeats nor skips rows while nothing changes; a
 * row that moves between pages (an item changed meanwhile) is still emitted once.
 */
export async function searchItems(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	run: SearchRun,
): Promise<IDataObject[]> {
	const credentialType = requireAccount(ctx, account, run.itemIndex);
	const url = joinUrl(account.webUrl, 'ajax/search.php');
	const seen = new Set<string>();
	let previousFirst = '';
	let renewed = false;
	const ask = async (page: number, size: number) =>
		(
			await apiRequest<SearchAnswer>(ctx, {
				api: 'search',
				url,
				method: 'POST',
				// The endpoint accepts only a session; n8n renews an expired one and repeats the request once.
				credential: { type: credentialType, mode: 'session' },
				body: formBody({
					...run.fields,
					result_format: 'JSON',
					table_page: page,
					table_size: size,
				}),
				itemIndex: run.itemIndex,
			})
		).body;
	const fetchPage = async (page: number, size: number) => {
		let body = await ask(page, size);
		// The documents say only that search errors answer status "error"; an expired session may be one of
		// them. A search only reads, so it is asked once more after a fresh login before the refusal is reported.
		if (
			body &&
			typeof body === 'object' &&
			!Array.isArray(body) &&
			body.status === 'error' &&
			!renewed
		) {
			renewed = true;
			const credentials = await runCredentials(ctx, credentialType, run.itemIndex);
			// An empty session makes n8n log in again (the credential's pre-authentication) and save the new one.
			credentials.sessionId = '';
			body = await ask(page, size);
		}
		if (!body || typeof body !== 'object')
			throw refusal(ctx, { message: 'the answer was empty' }, run.itemIndex);
		if (!Array.isArray(body) && body.status === 'error') throw refusal(ctx, body, run.itemIndex);
		const page_ = readPage(body, size);
		if (!page_) {
			throw new NodeApiError(
				ctx.getNode(),
				{ message: 'unexpected search answer' },
				{
					itemIndex: run.itemIndex,
					message: 'The search answer has no result rows this node can read',
					description:
						"The documents do not show the JSON format's answer. This node reads {rows, total_rows, page_count}, a bare array of search items, or one array of items under another key. Check that Web URL points at the web host (ajax/search.php).",
				},
			);
		}
		// A service that ignores table_page would repeat the same page forever: the same first row ends the paging.
		const firstKey = page_.rows.length
			? `${String(page_.rows[0].type)}:${String(page_.rows[0].hash)}`
			: '';
		if (page > 0 && firstKey && firstKey === previousFirst) return { rows: [], pageCount: 0 };
		previousFirst = firstKey;
		return page_;
	};
	const rows = await collectByPageNumber(fetchPage, {
		pageSize: Math.min(run.pageSize, run.max),
		max: run.max,
	});
	return rows
		.filter((row) => {
			const key = `${String(row.type)}:${String(row.hash)}`;
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		})
		.map((row) => outputItem(account, row));
}
