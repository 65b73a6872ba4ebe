import { DEMO_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import {
	boot,
	createFolder,
	DEMO_TOKEN,
	FREE_TOKEN,
	readJson,
	uploadOk,
	v2,
	type Fields,
} from './helpers.ts';

let sandbox: Sandbox;
let session: string;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(async () => {
	sandbox.reset();
	session = await sessionOf(DEMO_TOKEN);
});

async function sessionOf(auth: Fields): Promise<string> {
	const response = await fetch(`${sandbox.baseUrl}/api/authenticate_user.php`, {
		method: 'POST',
		body: new URLSearchParams(auth),
	});
	return (await readJson(response)).SessionID;
}

/** POST with the session cookie (the careful way: nothing secret in the URL). */
function search(fields: Fields, sessionId = session) {
	return fetch(`${sandbox.webUrl}/ajax/search.php`, {
		method: 'POST',
		body: new URLSearchParams(fields),
		headers: { Cookie: `PHPSESSID=${sessionId}` },
	});
}
const searchJson = (fields: Fields, sessionId?: string) => readJson(search(fields, sessionId));
const full = (spec: unknown, fields: Fields = {}) =>
	searchJson({ result_format: 'JSON', search_json: JSON.stringify(spec), ...fields });
const names = (body: { rows: { name: string }[] }) => body.rows.map((row) => row.name);
const ALL = { Mode: 'simple', Types: {}, Sections: { MY: true } };

async function fixture() {
	const invoices = await createFolder(sandbox, { folder_name: 'Invoices', access_type: 'LINK' });
	const y2026 = await createFolder(sandbox, {
		folder_name: '2026 invoices',
		parent_folder_hash: invoices.folder_hash,
	});
	const pdf = await uploadOk(sandbox, y2026.folder_hash, 'Invoice March.pdf', '%PDF-1.7 march');
	const png = await uploadOk(sandbox, invoices.folder_hash, 'invoice scan.png', 'png bytes');
	const song = await uploadOk(sandbox, invoices.folder_hash, 'march song.mp3', 'mp3');
	return { invoices, y2026, pdf, png, song };
}

describe('search: authentication', () => {
	it('needs a session: cookie or PHPSESSID parameter; tokens and expired sessions get 401 status error', async () => {
		await fixture();
		expect((await searchJson({ result_format: 'JSON', query: 'invoice' })).status).toBe('ok');
		const byParam = await fetch(`${sandbox.webUrl}/ajax/search.php`, {
			method: 'POST',
			body: new URLSearchParams({ PHPSESSID: session, result_format: 'JSON', query: 'invoice' }),
		});
		expect((await readJson(byParam)).total_rows).toBe(4);
		const byToken = await fetch(`${sandbox.webUrl}/ajax/search.php`, {
			method: 'POST',
			body: new URLSearchParams({ ...DEMO_TOKEN, result_format: 'JSON', query: 'invoice' }),
		});
		expect(byToken.status).toBe(401);
		expect(await readJson(byToken)).toEqual({ status: 'error', message: expect.any(String) });
		sandbox.sessions.expireAll();
		expect((await search({ result_format: 'JSON', query: 'invoice' })).status).toBe(401);
	});
});

describe('search: simplified style', () => {
	it('returns JSON items with the documented fields', async () => {
		const { invoices, y2026, pdf } = await fixture();
		const body = await searchJson({ result_format: 'JSON', query: 'march', table_column: '' });
		expect(body).toMatchObject({
			status: 'ok',
			total_rows: 2,
			page_count: 1,
			total_time: expect.any(Number),
		});
		const item = body.rows.find((row: { hash: string }) => row.hash === pdf.file_hash);
		expect(item).toEqual({
			type: 'file',
			name: 'Invoice March.pdf',
			hash: pdf.file_hash,
			size: 14,
			mod_date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
			path: '/Invoices/2026 invoices/Invoice March.pdf',
			public_access_type: 'PRIVATE',
			parent_hash: y2026.folder_hash,
			content_type: 'application/pdf',
			file_count: null,
			subfolder_count: null,
			access_rights: null,
		});
		const folder = (
			await searchJson({ result_format: 'JSON', query: 'Invoices', get_access_rights: '1' })
		).rows.find((row: { hash: string }) => row.hash === invoices.folder_hash);
		expect(folder).toMatchObject({
			type: 'folder',
			path: '/Invoices',
			public_access_type: 'PUBLIC',
			parent_hash: DEMO_ACCOUNT.rootHash,
			content_type: null,
			file_count: 3,
			subfolder_count: 1,
			access_rights: {
				allow_view: true,
				allow_delete: true,
				allow_add: true,
				allow_edit: true,
				allow_download: true,
			},
		});
	});

	it('limits to a folder with subfolders unless NoSubfolders; short queries are refused', async () => {
		const { y2026 } = await fixture();
		const other = await createFolder(sandbox, { folder_name: 'Other' });
		await uploadOk(sandbox, other.folder_hash, 'invoice copy.txt', 'x');
		const invoicesHash = sandbox.store.folder(y2026.folder_hash)!.parentId;
		const hash = sandbox.store.folders.get(invoicesHash)!.hash;
		expect(
			names(
				await searchJson({ result_format: 'JSON', query: 'invoice', folder_hash: hash }),
			).sort(),
		).toEqual(['2026 invoices', 'Invoice March.pdf', 'invoice scan.png']);
		const flat = await searchJson({
			result_format: 'JSON',
			query: 'invoice',
			folder_hash: hash,
			NoSubfolders: '1',
		});
		expect(names(flat).sort()).toEqual(['2026 invoices', 'invoice scan.png']);
		expect(await searchJson({ result_format: 'JSON', query: 'i' })).toEqual({
			status: 'error',
			message: 'query must have at least 2 characters',
		});
		expect(
			(await searchJson({ result_format: 'JSON', query: 'invoice', folder_hash: 'nope' })).status,
		).toBe('error');
	});

	it('gives the web-table format without result_format', async () => {
		await fixture();
		const body = await searchJson({ query: 'scan' });
		expect(body).toMatchObject({ status: 'ok', total_rows: 1, page_count: 1 });
		expect(body.headers[2]).toBe('Name');
		expect(body.rows[0]).toMatch(
			/^<tr data-hash="[^"]+" data-type="file">.*invoice scan\.png.*<\/tr>$/,
		);
	});
});

