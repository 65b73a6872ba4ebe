import { DEMO_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import {
	boot,
	createFolder,
	DEMO_TOKEN,
	expectEmpty,
	FREE_TOKEN,
	uploadOk,
	v2,
	v2json,
	readJson,
} from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const FOLDER_FIELDS = [
	'hash',
	'name',
	'size',
	'timestamp_uploaded',
	'timestamp_last_modified',
	'delete_key',
	'parent_folder_hash',
	'add_files_key',
	'file_count',
	'subfolder_count',
	'access_type',
	'password_protected',
	'price_set',
];
const FILE_FIELDS = [
	'hash',
	'name',
	'size',
	'timestamp_uploaded',
	'timestamp_last_modified',
	'delete_key',
	'parent_folder_hash',
	'access_type',
	'password_protected',
	'price_set',
];

describe('create_folder', () => {
	it('returns hash and 32-hex keys; hashes vary in length', async () => {
		const created = await Promise.all(
			Array.from({ length: 25 }, (_, i) => createFolder(sandbox, { folder_name: `f${i}` })),
		);
		for (const folder of created) {
			expect(folder.folder_edit_key).toMatch(/^[0-9a-f]{32}$/);
			expect(folder.folder_upload_key).toMatch(/^[0-9a-f]{32}$/);
			expect(folder.folder_hash).toMatch(/^[0-9A-Za-z]{6,40}$/);
		}
		expect(new Set(created.map((folder) => folder.folder_hash.length)).size).toBeGreaterThan(3);
	});

	it('generates YYYY-MM-DD_<hash> when the name is omitted', async () => {
		const folder = await createFolder(sandbox);
		expect(folder.folder_name).toBe(
			`${new Date().toISOString().slice(0, 10)}_${folder.folder_hash}`,
		);
	});

	it('suffixes duplicate names (case-insensitively), per parent', async () => {
		const names = [];
		for (const name of ['Reports', 'Reports', 'reports', 'Reports'])
			names.push((await createFolder(sandbox, { folder_name: name })).folder_name);
		expect(names).toEqual(['Reports', 'Reports (1)', 'reports (2)', 'Reports (3)']);
		const parent = await createFolder(sandbox, { folder_name: 'Parent' });
		expect(
			(
				await createFolder(sandbox, {
					folder_name: 'Reports',
					parent_folder_hash: parent.folder_hash,
				})
			).folder_name,
		).toBe('Reports');
	});

	it('accepts LINK and PRIVATE, refuses other access types with 400', async () => {
		const link = await createFolder(sandbox, { access_type: 'LINK' });
		expect(
			(await v2json(sandbox, 'get_folder_info', { ...DEMO_TOKEN, folder_hash: link.folder_hash }))
				.access_type,
		).toBe('LINK');
		const plain = await createFolder(sandbox);
		expect(
			(await v2json(sandbox, 'get_folder_info', { ...DEMO_TOKEN, folder_hash: plain.folder_hash }))
				.access_type,
		).toBe('PRIVATE');
		for (const access_type of ['PUBLIC', 'PASSWORD', 'link', 'OPEN']) {
			await expectEmpty(await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, access_type }), 400);
		}
	});

	it("answers 405 for a missing or another account's parent", async () => {
		await expectEmpty(
			await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, parent_folder_hash: 'nope' }),
			405,
		);
		const theirs = await createFolder(sandbox, {}, FREE_TOKEN);
		await expectEmpty(
			await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, parent_folder_hash: theirs.folder_hash }),
			405,
		);
	});
});

