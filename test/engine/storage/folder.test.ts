import nock from 'nock';

import {
	BASE,
	form,
	rl,
	runStorage,
	sessionLogin,
	unexpectedRequests,
	WEB,
	PASSWORD,
} from '../../unit/storage/run-storage';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

describe('folder create', () => {
	it('posts a form with the parent, name, access type and the token fields; outputs keys and link', async () => {
		sessionLogin();
		let sent: Record<string, string> = {};
		const scope = nock(BASE)
			.post('/api_v2/create_folder', (body) => {
				sent = form(new URLSearchParams(body).toString());
				return true;
			})
			.matchHeader('content-type', /application\/x-www-form-urlencoded/)
			.reply(200, {
				folder_hash: 'Fh9',
				folder_edit_key: 'e'.repeat(32),
				folder_upload_key: 'u'.repeat(32),
				folder_name: 'Invoices (1)',
			});
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'create',
			parentFolder: rl('Parent123'),
			name: 'Invoices',
			options: { accessType: 'LINK' },
		});
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(sent).toEqual({
			parent_folder_hash: 'Parent123',
			folder_name: 'Invoices',
			access_type: 'LINK',
			user: 'demo',
			user_access_token: 'tok-secret-1',
		});
		expect(out[0].json).toMatchObject({
			type: 'folder',
			hash: 'Fh9',
			name: 'Invoices (1)',
			delete_key: 'e'.repeat(32),
			add_files_key: 'u'.repeat(32),
			link: `${WEB}/u/Fh9`,
		});
		// The service's own names stay beside the uniform ones.
		expect(out[0].json).toMatchObject({
			folder_hash: 'Fh9',
			folder_edit_key: 'e'.repeat(32),
			folder_upload_key: 'u'.repeat(32),
			folder_name: 'Invoices (1)',
		});
	});

	it('leaves out the parent for ROOT and the name when empty', async () => {
		sessionLogin();
		let sent = '';
		nock(BASE)
			.post(
				'/api_v2/create_folder',
				(body) => ((sent = new URLSearchParams(body).toString()), true),
			)
			.reply(200, {
				folder_hash: 'x',
				folder_edit_key: 'e',
				folder_upload_key: 'u',
				folder_name: '2026-11-22_x',
			});
		await runStorage({
			resource: 'folder',
			operation: 'create',
			parentFolder: rl('ROOT'),
			name: '',
		});
		expect(form(sent)).toEqual({ user: 'demo', user_access_token: 'tok-secret-1' });
	});

	it('sends HTTP Basic with the password credential', async () => {
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 's' });
		const scope = nock(BASE)
			.post('/api_v2/create_folder')
			.matchHeader('authorization', `Basic ${Buffer.from('demo:pw-secret-1').toString('base64')}`)
			.reply(200, {
				folder_hash: 'x',
				folder_edit_key: 'e',
				folder_upload_key: 'u',
				folder_name: 'n',
			});
		const { error } = await runStorage(
			{ authentication: 'passwordApi', resource: 'folder', operation: 'create', name: 'n' },
			{ credentials: { cloudStoragePasswordApi: { ...PASSWORD } } },
		);
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	it('is not repeated after a 500: the write may have been applied', async () => {
		sessionLogin();
		const scope = nock(BASE)
			.post('/api_v2/create_folder')
			.once()
			.reply(500, '', { 'Content-Type': 'application/json' });
		const { error } = await runStorage({ resource: 'folder', operation: 'create', name: 'A' });
		expect(scope.isDone()).toBe(true);
		expect(error?.message).toMatch(/may have been applied/);
		expect(error?.description).toMatch(/did not repeat/);
	});

	it('retries a 429 after Retry-After, then succeeds', async () => {
		sessionLogin();
		nock(BASE).post('/api_v2/create_folder').reply(429, '', { 'Retry-After': '0' });
		nock(BASE).post('/api_v2/create_folder').reply(200, {
			folder_hash: 'x',
			folder_edit_key: 'e',
			folder_upload_key: 'u',
			folder_name: 'A',
		});
		const { out, error } = await runStorage({ resource: 'folder', operation: 'create', name: 'A' });
		expect(error).toBeUndefined();
		expect(out[0].json.hash).toBe('x');
	});
});