describe('search: search_json', () => {
	it('filters by types and sections, including DELETED for subscribers', async () => {
		const { song } = await fixture();
		expect(names(await full({ ...ALL, Query: 'invoice', Types: { IMAGES: true } }))).toEqual([
			'invoice scan.png',
		]);
		expect(
			names(await full({ ...ALL, Query: 'march', Types: { MUSIC: true, DOCUMENTS: true } })).sort(),
		).toEqual(['Invoice March.pdf', 'march song.mp3']);
		expect(
			names(await full({ ...ALL, Query: 'invoice', Types: { FOLDERS: true } })).sort(),
		).toEqual(['2026 invoices', 'Invoices']);
		await v2(sandbox, 'delete_file', { ...DEMO_TOKEN, file_hash: song.file_hash });
		expect(names(await full({ ...ALL, Query: 'song' }))).toEqual([]);
		expect(
			names(await full({ ...ALL, Query: 'song', Sections: { MY: true, DELETED: true } })),
		).toEqual(['march song.mp3']);
	});

	it('applies advanced criteria with AND/OR', async () => {
		await fixture();
		const advanced = (Operator: string, Criteria: unknown[]) =>
			full({ Mode: 'advanced', Sections: { MY: true }, Operator, Criteria });
		const and = await advanced('AND', [
			{ Field: 'NAME', Operator: 'CONTAINS', Query: 'invoice' },
			{ Field: 'SIZE', Operator: 'GREATER', Query: '10' },
		]);
		expect(names(and).sort()).toEqual(['2026 invoices', 'Invoice March.pdf', 'Invoices']);
		const or = await advanced('OR', [
			{ Field: 'EXTENSION', Operator: 'EQUALS', Query: 'mp3' },
			{ Field: 'CONTENT_TYPE', Operator: 'STARTS_WITH', Query: 'image/' },
		]);
		expect(names(or).sort()).toEqual(['invoice scan.png', 'march song.mp3']);
		const today = new Date().toISOString().slice(0, 10);
		const between = await advanced('AND', [
			{ Field: 'MOD_DATE', Operator: 'BETWEEN', Query: '2000-01-01', AdditionalParam: today },
			{ Field: 'TYPE', Operator: 'EQUALS', Query: 'file' },
		]);
		expect(between.total_rows).toBe(3);
	});

	it.each([
		['not json', '{', 'search_json is not valid JSON'],
		[
			'no mode',
			{ Types: {}, Sections: { MY: true }, Query: 'ab' },
			'Mode must be simple or advanced',
		],
		['short query', { ...ALL, Query: 'a' }, 'Query must have at least 2 characters'],
		['no types', { Mode: 'simple', Sections: { MY: true }, Query: 'ab' }, /Types is required/],
		[
			'no section',
			{ ...ALL, Query: 'ab', Sections: { MY: false } },
			'Sections: at least one section must be true',
		],
		[
			'this folder without hash',
			{ ...ALL, Query: 'ab', Sections: { THIS_FOLDER: true } },
			/ThisFolder/,
		],
		['unknown type', { ...ALL, Query: 'ab', Types: { PHOTOS: true } }, 'Types: unknown key PHOTOS'],
		[
			'no operator',
			{ Mode: 'advanced', Sections: { MY: true }, Criteria: [{}] },
			'Operator must be AND or OR',
		],
		[
			'bad field',
			{ Mode: 'advanced', Sections: { MY: true }, Operator: 'OR', Criteria: [{ Field: 'X' }] },
			/Field/,
		],
		[
			'bad operator',
			{
				Mode: 'advanced',
				Sections: { MY: true },
				Operator: 'OR',
				Criteria: [{ Field: 'SIZE', Operator: 'CONTAINS', Query: 1 }],
			},
			/does not apply/,
		],
	])('answers status error for %s', async (_name, spec, message) => {
		const raw = typeof spec === 'string' ? spec : JSON.stringify(spec);
		const response = await search({ result_format: 'JSON', search_json: raw });
		expect(response.status).toBe(200);
		const body = await readJson(response);
		expect(body.status).toBe('error');
		expect(body.message).toEqual(
			typeof message === 'string' ? message : expect.stringMatching(message),
		);
	});

	it('searches THIS_FOLDER of a LINK folder owned by someone else', async () => {
		const { invoices } = await fixture();
		const free = await sessionOf(FREE_TOKEN);
		const spec = {
			...ALL,
			Query: 'invoice',
			Sections: { THIS_FOLDER: true },
			ThisFolder: invoices.folder_hash,
		};
		const body = await searchJson(
			{ result_format: 'JSON', search_json: JSON.stringify(spec) },
			free,
		);
		// The subfolder is PRIVATE, so the other user sees only the open items.
		expect(names(body)).toEqual(['invoice scan.png']);
	});
});

