import nock from 'nock';

import { BASE, form, rl, runStorage, WEB } from '../../unit/storage/run-storage';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const userData = {
	ID: 1001,
	UserName: 'demo',
	root_upload_hash: 'ROOTHASH1',
	root_upload_key: 'rk',
	root_add_key: 'ra',
	user_access_token: 'must-not-leak',
};

/** Answers the session login and, as often as asked, the account lookup. */
function authenticator(lookups = 1) {
	nock(BASE)
		.post('/api/authenticate_user.php')
		.times(lookups + 1)
		.reply(200, { Success: true, SessionID: 'sess-1', UserData: userData });
}

function capture(method: 'get' | 'post', path: string | RegExp, reply: unknown, status = 200) {
	const seen: { body: Record<string, string>; raw: string; query: string }[] = [];
	nock(BASE)
		.intercept(path, method.toUpperCase())
		.query(true)
		.reply(function (uri, raw) {
			const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
			seen.push({ body: form(text), raw: text, query: uri.split('?')[1] ?? '' });
			return [status, reply as nock.Body];
		});
	return seen;
}

describe('folder legacy operations', () => {
	it('Get Tree GETs Hash and DeleteKey in the query, as documented, and flattens the tree with paths', async () => {
		authenticator(0);
		nock(BASE).post('/api_v2/get_folder_info').reply(200, { hash: 'T1', delete_key: 'editkey' });
		const tree = capture('get', '/api/get_upload_tree.php', {
			error: null,
			data: {
				Hash: 'T1',
				Name: 'Top',
				Children: [
					{ Hash: 'C1', Name: 'Child', Children: [{ Hash: 'G1', Name: 'Grand', Children: false }] },
				],
			},
		});
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'getTree',
			folder: rl('T1'),
		});
		expect(error).toBeUndefined();
		expect(Object.fromEntries(new URLSearchParams(tree[0].query))).toEqual({
			Hash: 'T1',
			DeleteKey: 'editkey',
		});
		expect(tree[0].raw).toBe('');
		expect(out.map((item) => [item.json.path, item.json.depth, item.json.link])).toEqual([
			['', 0, `${WEB}/u/T1`],
			['Child', 1, `${WEB}/u/C1`],
			['Child/Grand', 2, `${WEB}/u/G1`],
		]);
	});

	it('List ROOT uses GET with the session cookie, no credentials in the URL', async () => {
		authenticator(0);
		const scope = nock(BASE)
			.get('/api/upload_list.php')
			.matchHeader('cookie', 'PHPSESSID=sess-1')
			.reply(200, [
				{ hash: 'R1', date: '2026-01-01', description: 'x', files: 2, size: 10, views: 3 },
			]);
		const { out } = await runStorage({ resource: 'folder', operation: 'listRoot' });
		expect(scope.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({
			type: 'folder',
			hash: 'R1',
			views: 3,
			link: `${WEB}/u/R1`,
		});
	});

	it('Rename sends folder_name and refuses ROOT and empty names before any request', async () => {
		authenticator(0);
		capture('post', '/api_v2/get_folder_info', { hash: 'F', name: 'Old' });
		const rename = capture('post', '/api_v2/rename_folder', {
			folder_hash: 'F',
			folder_name: 'New (1)',
		});
		const { out } = await runStorage({
			resource: 'folder',
			operation: 'rename',
			folder: rl('F'),
			name: ' New ',
		});
		expect(rename[0].body).toMatchObject({ folder_hash: 'F', folder_name: 'New' });
		expect(out[0].json).toMatchObject({ hash: 'F', name: 'New (1)' });
		nock.cleanAll();
		const root = await runStorage({
			resource: 'folder',
			operation: 'rename',
			folder: rl('ROOT'),
			name: 'x',
		});
		expect(root.error?.message).toMatch(/ROOT cannot be renamed/);
		const empty = await runStorage({
			resource: 'folder',
			operation: 'rename',
			folder: rl('F'),
			name: '={{ "  " }}',
		});
		expect(empty.error?.message).toMatch(/name is empty/);
	});

	it('Restore explains the plan requirement on refusal', async () => {
		authenticator(0);
		capture('post', '/api/undelete_folder.php', '', 403);
		const { error } = await runStorage({
			resource: 'folder',
			operation: 'restore',
			folder: rl('Gone1'),
		});
		expect(error?.description).toMatch(/PRO, BUSINESS or ENTERPRISE/);
	});

	it('Rename of a folder after a lost answer: the new name read back means applied, not sent twice', async () => {
		authenticator(0);
		capture('post', '/api_v2/get_folder_info', { hash: 'F', name: 'Old' });
		nock(BASE)
			.post('/api_v2/rename_folder')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		capture('post', '/api_v2/get_folder_info', { hash: 'F', name: 'New (2)' });
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'rename',
			folder: rl('F'),
			name: 'New',
		});
		expect(error).toBeUndefined();
		// A second rename would find no answer, and its reconciling read no info: the item would fail.
		expect(out[0].json).toMatchObject({ hash: 'F', name: 'New (2)' });
	});

	it('Create Path sends the parent hash and its add key in the query and the path in the body, then returns the leaf', async () => {
		authenticator(1);
		const paths = capture('post', '/api/get_ids_and_keys_from_paths.php', {
			Success: true,
			Directories: { 'Invoices/2026/11': { id: 77, add_key: 'leafadd' } },
		});
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=ROOTHASH1/)
			.reply(200, [{ type: 'folder', hash: 'I1', name: 'Invoices' }]);
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=I1/)
			.reply(200, [{ type: 'folder', hash: 'Y1', name: '2026' }]);
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=Y1/)
			.reply(200, [{ type: 'folder', hash: 'M11', name: '11' }]);
		nock(BASE)
			.post('/api_v2/get_folder_info', /folder_hash=M11/)
			.reply(200, { hash: 'M11', name: '11', add_files_key: 'leafadd', delete_key: 'leafdel' });
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: '/Invoices/2026/11/',
		});
		expect(error).toBeUndefined();
		expect(new URLSearchParams(paths[0].raw).getAll('Directories[]')).toEqual(['Invoices/2026/11']);
		// As documented: the parent and its add key in the query, the paths in the body.
		expect(Object.fromEntries(new URLSearchParams(paths[0].query))).toEqual({
			upload_hash: 'ROOTHASH1',
			add_key: 'ra',
		});
		expect(paths[0].body).not.toHaveProperty('upload_hash');
		expect(paths[0].body).not.toHaveProperty('add_key');
		expect(out[0].json).toMatchObject({
			hash: 'M11',
			id: 77,
			add_files_key: 'leafadd',
			path: 'Invoices/2026/11',
			link: `${WEB}/u/M11`,
		});
	});

	it('Create Path follows an existing folder the service matched in another letter case', async () => {
		authenticator(1);
		capture('post', '/api/get_ids_and_keys_from_paths.php', {
			Success: true,
			Directories: { 'Invoices/2026': { id: 78, add_key: 'leafadd' } },
		});
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=ROOTHASH1/)
			.reply(200, [{ type: 'folder', hash: 'I1', name: 'invoices' }]);
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=I1/)
			.reply(200, [{ type: 'folder', hash: 'Y1', name: '2026' }]);
		nock(BASE)
			.post('/api_v2/get_folder_info', /folder_hash=Y1/)
			.reply(200, { hash: 'Y1', name: '2026' });
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: 'Invoices/2026',
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({ hash: 'Y1', id: 78 });
	});

	it('Create Path is a write: after a 500 it looks the path up instead of sending it again', async () => {
		authenticator(1);
		const paths = capture('post', '/api/get_ids_and_keys_from_paths.php', '', 500);
		nock(BASE)
			.post('/api/get_ids_and_keys_from_paths.php')
			.query(true)
			.optionally()
			.reply(200, { Success: true, Directories: {} });
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=ROOTHASH1/)
			.times(2)
			.reply(200, [{ type: 'folder', hash: 'I1', name: 'Invoices' }]);
		nock(BASE)
			.post('/api_v2/get_folder_info', /folder_hash=I1/)
			.reply(200, { hash: 'I1', name: 'Invoices' });
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: 'Invoices',
		});
		expect(error).toBeUndefined();
		expect(paths).toHaveLength(1);
		expect(out[0].json).toMatchObject({ hash: 'I1', path: 'Invoices' });
		// The optional second script call was never made.
		expect(nock.pendingMocks()).toHaveLength(1);
	});

	it('Create Path names the folders when several match apart from letter case', async () => {
		authenticator(1);
		capture('post', '/api/get_ids_and_keys_from_paths.php', { Success: true, Directories: {} });
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=ROOTHASH1/)
			.reply(200, [
				{ type: 'folder', hash: 'A', name: 'invoices' },
				{ type: 'folder', hash: 'B', name: 'INVOICES' },
			]);
		const { error } = await runStorage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: 'Invoices',
		});
		expect(error?.message).toMatch(
			/Several folders match "Invoices".*"invoices" \(A\), "INVOICES" \(B\)/,
		);
	});

	it('Create Path refuses an empty path or .. before any request', async () => {
		const empty = await runStorage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: '={{ "//" }}',
		});
		expect(empty.error?.message).toMatch(/path is empty/);
		const dots = await runStorage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: 'a/../b',
		});
		expect(dots.error?.message).toMatch(/contains \. or \.\./);
	});

	it('Get Keys maps AddFileKey and DeleteKey', async () => {
		authenticator(0);
		nock(BASE)
			.get('/api/get_upload_keys.php')
			.query({ hash: 'F' })
			.reply(200, { AddFileKey: 'a'.repeat(32), DeleteKey: 'd' });
		const { out } = await runStorage({ resource: 'folder', operation: 'getKeys', folder: rl('F') });
		expect(out[0].json).toEqual({ hash: 'F', add_files_key: 'a'.repeat(32), delete_key: 'd' });
	});

	it('Check Existence sends a JSON hashes array with the session cookie and answers per hash', async () => {
		authenticator(0);
		let sent: unknown;
		nock(BASE)
			.post('/api/get_uploads_exist.php')
			.matchHeader('content-type', /application\/json/)
			.matchHeader('cookie', 'PHPSESSID=sess-1')
			.reply((_uri, body) => ((sent = body), [200, { A: true, B: false }]));
		const { out } = await runStorage({
			resource: 'folder',
			operation: 'checkExistence',
			hashes: 'A, B\nA',
		});
		expect(sent).toEqual({ hashes: ['A', 'B'] });
		expect(out.map((item) => item.json)).toEqual([
			{ hash: 'A', exists: true },
			{ hash: 'B', exists: false },
		]);
	});

	it('Create Anonymous sends no credentials and says the folder expires', async () => {
		let headers: Record<string, unknown> = {};
		nock(BASE)
			.get('/api/get_upload_id.php')
			.query({ folder_name: 'Drop', access_type: 'LINK' })
			.reply(function () {
				headers = this.req.headers;
				return [
					200,
					{ hash: 'AnonH', delete_key: 'dk', add_key: 'ak', UserID: false, FolderName: 'Drop' },
				];
			});
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'createAnonymous',
			name: 'Drop',
			accessType: 'LINK',
		});
		expect(error).toBeUndefined();
		expect(headers.authorization).toBeUndefined();
		expect(headers.cookie).toBeUndefined();
		expect(out[0].json).toMatchObject({
			hash: 'AnonH',
			add_files_key: 'ak',
			anonymous: true,
			expires_after: 'about one month',
		});
	});

	it('List Public Folder without a credential waits out a rate limit', async () => {
		nock(BASE)
			.get('/api/get_file_list_for_upload.php')
			.query(true)
			.reply(429, { error: 'rate_limited' }, { 'Retry-After': '0' });
		nock(BASE)
			.get('/api/get_file_list_for_upload.php')
			.query({ hash: 'Pub1', include_folders: '1' })
			.reply(200, [{ hash: 'f1', name: 'a.txt', Size: '12' }]);
		const { out, error } = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'folder',
				operation: 'listPublic',
				folder: rl(`${WEB}/u/Pub1`, 'url'),
			},
			{ credentials: {} },
		);
		expect(error).toBeUndefined();
		// With subfolders listed, the documented {hash, name, Size} cannot tell a file from a folder: no guessed link.
		expect(out[0].json).toMatchObject({
			name: 'a.txt',
			size: 12,
			type: 'unknown',
			link: null,
			possible_links: { file: `${WEB}/f/f1`, folder: `${WEB}/u/f1` },
			parent_folder_hash: 'Pub1',
		});
		expect(out[0].json.type_note).toMatch(/does not say whether this is a file or a folder/);
	});

	it('List Public Folder with files only builds file links, and uses a type field where one is sent', async () => {
		nock(BASE)
			.get('/api/get_file_list_for_upload.php')
			.query({ hash: 'Pub1' })
			.reply(200, [{ hash: 'f1', name: 'a.txt', Size: '12' }]);
		const filesOnly = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'folder',
				operation: 'listPublic',
				folder: rl('Pub1'),
				includeFolders: false,
			},
			{ credentials: {} },
		);
		expect(filesOnly.out[0].json).toMatchObject({ type: 'file', link: `${WEB}/f/f1` });
		nock(BASE)
			.get('/api/get_file_list_for_upload.php')
			.query(true)
			.reply(200, [{ type: 'folder', hash: 'd1', name: 'Sub', Size: '0' }]);
		const typed = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'folder',
				operation: 'listPublic',
				folder: rl('Pub1'),
			},
			{ credentials: {} },
		);
		expect(typed.out[0].json).toMatchObject({ type: 'folder', link: `${WEB}/u/d1` });
		nock(BASE).get('/api/get_file_list_for_upload.php').query(true).reply(200, { rows: [] });
		const odd = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'folder',
				operation: 'listPublic',
				folder: rl('Pub1'),
			},
			{ credentials: {} },
		);
		expect(odd.error?.message).toMatch(/not a list/);
	});

	it('operations that act as the account refuse to run without a credential', async () => {
		const { error } = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				resource: 'folder',
				operation: 'get',
				folder: rl('F'),
			},
			{ credentials: {} },
		);
		expect(error?.message).toMatch(/needs a credential/);
	});

	it('refuses a plain-http Base URL outside localhost before sending', async () => {
		const { error } = await runStorage(
			{
				authentication: 'none',
				baseUrl: 'http://api.example.test',
				resource: 'folder',
				operation: 'listPublic',
				folder: rl('P'),
			},
			{ credentials: {} },
		);
		expect(error?.message).toMatch(/Refusing plain http/);
	});
});

describe('path links', () => {
	it('walks /pa/<user>/<path> from ROOT for the own account', async () => {
		authenticator(1);
		nock(BASE)
			.post('/api_v2/get_folder_content', /ROOTHASH1/)
			.reply(200, [{ type: 'folder', hash: 'D1', name: 'Docs' }]);
		nock(BASE)
			.post('/api_v2/get_folder_content', /D1/)
			.reply(200, [{ type: 'file', hash: 'FX', name: 'a b.pdf' }]);
		const info = capture('post', '/api_v2/get_file_info', { hash: 'FX', name: 'a b.pdf' });
		const { error } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl(`${WEB}/pa/demo/Docs/a%20b.pdf`, 'url'),
		});
		expect(error).toBeUndefined();
		expect(info[0].body.file_hash).toBe('FX');
	});

	it('refuses a path link of another account', async () => {
		authenticator(1);
		const { error } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl(`${WEB}/pa/someone/Docs/a.pdf`, 'url'),
		});
		expect(error?.message).toMatch(/belongs to "someone"/);
	});
});