describe('info, content, rename, move, delete', () => {
	it('round-trips a folder with a file through info and content', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'Docs', access_type: 'LINK' });
		const sub = await createFolder(sandbox, {
			folder_name: 'Sub',
			parent_folder_hash: folder.folder_hash,
		});
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'hello');
		await uploadOk(sandbox, sub.folder_hash, 'b.txt', 'abc');

		const info = await v2json(sandbox, 'get_folder_info', {
			...DEMO_TOKEN,
			folder_hash: folder.folder_hash,
		});
		expect(Object.keys(info).sort()).toEqual([...FOLDER_FIELDS].sort());
		expect(info).toMatchObject({
			hash: folder.folder_hash,
			name: 'Docs',
			size: 8,
			file_count: 2,
			subfolder_count: 1,
			delete_key: folder.folder_edit_key,
			add_files_key: folder.folder_upload_key,
			parent_folder_hash: DEMO_ACCOUNT.rootHash,
			password_protected: false,
			price_set: false,
		});
		expect(Number.isInteger(info.timestamp_uploaded)).toBe(true);

		const content = await v2json<any[]>(sandbox, 'get_folder_content', {
			...DEMO_TOKEN,
			folder_hash: folder.folder_hash,
		});
		expect(content).toEqual([
			expect.objectContaining({
				type: 'folder',
				hash: sub.folder_hash,
				name: 'Sub',
				size: 3,
				add_files_key: sub.folder_upload_key,
			}),
			expect.objectContaining({
				type: 'file',
				hash: file.file_hash,
				name: 'a.txt',
				size: 5,
				delete_key: file.file_delete_key,
			}),
		]);
		expect(content[0].access_rights).toBeUndefined();
		const withRights = await v2json<any[]>(sandbox, 'get_folder_content', {
			...DEMO_TOKEN,
			folder_hash: folder.folder_hash,
			get_access_rights: '1',
		});
		expect(Object.keys(withRights[0].access_rights).sort()).toEqual([
			'allow_add',
			'allow_delete',
			'allow_download',
			'allow_edit',
			'allow_view',
		]);
		expect(Object.keys(withRights[1].access_rights).sort()).toEqual([
			'allow_delete',
			'allow_download',
			'allow_edit',
			'allow_view',
		]);

		const fileInfo = await v2json(sandbox, 'get_file_info', {
			...DEMO_TOKEN,
			file_hash: file.file_hash,
		});
		expect(Object.keys(fileInfo).sort()).toEqual([...FILE_FIELDS].sort());
		expect(fileInfo).toMatchObject({
			name: 'a.txt',
			size: 5,
			access_type: 'LINK',
			parent_folder_hash: folder.folder_hash,
		});
	});

	it('shows another account a LINK folder without keys and hides PRIVATE ones (403)', async () => {
		const link = await createFolder(sandbox, { access_type: 'LINK' });
		const hidden = await createFolder(sandbox, { access_type: 'PRIVATE' });
		const info = await v2json(sandbox, 'get_folder_info', {
			...FREE_TOKEN,
			folder_hash: link.folder_hash,
			get_access_rights: 'true',
		});
		expect(info).toMatchObject({ delete_key: null, add_files_key: null, parent_folder_hash: null });
		expect(info.access_rights).toEqual({
			allow_view: true,
			allow_download: true,
			allow_add: false,
			allow_delete: false,
			allow_edit: false,
		});
		await expectEmpty(
			await v2(sandbox, 'get_folder_info', { ...FREE_TOKEN, folder_hash: hidden.folder_hash }),
			403,
		);
		await expectEmpty(
			await v2(sandbox, 'get_folder_content', { ...FREE_TOKEN, folder_hash: hidden.folder_hash }),
			403,
		);
		await expectEmpty(
			await v2(sandbox, 'delete_folder', { ...FREE_TOKEN, folder_hash: link.folder_hash }),
			403,
		);
	});

	it('renames with unique names and refuses ROOT', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'A' });
		await createFolder(sandbox, { folder_name: 'B' });
		expect(
			await v2json(sandbox, 'rename_folder', {
				...DEMO_TOKEN,
				folder_hash: folder.folder_hash,
				name: 'B',
			}),
		).toEqual({
			folder_hash: folder.folder_hash,
			folder_name: 'B (1)',
		});
		const both = { ...DEMO_TOKEN, folder_hash: folder.folder_hash, folder_name: 'C', name: 'D' };
		expect((await v2json(sandbox, 'rename_folder', both)).folder_name).toBe('C');
		await expectEmpty(
			await v2(sandbox, 'rename_folder', {
				...DEMO_TOKEN,
				folder_hash: DEMO_ACCOUNT.rootHash,
				folder_name: 'X',
			}),
			405,
		);
		await expectEmpty(
			await v2(sandbox, 'rename_folder', { ...DEMO_TOKEN, folder_hash: folder.folder_hash }),
			400,
		);

		const one = await uploadOk(sandbox, folder.folder_hash, 'one.txt', '1');
		await uploadOk(sandbox, folder.folder_hash, 'two.txt', '2');
		expect(
			await v2json(sandbox, 'rename_file', {
				...DEMO_TOKEN,
				file_hash: one.file_hash,
				file_name: 'two.txt',
			}),
		).toEqual({
			file_hash: one.file_hash,
			file_name: 'two (1).txt',
		});
		await expectEmpty(
			await v2(sandbox, 'rename_file', { ...FREE_TOKEN, file_hash: one.file_hash, file_name: 'x' }),
			405,
		);
	});

	it('moves files within the account only', async () => {
		const from = await createFolder(sandbox);
		const to = await createFolder(sandbox);
		const file = await uploadOk(sandbox, from.folder_hash, 'm.txt', 'move me');
		await uploadOk(sandbox, to.folder_hash, 'm.txt', 'already here');
		await expectEmpty(
			await v2(sandbox, 'move_file', {
				...DEMO_TOKEN,
				file_hash: file.file_hash,
				folder_hash: to.folder_hash,
			}),
			200,
		);
		const info = await v2json(sandbox, 'get_file_info', {
			...DEMO_TOKEN,
			file_hash: file.file_hash,
		});
		expect(info).toMatchObject({ parent_folder_hash: to.folder_hash, name: 'm (1).txt' });
		const theirs = await createFolder(sandbox, {}, FREE_TOKEN);
		for (const folder_hash of ['missing', theirs.folder_hash]) {
			await expectEmpty(
				await v2(sandbox, 'move_file', { ...DEMO_TOKEN, file_hash: file.file_hash, folder_hash }),
				405,
			);
		}
		// Only uploading into ROOT is forbidden; moving a file there is allowed.
		await expectEmpty(
			await v2(sandbox, 'move_file', {
				...DEMO_TOKEN,
				file_hash: file.file_hash,
				folder_hash: DEMO_ACCOUNT.rootHash,
			}),
			200,
		);
		expect(
			await v2json(sandbox, 'get_file_info', { ...DEMO_TOKEN, file_hash: file.file_hash }),
		).toMatchObject({
			parent_folder_hash: DEMO_ACCOUNT.rootHash,
		});
	});

	it('deletes files (200, no data) and folders recursively ({"status":"ok"}) into the trash', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'Gone' });
		const sub = await createFolder(sandbox, { parent_folder_hash: folder.folder_hash });
		const file = await uploadOk(sandbox, sub.folder_hash, 'x.txt', 'x');
		const single = await uploadOk(sandbox, folder.folder_hash, 'y.txt', 'y');
		await expectEmpty(
			await v2(sandbox, 'delete_file', { ...DEMO_TOKEN, file_hash: single.file_hash }),
			200,
		);
		await expectEmpty(
			await v2(sandbox, 'get_file_info', { ...DEMO_TOKEN, file_hash: single.file_hash }),
			405,
		);
		await expectEmpty(
			await v2(sandbox, 'delete_file', { ...FREE_TOKEN, file_hash: file.file_hash }),
			403,
		);

		const deleted = await v2(sandbox, 'delete_folder', {
			...DEMO_TOKEN,
			folder_hash: folder.folder_hash,
		});
		expect(await readJson(deleted)).toEqual({ status: 'ok' });
		for (const [action, field, hash] of [
			['get_folder_info', 'folder_hash', sub.folder_hash],
			['get_folder_content', 'folder_hash', folder.folder_hash],
			['get_file_info', 'file_hash', file.file_hash],
			['download_file', 'file_hash', file.file_hash],
		]) {
			await expectEmpty(await v2(sandbox, action, { ...DEMO_TOKEN, [field]: hash }), 405);
		}
		const demo = sandbox.store.accountByLogin('demo')!;
		expect(sandbox.store.subfolders(demo.rootFolderId)).toHaveLength(0);
		expect(sandbox.store.trashedFolder(sub.folder_hash)).toBeDefined();
		expect(sandbox.store.trashedFile(file.file_hash)).toBeDefined();
		await expectEmpty(
			await v2(sandbox, 'delete_folder', { ...DEMO_TOKEN, folder_hash: DEMO_ACCOUNT.rootHash }),
			405,
		);
	});

	it.each([
		['get_folder_info', { folder_hash: 'missing' }],
		['get_folder_content', { folder_hash: 'missing' }],
		['rename_folder', { folder_hash: 'missing', folder_name: 'x' }],
		['delete_folder', { folder_hash: 'missing' }],
		['get_file_info', { file_hash: 'missing' }],
		['rename_file', { file_hash: 'missing', file_name: 'x' }],
		['delete_file', { file_hash: 'missing' }],
		['download_file', { file_hash: 'missing' }],
		['move_file', { file_hash: 'missing', folder_hash: DEMO_ACCOUNT.rootHash }],
	])('%s answers 405 with an empty body for a missing item', async (action, fields) => {
		await expectEmpty(await v2(sandbox, action, { ...DEMO_TOKEN, ...fields }), 405);
	});

	it.each(['get_folder_info', 'get_folder_content', 'delete_folder', 'get_file_info'])(
		'%s answers 400 without its hash',
		async (action) => {
			await expectEmpty(await v2(sandbox, action, DEMO_TOKEN), 400);
		},
	);
});
