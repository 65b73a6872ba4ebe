import nock from 'nock';

import {
	BASE,
	PASSWORD,
	rl,
	row,
	runSearch,
	searchPages,
	sessionLogin,
	unexpectedRequests,
	WEB,
	type SearchCall,
} from './run-search';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

describe('Search: request shape', () => {
	it('posts the simple style with the session cookie only, JSON format, paging and default sort; outputs rows with links', async () => {
		sessionLogin();
		const calls: SearchCall[] = [];
		searchPages(
			[
				{
					rows: [row('file', 'Fh1', 'a invoice.pdf'), row('folder', 'Dh2', 'Invoices')],
					page_count: 1,
					total_rows: 2,
				},
			],
			calls,
		);
		const { out, error } = await runSearch({
			operation: 'search',
			query: ' invoice ',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(calls).toHaveLength(1);
		expect(calls[0].fields).toEqual({
			query: 'invoice',
			result_format: 'JSON',
			table_page: '0',
			table_size: '1000',
			'table_column[7]': '1',
		});
		expect(calls[0].cookie).toBe('PHPSESSID=sess-1');
		expect(calls[0].authorization).toBeUndefined();
		expect(out.map((item) => item.json.link)).toEqual([`${WEB}/f/Fh1`, `${WEB}/u/Dh2`]);
		expect(out[0].json).toMatchObject({
			type: 'file',
			name: 'a invoice.pdf',
			size: 10,
			mod_date: '2026-03-01 10:00:00',
			parent_hash: 'P1',
		});
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('sends folder_hash, NoSubfolders, sorting and access rights; a pasted link names the folder', async () => {
		sessionLogin();
		const calls: SearchCall[] = [];
		searchPages([{ rows: [], page_count: 0 }], calls);
		await runSearch({
			operation: 'search',
			query: 'tax',
			folder: rl(`${WEB}/u/Folder9`, 'url'),
			noSubfolders: true,
			returnAll: true,
			options: { sortBy: 'size', sortDirection: 'ascending', accessRights: true, pageSize: 250 },
		});
		expect(calls[0].fields).toEqual({
			query: 'tax',
			folder_hash: 'Folder9',
			NoSubfolders: '1',
			'table_column[4]': '0',
			get_access_rights: '1',
			result_format: 'JSON',
			table_page: '0',
			table_size: '250',
		});
	});

	it('leaves out folder_hash for ROOT (the service default) and NoSubfolders without a folder', async () => {
		sessionLogin();
		const calls: SearchCall[] = [];
		searchPages([{ rows: [], page_count: 0 }], calls);
		await runSearch({
			operation: 'search',
			query: 'tax',
			folder: rl('ROOT'),
			noSubfolders: true,
			returnAll: true,
		});
		expect(calls[0].fields).not.toHaveProperty('folder_hash');
		expect(calls[0].fields).not.toHaveProperty('NoSubfolders');
	});

	it('sends the full style as search_json, resolving This Folder = ROOT to its hash', async () => {
		sessionLogin(2);
		const calls: SearchCall[] = [];
		searchPages([{ rows: [], page_count: 0 }], calls);
		const { error } = await runSearch({
			operation: 'fullSearch',
			mode: 'advanced',
			query: 'tax',
			types: ['DOCUMENTS'],
			sections: ['THIS_FOLDER', 'DELETED'],
			thisFolder: rl('ROOT'),
			noSubfolders: true,
			operator: 'OR',
			criteria: {
				rows: [{ field: 'SIZE', operator: 'GREATER', query: '100', additionalParam: '' }],
			},
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(JSON.parse(calls[0].fields.search_json)).toEqual({
			Mode: 'advanced',
			Query: 'tax',
			Types: { DOCUMENTS: true },
			Sections: { THIS_FOLDER: true, DELETED: true },
			ThisFolder: 'ROOTHASH1',
			Operator: 'OR',
			Criteria: [{ Field: 'SIZE', Operator: 'GREATER', Query: '100' }],
		});
		expect(calls[0].fields.NoSubfolders).toBe('1');
		expect(calls[0].fields).not.toHaveProperty('query');
	});

	it('sends any Criteria field and operator the user types under "Other"', async () => {
		sessionLogin();
		const calls: SearchCall[] = [];
		searchPages([{ rows: [], page_count: 0 }], calls);
		const { error } = await runSearch({
			operation: 'fullSearch',
			mode: 'advanced',
			query: 'tax',
			sections: ['MY'],
			criteria: {
				rows: [
					{ field: '__other__', otherField: 'OWNER', operator: 'EQUALS', query: 'ada' },
					{ field: 'NAME', operator: '__other__', otherOperator: 'REGEX', query: '^inv' },
				],
			},
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(JSON.parse(calls[0].fields.search_json).Criteria).toEqual([
			{ Field: 'OWNER', Operator: 'EQUALS', Query: 'ada' },
			{ Field: 'NAME', Operator: 'REGEX', Query: '^inv' },
		]);
	});

	it('refuses an "Other" field left empty before any request', async () => {
		const calls: SearchCall[] = [];
		const { error } = await runSearch({
			operation: 'fullSearch',
			mode: 'advanced',
			query: 'tax',
			sections: ['MY'],
			criteria: { rows: [{ field: '__other__', otherField: ' ', operator: 'EQUALS', query: 'x' }] },
			returnAll: true,
		});
		expect(calls).toEqual([]);
		expect(error?.message).toBe('Criteria row 1 has no Field');
	});

	it('sends a raw search JSON as given', async () => {
		sessionLogin();
		const calls: SearchCall[] = [];
		searchPages([{ rows: [], page_count: 0 }], calls);
		const raw = {
			Mode: 'simple',
			Query: 'scan',
			Types: { IMAGES: true },
			Sections: { SHARED_WITH_ME: true },
		};
		await runSearch({
			operation: 'fullSearch',
			defineSearch: 'json',
			searchJson: JSON.stringify(raw, null, 2),
			returnAll: true,
		});
		expect(JSON.parse(calls[0].fields.search_json)).toEqual(raw);
	});
});

describe('Search: paging', () => {
	it('reads every page by table_page until page_count, each row once', async () => {
		sessionLogin();
		const calls: SearchCall[] = [];
		searchPages(
			[
				{ rows: [row('file', 'a'), row('file', 'b')], page_count: 3 },
				// An item that moved between pages (changed meanwhile) comes again: it is emitted once.
				{ rows: [row('file', 'b'), row('file', 'c')], page_count: 3 },
				{ rows: [row('folder', 'b'), row('file', 'd')], page_count: 3 },
			],
			calls,
		);
		const { out } = await runSearch({
			operation: 'search',
			query: 'ab',
			returnAll: true,
			options: { pageSize: 2 },
		});
		expect(calls.map((call) => [call.fields.table_page, call.fields.table_size])).toEqual([
			['0', '2'],
			['1', '2'],
			['2', '2'],
		]);
		expect(out.map((item) => `${item.json.type}:${item.json.hash}`)).toEqual([
			'file:a',
			'file:b',
			'file:c',
			'folder:b',
			'file:d',
		]);
	});

	it('asks for no more than Limit and stops once it has enough', async () => {
		sessionLogin();
		const calls: SearchCall[] = [];
		searchPages(
			[
				{ rows: [row('file', '1'), row('file', '2'), row('file', '3')], page_count: 4 },
				{ rows: [row('file', '4'), row('file', '5'), row('file', '6')], page_count: 4 },
			],
			calls,
		);
		const { out } = await runSearch({
			operation: 'search',
			query: 'ab',
			returnAll: false,
			limit: 5,
			options: { pageSize: 3 },
		});
		expect(calls.map((call) => call.fields.table_size)).toEqual(['3', '3']);
		expect(out).toHaveLength(5);
	});
});

describe('Search: answers and sessions', () => {
	it('turns status "error" into a NodeApiError with the service\'s message (after one fresh login)', async () => {
		sessionLogin(2);
		nock(WEB)
			.post('/ajax/search.php')
			.times(2)
			.reply(200, { status: 'error', message: 'Query must have at least 2 characters' });
		const { error } = await runSearch({ operation: 'search', query: 'ab' });
		expect(nock.pendingMocks()).toEqual([]);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The search was refused: Query must have at least 2 characters');
		expect(error?.description).toMatch(/sections/);
	});

	it('refuses an answer without JSON rows (the web-table format)', async () => {
		sessionLogin();
		nock(WEB)
			.post('/ajax/search.php')
			.reply(200, { status: 'ok', total_rows: 1, page_count: 1, rows: ['<tr><td>x</td></tr>'] });
		const { error } = await runSearch({ operation: 'search', query: 'ab' });
		expect(error?.message).toBe('The search answer has no result rows this node can read');
		expect(error?.description).toMatch(/\{rows, total_rows, page_count\}, a bare array/);
	});

	it('tolerates the plausible answer shapes the documents leave open: a bare array, rows under another key', async () => {
		sessionLogin();
		nock(WEB)
			.post('/ajax/search.php')
			.reply(200, [row('file', 'A1'), row('folder', 'D1')]);
		const bare = await runSearch({
			operation: 'search',
			query: 'ab',
			returnAll: true,
			options: { pageSize: 5 },
		});
		expect(bare.error).toBeUndefined();
		expect(bare.out.map((item) => item.json.link)).toEqual([`${WEB}/f/A1`, `${WEB}/u/D1`]);
		sessionLogin();
		nock(WEB)
			.post('/ajax/search.php')
			.reply(200, { status: 'ok', items: [row('file', 'B1')], took: 3 });
		const keyed = await runSearch({
			operation: 'search',
			query: 'ab',
			returnAll: true,
			options: { pageSize: 5 },
		});
		expect(keyed.error).toBeUndefined();
		expect(keyed.out.map((item) => item.json.hash)).toEqual(['B1']);
	});

	it('stops paging a bare array when the service repeats the same page', async () => {
		sessionLogin();
		const page = [row('file', '1'), row('file', '2')];
		nock(WEB).post('/ajax/search.php').times(2).reply(200, page);
		const { out, error } = await runSearch({
			operation: 'search',
			query: 'ab',
			returnAll: true,
			options: { pageSize: 2 },
		});
		expect(error).toBeUndefined();
		expect(out.map((item) => item.json.hash)).toEqual(['1', '2']);
	});

	it('renews an expired session once and repeats the search with the new cookie (password credential)', async () => {
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 'old' });
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 'new' });
		const calls: SearchCall[] = [];
		nock(WEB)
			.post('/ajax/search.php')
			.reply(function () {
				calls.push({
					fields: {},
					cookie: String(this.req.headers.cookie),
					authorization: this.req.headers.authorization as string | undefined,
				});
				return [401, { status: 'error', message: 'Session expired' }];
			});
		searchPages([{ rows: [row('file', 'x')], page_count: 1 }], calls);
		const { out, error } = await runSearch(
			{ authentication: 'passwordApi', operation: 'search', query: 'ab' },
			{ credentials: { cloudStoragePasswordApi: { ...PASSWORD } } },
		);
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1);
		expect(calls.map((call) => [call.cookie, call.authorization])).toEqual([
			['PHPSESSID=old', undefined],
			['PHPSESSID=new', undefined],
		]);
	});

	it('an expired session answered with status "error" (not 401): one fresh login, the search asked again', async () => {
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 'old' });
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 'new' });
		const cookies: string[] = [];
		nock(WEB)
			.post('/ajax/search.php')
			.reply(function () {
				cookies.push(String(this.req.headers.cookie));
				return [200, { status: 'error', message: 'Not logged in' }];
			});
		nock(WEB)
			.post('/ajax/search.php')
			.reply(function () {
				cookies.push(String(this.req.headers.cookie));
				return [200, { status: 'ok', rows: [row('file', 'x')], page_count: 1 }];
			});
		const { out, error } = await runSearch({ operation: 'search', query: 'ab' });
		expect(error).toBeUndefined();
		expect(out.map((item) => item.json.hash)).toEqual(['x']);
		expect(cookies).toEqual(['PHPSESSID=old', 'PHPSESSID=new']);
	});

	it('reports a second 401 as failed authentication', async () => {
		sessionLogin(2);
		nock(WEB)
			.post('/ajax/search.php')
			.times(2)
			.reply(401, { status: 'error', message: 'Not logged in' });
		const { error } = await runSearch({ operation: 'search', query: 'ab' });
		expect(error?.message).toBe('Authentication failed (401)');
	});

	it('retries a read after a 500', async () => {
		sessionLogin();
		nock(WEB).post('/ajax/search.php').reply(500, '');
		searchPages([{ rows: [row('file', 'x')], page_count: 1 }]);
		const { out, error } = await runSearch({ operation: 'search', query: 'ab' });
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1);
	});

	it('keeps the item pairing with Continue On Fail', async () => {
		const { out } = await runSearch({ operation: 'search', query: 'a' }, { continueOnFail: true });
		expect(out).toEqual([
			{
				json: { error: 'Query "a" is too short', description: expect.any(String) },
				pairedItem: { item: 0 },
			},
		]);
	});
});