describe('folder get and list', () => {
	it('resolves ROOT to its hash and lists children with links', async () => {
		sessionLogin(2);
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_folder_content',
				(body) => ((sent = form(new URLSearchParams(body).toString())), true),
			)
			.reply(200, [
				{ type: 'folder', hash: 'a1', name: 'Sub', size: 0 },
				{ type: 'file', hash: 'b22222', name: 'x.txt', size: 3 },
			]);
		const { out } = await runStorage({
			resource: 'folder',
			operation: 'list',
			folder: rl('ROOT'),
			options: { accessRights: true },
		});
		expect(sent).toMatchObject({ folder_hash: 'ROOTHASH1', get_access_rights: '1' });
		expect(out.map((item) => item.json.link)).toEqual([`${WEB}/u/a1`, `${WEB}/f/b22222`]);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('honours Limit', async () => {
		sessionLogin();
		nock(BASE)
			.post('/api_v2/get_folder_content')
			.reply(200, [{ hash: '1' }, { hash: '2' }, { hash: '3' }]);
		const { out } = await runStorage({
			resource: 'folder',
			operation: 'list',
			folder: rl('F'),
			returnAll: false,
			limit: 2,
		});
		expect(out).toHaveLength(2);
	});

	it('accepts a pasted folder link', async () => {
		sessionLogin();
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_folder_info',
				(body) => ((sent = form(new URLSearchParams(body).toString())), true),
			)
			.reply(200, { hash: 'LinkHash', name: 'Shared', access_type: 'LINK' });
		const { out } = await runStorage({
			resource: 'folder',
			operation: 'get',
			folder: rl('https://de.www.example.test/u/LinkHash', 'url'),
		});
		expect(sent.folder_hash).toBe('LinkHash');
		expect(out[0].json).toMatchObject({ name: 'Shared', link: `${WEB}/u/LinkHash` });
	});

	it('retries a read after a 500 and a dropped connection', async () => {
		sessionLogin();
		nock(BASE).post('/api_v2/get_folder_info').reply(500, '');
		nock(BASE)
			.post('/api_v2/get_folder_info')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		nock(BASE).post('/api_v2/get_folder_info').reply(200, { hash: 'h', name: 'n' });
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'get',
			folder: rl('h'),
		});
		expect(error).toBeUndefined();
		expect(out[0].json.name).toBe('n');
	});

	it('explains 405 with an empty JSON body, with the item index', async () => {
		sessionLogin();
		nock(BASE)
			.post('/api_v2/get_folder_info')
			.reply(405, '', { 'Content-Type': 'application/json' });
		const { error } = await runStorage({
			resource: 'folder',
			operation: 'get',
			folder: rl('gone'),
		});
		expect(error?.message).toBe('The service refused the operation on folder "gone" (405, item 0)');
		expect(error?.description).toMatch(/does not exist/);
		expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(JSON.stringify(error)).not.toContain('tok-secret-1');
	});

	it('says so when a 200 carries an HTML page', async () => {
		sessionLogin();
		nock(BASE)
			.post('/api_v2/get_folder_info')
			.reply(200, '<html>login</html>', { 'Content-Type': 'text/html' });
		const { error } = await runStorage({ resource: 'folder', operation: 'get', folder: rl('h') });
		expect(error?.message).toMatch(/HTML page where JSON was expected/);
	});
});

describe('folder delete', () => {
	it('deletes by hash', async () => {
		nock(BASE).post('/api_v2/get_folder_info').reply(200, { hash: 'F1', parent_folder_hash: 'P' });
		nock(BASE)
			.post('/api_v2/delete_folder', /folder_hash=F1/)
			.reply(200, { status: 'ok' });
		const { out } = await runStorage({ resource: 'folder', operation: 'delete', folder: rl('F1') });
		expect(out[0].json).toEqual({ hash: 'F1', deleted: true, outcome: 'applied', httpCode: 200 });
	});

	it('reports status error', async () => {
		nock(BASE).post('/api_v2/get_folder_info').reply(200, { hash: 'F1', parent_folder_hash: 'P' });
		nock(BASE).post('/api_v2/delete_folder').reply(200, { status: 'error' });
		const { error } = await runStorage({
			resource: 'folder',
			operation: 'delete',
			folder: rl('F1'),
		});
		expect(error?.message).toMatch(/could not delete/);
	});
});

describe('bad folder input fails before any request', () => {
	it.each([
		[
			'ROOT delete',
			{ resource: 'folder', operation: 'delete', folder: rl('ROOT') },
			/ROOT cannot be deleted/,
		],
		[
			'empty hash from an expression',
			{ resource: 'folder', operation: 'get', folder: rl('={{ "" }}') },
			/No folder given/,
		],
		[
			'malformed link from an expression',
			{
				resource: 'folder',
				operation: 'get',
				folder: rl('={{ "https://www.example.test/x/abc" }}', 'url'),
			},
			/not a folder link/,
		],
		[
			'file link for a folder',
			{ resource: 'folder', operation: 'list', folder: rl('https://www.example.test/f/abc') },
			/not a folder link/,
		],
		[
			'hash with a slash',
			{ resource: 'folder', operation: 'get', folder: rl('ab/cd') },
			/not a folder hash/,
		],
		[
			'unknown access type',
			{ resource: 'folder', operation: 'create', name: 'x', options: { accessType: 'SECRET' } },
			/Unknown access type/,
		],
	])('%s', async (_label, parameters, message) => {
		const unexpected = unexpectedRequests();
		const { error } = await runStorage(parameters as never);
		expect(error?.message).toMatch(message);
		expect(unexpected).toEqual([]);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it.each([
		['empty', rl(''), /Parameter "Folder" is required/],
		['not a link', rl('https://www.example.test/x/abc', 'url'), /Not a folder link/],
	])('n8n itself flags a %s locator typed into the form', async (_label, folder, message) => {
		await expect(runStorage({ resource: 'folder', operation: 'get', folder })).rejects.toThrow(
			message,
		);
	});

	it('keeps going with Continue On Fail, pairing the error item', async () => {
		const { out } = await runStorage(
			{ resource: 'folder', operation: 'delete', folder: rl('ROOT') },
			{ continueOnFail: true },
		);
		expect(out).toEqual([
			{
				json: {
					error: 'ROOT cannot be deleted',
					description: 'Choose a folder inside ROOT.',
					outcome: 'not-applied',
				},
				pairedItem: { item: 0 },
			},
		]);
	});
});
