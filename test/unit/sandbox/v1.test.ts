import { DEMO_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import {
	boot,
	createFolder,
	DEMO_TOKEN,
	expectEmpty,
	FREE_TOKEN,
	uploadOk,
	readJson,
} from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const get = (script: string, params: Record<string, string>) =>
	fetch(`${sandbox.baseUrl}/api/${script}.php?${new URLSearchParams(params)}`);

describe('api/get_file_list_for_upload.php', () => {
	it('lists direct children; anonymous callers see LINK content without keys', async () => {
		const folder = await createFolder(sandbox, { access_type: 'LINK' });
		await createFolder(sandbox, {
			parent_folder_hash: folder.folder_hash,
			folder_name: 'Open',
			access_type: 'LINK',
		});
		await createFolder(sandbox, { parent_folder_hash: folder.folder_hash, folder_name: 'Closed' });
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'hello');

		const anonymous = await (
			await get('get_file_list_for_upload', { hash: folder.folder_hash, include_folders: '1' })
		).json();
		// The documented item shape only: nothing tells the folder from the file.
		expect(anonymous).toEqual([
			{ hash: expect.any(String), name: 'Open', Size: '0' },
			{ hash: file.file_hash, name: 'a.txt', Size: '5' },
		]);
		const owner = await readJson(
			get('get_file_list_for_upload', { ...DEMO_TOKEN, hash: folder.folder_hash }),
		);
		expect(owner).toEqual([
			{ hash: file.file_hash, name: 'a.txt', Size: '5', delete_key: file.file_delete_key },
		]);
		// include_folders is documented as =1; another spelling is not that flag.
		const otherSpelling = await readJson(
			get('get_file_list_for_upload', { hash: folder.folder_hash, include_folders: 'true' }),
		);
		expect(otherSpelling).toEqual([{ hash: file.file_hash, name: 'a.txt', Size: '5' }]);
		const empty = await createFolder(sandbox, { access_type: 'LINK' });
		expect(await readJson(get('get_file_list_for_upload', { hash: empty.folder_hash }))).toEqual(
			[],
		);
	});

	it('rejects anonymous access to PRIVATE folders', async () => {
		const folder = await createFolder(sandbox);
		await expectEmpty(await get('get_file_list_for_upload', { hash: folder.folder_hash }), 401);
		await expectEmpty(
			await get('get_file_list_for_upload', { ...FREE_TOKEN, hash: folder.folder_hash }),
			403,
		);
	});

	it('rate-limits anonymous callers per IP with 429 rate_limited; authenticated ones are not limited', async () => {
		sandbox.config.anonymousListing.limit = 2;
		const folder = await createFolder(sandbox, { access_type: 'LINK' });
		for (let i = 0; i < 2; i++)
			expect((await get('get_file_list_for_upload', { hash: folder.folder_hash })).status).toBe(
				200,
			);
		const limited = await get('get_file_list_for_upload', { hash: folder.folder_hash });
		expect(limited.status).toBe(429);
		expect(await readJson(limited)).toEqual({ error: 'rate_limited' });
		expect(
			(await get('get_file_list_for_upload', { ...DEMO_TOKEN, hash: folder.folder_hash })).status,
		).toBe(200);
		expect(
			(await get('get_file_list_for_upload', { ...DEMO_TOKEN, hash: folder.folder_hash })).status,
		).toBe(200);
	});

	it('delays anonymous callers by the configured time', async () => {
		sandbox.config.anonymousListing.delayMs = 200;
		const folder = await createFolder(sandbox, { access_type: 'LINK' });
		const started = Date.now();
		await get('get_file_list_for_upload', { hash: folder.folder_hash });
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);
	});
});

describe('other V1 scripts', () => {
	it('get_upload_tree returns the recursive tree for the DeleteKey', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'Top' });
		const sub = await createFolder(sandbox, {
			parent_folder_hash: folder.folder_hash,
			folder_name: 'Sub',
		});
		const file = await uploadOk(sandbox, sub.folder_hash, 'deep.txt', 'deep');
		const body = await readJson(
			get('get_upload_tree', { Hash: folder.folder_hash, DeleteKey: folder.folder_edit_key }),
		);
		expect(body.error).toBeNull();
		expect(body.data).toMatchObject({
			Type: 'folder',
			Hash: folder.folder_hash,
			Name: 'Top',
			AddFileKey: folder.folder_upload_key,
			DeleteKey: folder.folder_edit_key,
			CreatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
			Children: [
				{
					Type: 'folder',
					Hash: sub.folder_hash,
					Name: 'Sub',
					ParentID: body.data.ID,
					Children: [
						expect.objectContaining({ Type: 'file', Hash: file.file_hash, Children: false }),
					],
				},
			],
		});
		expect(
			(await get('get_upload_tree', { Hash: folder.folder_hash, DeleteKey: 'wrong' })).status,
		).toBe(403);
		expect((await get('get_upload_tree', { Hash: folder.folder_hash })).status).toBe(401);
	});

	it('upload_list lists ROOT children without keys', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'Listed' });
		await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'abc');
		const list = await readJson(get('upload_list', DEMO_TOKEN));
		expect(list).toEqual([
			{
				hash: folder.folder_hash,
				date: expect.any(String),
				description: 'Listed',
				files: 1,
				size: 3,
				views: 0,
				valid_to_date: null,
			},
		]);
		await expectEmpty(await get('upload_list', {}), 401);
	});

	it('get_storage_data reports usage in MB', async () => {
		const body = await readJson(get('get_storage_data', DEMO_TOKEN));
		expect(body).toMatchObject({
			success: true,
			data: { used_mb: 0, quota_mb: expect.any(Number) },
		});
		expect(Object.keys(body.data).sort()).toEqual([
			'available_mb',
			'free_mb',
			'quota_mb',
			'used_mb',
		]);
	});

	it('answers 404 for unknown scripts and refuses a failed login even on anonymous scripts', async () => {
		await expectEmpty(await get('no_such_script', DEMO_TOKEN), 404);
		await expectEmpty(
			await fetch(`${sandbox.baseUrl}/api/upload_list.php`, { method: 'DELETE' }),
			405,
		);
		const folder = await createFolder(sandbox, { access_type: 'LINK' });
		await expectEmpty(
			await get('get_file_list_for_upload', { user: 'demo', pass: 'x', hash: folder.folder_hash }),
			401,
		);
		expect(DEMO_ACCOUNT.rootHash).toBeTruthy();
	});
});