describe('search: non-subscribers', () => {
	it('use a plain substring search and never see DELETED', async () => {
		const folder = await createFolder(sandbox, {}, FREE_TOKEN);
		await uploadOk(sandbox, folder.folder_hash, 'annual report 2026.pdf', 'x', FREE_TOKEN);
		const gone = await uploadOk(sandbox, folder.folder_hash, 'report old.pdf', 'x', FREE_TOKEN);
		await v2(sandbox, 'delete_file', { ...FREE_TOKEN, file_hash: gone.file_hash });
		const free = await sessionOf(FREE_TOKEN);
		const run = (spec: unknown) =>
			searchJson({ result_format: 'JSON', search_json: JSON.stringify(spec) }, free);
		expect(names(await run({ ...ALL, Query: 'report 2026' }))).toEqual(['annual report 2026.pdf']);
		expect(names(await run({ ...ALL, Query: '2026 report' }))).toEqual([]);
		expect(names(await run({ ...ALL, Query: 'report', Sections: { DELETED: true } }))).toEqual([]);
		// A subscriber's word search finds the words in any order.
		const mine = await createFolder(sandbox);
		await uploadOk(sandbox, mine.folder_hash, 'annual report 2026.pdf', 'x');
		expect(names(await full({ ...ALL, Query: '2026 report' }))).toEqual(['annual report 2026.pdf']);
	});
});

describe('search: paging and sorting', () => {
	it('pages over 2,500 results without duplicates or gaps, in a stable order', async () => {
		const demo = sandbox.store.accountByLogin('demo')!;
		sandbox.store.bulkCreate(demo, { folders: 5, filesPerFolder: 500, filePrefix: 'item ' });
		const seen: string[] = [];
		for (let page = 0; ; page++) {
			const body = await full(
				{ ...ALL, Query: 'item', Types: { FILES: true } },
				{ table_size: '1000', table_page: String(page), 'table_column[2]': '0' },
			);
			expect(body.total_rows).toBe(2500);
			expect(body.page_count).toBe(3);
			if (!body.rows.length) break;
			seen.push(...body.rows.map((row: { hash: string }) => row.hash));
		}
		expect(seen).toHaveLength(2500);
		expect(new Set(seen).size).toBe(2500);
	}, 30_000);

	it('sorts by name, size and date in both directions; validates table_size', async () => {
		const folder = await createFolder(sandbox);
		await uploadOk(sandbox, folder.folder_hash, 'bb doc.txt', '1');
		await uploadOk(sandbox, folder.folder_hash, 'aa doc.txt', '333');
		await uploadOk(sandbox, folder.folder_hash, 'cc doc.txt', '22');
		const sorted = async (fields: Fields) =>
			names(await searchJson({ result_format: 'JSON', query: 'doc', ...fields }));
		expect(await sorted({ 'table_column[2]': '0' })).toEqual([
			'aa doc.txt',
			'bb doc.txt',
			'cc doc.txt',
		]);
		expect(await sorted({ 'table_column[2]': '1' })).toEqual([
			'cc doc.txt',
			'bb doc.txt',
			'aa doc.txt',
		]);
		expect(await sorted({ 'table_column[4]': '1' })).toEqual([
			'aa doc.txt',
			'cc doc.txt',
			'bb doc.txt',
		]);
		expect(await sorted({ table_size: '2', table_page: '1', 'table_column[4]': '0' })).toEqual([
			'aa doc.txt',
		]);
		expect(
			(await searchJson({ result_format: 'JSON', query: 'doc', table_size: '1001' })).status,
		).toBe('error');
		expect(
			(await searchJson({ result_format: 'JSON', query: 'doc', table_size: '0' })).status,
		).toBe('error');
		expect(
			(await searchJson({ result_format: 'JSON', query: 'doc', table_page: '-1' })).status,
		).toBe('error');
	});
});