describe('Search: bad input fails before any request', () => {
	it.each([
		[{ operation: 'search', query: 'a' }, 'Query "a" is too short'],
		[{ operation: 'search', query: '={{ " " }}' }, 'Query is empty'],
		[
			{ operation: 'search', query: 'ab', options: { pageSize: 1001 } },
			'Page size must be a whole number from 1 to 1000',
		],
		[{ operation: 'search', query: 'ab', folder: rl('a/b') }, '"a/b" is not a folder hash'],
		[
			{ operation: 'fullSearch', query: 'ab', sections: [] },
			'Choose at least one section to search',
		],
		[{ operation: 'fullSearch', query: 'a', sections: ['MY'] }, 'Query "a" is too short'],
		[
			{ operation: 'fullSearch', query: 'ab', sections: ['THIS_FOLDER'] },
			'The section "This Folder" needs a folder',
		],
		[
			{ operation: 'fullSearch', mode: 'advanced', sections: ['MY'] },
			'Advanced mode needs at least one criteria row',
		],
		[
			{
				operation: 'fullSearch',
				mode: 'advanced',
				sections: ['MY'],
				criteria: { rows: [{ field: 'NAME', operator: 'CONTAINS', query: '' }] },
			},
			'Criteria row 1 has no Query',
		],
		[
			{ operation: 'fullSearch', defineSearch: 'json', searchJson: '{"Mode": "simple"' },
			'The search JSON is not valid JSON',
		],
		[
			{
				operation: 'fullSearch',
				defineSearch: 'json',
				searchJson: '{"Mode": "simple", "Query": "ab", "Types": {}, "Sections": {"MINE": true}}',
			},
			'Sections has an unknown key "MINE"',
		],
	])('%j', async (parameters, message) => {
		const unexpected = unexpectedRequests();
		const { error } = await runSearch(parameters);
		expect(error?.message).toBe(message);
		expect(error?.name).toBe('NodeOperationError');
		expect(unexpected).toEqual([]);
		expect(nock.pendingMocks()).toEqual([]);
	});
});
