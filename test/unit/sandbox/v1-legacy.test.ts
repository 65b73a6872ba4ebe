import { DEMO_ACCOUNT, FREE_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import {
	boot,
	createFolder,
	DEMO_TOKEN,
	expectEmpty,
	FREE_TOKEN,
	readJson,
	uploadOk,
	v2,
	type Fields,
} from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const get = (script: string, params: Fields, headers: Record<string, string> = {}) =>
	fetch(`${sandbox.baseUrl}/api/${script}.php?${new URLSearchParams(params)}`, {
		headers,
	});
const post = (
	script: string,
	params: Fields | URLSearchParams,
	headers: Record<string, string> = {},
) =>
	fetch(`${sandbox.baseUrl}/api/${script}.php`, {
		method: 'POST',
		body: new URLSearchParams(params),
		headers,
	});
const postJson = (script: string, body: unknown, auth: Fields = DEMO_TOKEN) =>
	fetch(`${sandbox.baseUrl}/api/${script}.php?${new URLSearchParams(auth)}`, {
		method: 'POST',
		body: JSON.stringify(body),
		headers: { 'Content-Type': 'application/json' },
	});

async function sessionId(): Promise<string> {
	const body = await readJson(post('authenticate_user', DEMO_TOKEN));
	return body.SessionID;
}

function saveFile(query: Fields, name: string, content: string | Uint8Array, fields: Fields = {}) {
	const form = new FormData();
	for (const [key, value] of Object.entries(fields)) form.append(key, value);
	form.append('file', new Blob([content as Uint8Array<ArrayBuffer>]), name);
	return fetch(`${sandbox.baseUrl}/save_file.php?${new URLSearchParams(query)}`, {
		method: 'POST',
		body: form,
	});
}

describe('api/authenticate_user.php and api/validate_session.php', () => {
	it('mints a token with get_user_access_token and reports a session check', async () => {
		const body = await readJson(
			post('authenticate_user', { ...DEMO_TOKEN, get_user_access_token: '1' }),
		);
		expect(body).toMatchObject({
			Success: true,
			SessionID: expect.any(String),
		});
		const token = body.UserData.user_access_token;
		expect(token).toMatch(/^[0-9a-f]{32}$/);
		expect(
			(
				await get('get_storage_data', {
					user: 'demo',
					user_access_token: token,
				})
			).status,
		).toBe(200);

		const check = await readJson(get('validate_session', { PHPSESSID: body.SessionID }));
		expect(check).toEqual({
			Success: true,
			Message: expect.any(String),
			SessionID: body.SessionID,
		});
		const cookie = await readJson(
			get('validate_session', {}, { Cookie: `PHPSESSID=${body.SessionID}` }),
		);
		expect(cookie.Success).toBe(true);
	});

	it('answers 401 with Success false for an expired session', async () => {
		const id = await sessionId();
		sandbox.sessions.expireAll();
		const response = await get('validate_session', { PHPSESSID: id });
		expect(response.status).toBe(401);
		expect(await readJson(response)).toEqual({
			Success: false,
			Message: expect.any(String),
			SessionID: null,
		});
	});
});

describe('api/get_upload_id.php', () => {
	it('creates a named folder under ROOT or a parent for an account', async () => {
		const body = await readJson(
			get('get_upload_id', {
				...DEMO_TOKEN,
				folder_name: 'Legacy',
				access_type: 'LINK',
			}),
		);
		expect(body).toEqual({
			hash: expect.any(String),
			delete_key: expect.stringMatching(/^[0-9a-f]{32}$/),
			add_key: expect.stringMatching(/^[0-9a-f]{32}$/),
			UserID: DEMO_ACCOUNT.id,
			FolderName: 'Legacy',
		});
		const info = await readJson(
			v2(sandbox, 'get_folder_info', { ...DEMO_TOKEN, folder_hash: body.hash }),
		);
		expect(info).toMatchObject({
			name: 'Legacy',
			access_type: 'LINK',
			parent_folder_hash: DEMO_ACCOUNT.rootHash,
		});
		const child = await readJson(get('get_upload_id', { ...DEMO_TOKEN, parent_hash: body.hash }));
		expect(child.FolderName).toBeUndefined();
		expect(sandbox.store.folder(child.hash)!.name).toMatch(/^\d{4}-\d\d-\d\d_/);
	});

	it('creates anonymous folders with UserID false that expire after about a month', async () => {
		let now = Date.UTC(2026, 0, 1);
		const local = await boot({ now: () => now });
		try {
			const body = await readJson(
				fetch(`${local.baseUrl}/api/get_upload_id.php?folder_name=Drop&access_type=LINK`),
			);
			expect(body).toMatchObject({ UserID: false, FolderName: 'Drop' });
			const state = await readJson(fetch(`${local.baseUrl}/__sandbox/state`));
			expect(state.anonymousFolders).toEqual([
				expect.objectContaining({
					hash: body.hash,
					name: 'Drop',
					expiresAt: now / 1000 + 30 * 86400,
					expired: false,
				}),
			]);
			// Its upload key works without an account.
			const form = new FormData();
			form.append('folder_hash', body.hash);
			form.append('folder_upload_key', body.add_key);
			form.append('file', new Blob(['x']), 'x.txt');
			expect(
				(
					await fetch(`${local.baseUrl}/api_v2/upload_file`, {
						method: 'POST',
						body: form,
					})
				).status,
			).toBe(200);
			now += 31 * 86400 * 1000;
			expect(local.store.folder(body.hash)).toBeUndefined();
		} finally {
			await local.close();
		}
	});

	it('rejects bad access types, foreign parents and anonymous parents', async () => {
		await expectEmpty(await get('get_upload_id', { ...DEMO_TOKEN, access_type: 'PUBLIC' }), 400);
		await expectEmpty(
			await get('get_upload_id', {
				...FREE_TOKEN,
				parent_hash: DEMO_ACCOUNT.rootHash,
			}),
			403,
		);
		await expectEmpty(await get('get_upload_id', { parent_hash: DEMO_ACCOUNT.rootHash }), 401);
		await expectEmpty(await get('get_upload_id', { ...DEMO_TOKEN, parent_hash: 'nope' }), 405);
	});
});

describe('keys', () => {
	it('get_upload_keys returns AddFileKey and DeleteKey to the owner only', async () => {
		const folder = await createFolder(sandbox);
		expect(
			await readJson(get('get_upload_keys', { ...DEMO_TOKEN, hash: folder.folder_hash })),
		).toEqual({
			AddFileKey: folder.folder_upload_key,
			DeleteKey: folder.folder_edit_key,
		});
		await expectEmpty(
			await get('get_upload_keys', {
				...FREE_TOKEN,
				hash: folder.folder_hash,
			}),
			403,
		);
		await expectEmpty(await get('get_upload_keys', { ...DEMO_TOKEN, hash: 'missing' }), 405);
		await expectEmpty(await get('get_upload_keys', { hash: folder.folder_hash }), 401);
	});

	it('get_add_key needs an active session', async () => {
		const folder = await createFolder(sandbox);
		await expectEmpty(await get('get_add_key', { ...DEMO_TOKEN, hash: folder.folder_hash }), 401);
		const id = await sessionId();
		expect(await readJson(get('get_add_key', { PHPSESSID: id, hash: folder.folder_hash }))).toEqual(
			{
				add_key: folder.folder_upload_key,
			},
		);
		const viaCookie = await get(
			'get_add_key',
			{ hash: folder.folder_hash },
			{ Cookie: `PHPSESSID=${id}` },
		);
		expect(viaCookie.status).toBe(200);
	});

	it('get_file_keys returns the delete key to someone with edit rights', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'k.txt', 'k');
		expect(await readJson(get('get_file_keys', { ...DEMO_TOKEN, hash: file.file_hash }))).toEqual({
			success: true,
			hash: file.file_hash,
			delete_key: file.file_delete_key,
		});
		expect((await get('get_file_keys', { ...FREE_TOKEN, hash: file.file_hash })).status).toBe(403);
		expect((await get('get_file_keys', { ...DEMO_TOKEN, hash: 'x' })).status).toBe(405);
	});
});

describe('api/get_ids_and_keys_from_paths.php', () => {
	const paths = (parent: string, key: string, dirs: string[], extra: Fields = {}) => {
		const body = new URLSearchParams(extra);
		for (const dir of dirs) body.append('Directories[]', dir);
		return fetch(
			`${sandbox.baseUrl}/api/get_ids_and_keys_from_paths.php?${new URLSearchParams({ upload_hash: parent, add_key: key })}`,
			{ method: 'POST', body },
		);
	};

	it('creates every missing folder and reuses existing ones', async () => {
		const top = await createFolder(sandbox, {
			folder_name: 'Docs',
			access_type: 'LINK',
		});
		const first = await readJson(
			paths(top.folder_hash, top.folder_upload_key, ['Invoices/2026/11', 'Invoices/2026/12']),
		);
		expect(first).toEqual({
			Success: true,
			Directories: {
				'Invoices/2026/11': {
					id: expect.any(Number),
					add_key: expect.stringMatching(/^[0-9a-f]{32}$/),
				},
				'Invoices/2026/12': {
					id: expect.any(Number),
					add_key: expect.any(String),
				},
			},
			Error: null,
		});
		const again = await readJson(
			paths(top.folder_hash, top.folder_upload_key, ['invoices/2026/11/']),
		);
		// Keys of the map are the paths as sent; the folders are matched case-insensitively.
		expect(again.Directories['invoices/2026/11/']).toEqual(first.Directories['Invoices/2026/11']);
		const invoices = sandbox.store.subfolders(sandbox.store.folder(top.folder_hash)!.id);
		expect(invoices.map((f) => [f.name, f.accessType])).toEqual([['Invoices', 'LINK']]);
		const leaf = sandbox.store.folders.get(first.Directories['Invoices/2026/11'].id)!;
		expect(leaf).toMatchObject({
			name: '11',
			uploadKey: first.Directories['Invoices/2026/11'].add_key,
		});
	});

	it('takes the owner credentials instead of the add key, and a JSON body', async () => {
		const response = await fetch(
			`${sandbox.baseUrl}/api/get_ids_and_keys_from_paths.php?upload_hash=${DEMO_ACCOUNT.rootHash}`,
			{
				method: 'POST',
				body: new URLSearchParams({
					...DEMO_TOKEN,
					'Directories[0]': 'A/B',
					access_type: 'PRIVATE',
				}),
			},
		);
		expect(Object.keys((await readJson(response)).Directories)).toEqual(['A/B']);
	});

	it('fails with Success false before creating anything', async () => {
		const top = await createFolder(sandbox);
		const bad = await paths(top.folder_hash, top.folder_upload_key, ['Good', '../escape']);
		expect(bad.status).toBe(400);
		expect(await readJson(bad)).toEqual({
			Success: false,
			Directories: {},
			Error: 'Invalid path: ../escape',
		});
		expect(sandbox.store.subfolders(sandbox.store.folder(top.folder_hash)!.id)).toEqual([]);
		expect((await paths(top.folder_hash, 'wrong', ['X'])).status).toBe(403);
		expect((await paths(top.folder_hash, '', ['X'])).status).toBe(401);
		expect((await paths('missing', 'wrong', ['X'])).status).toBe(405);
		expect((await paths(top.folder_hash, top.folder_upload_key, [])).status).toBe(400);
		expect(
			(
				await paths(top.folder_hash, top.folder_upload_key, ['X'], {
					access_type: 'SECRET',
				})
			).status,
		).toBe(400);
	});
});

describe('save_file.php', () => {
	it('uploads with up_id and key in the query and answers the hash with get_file_hash', async () => {
		const folder = await createFolder(sandbox);
		const viaQuery = await saveFile(
			{
				up_id: folder.folder_hash,
				key: folder.folder_upload_key,
				get_file_hash: '1',
				watermark_text: 'Draft',
				watermark_position: 'TOP_LEFT',
			},
			'a.txt',
			'alpha',
		);
		expect(viaQuery.status).toBe(200);
		const hash = await viaQuery.text();
		expect(sandbox.store.file(hash)).toMatchObject({
			name: 'a.txt',
			size: 5,
			watermark: { text: 'Draft', position: 'TOP_LEFT', color: 'F0FF3C' },
		});
		const again = await saveFile(
			{ up_id: folder.folder_hash, key: folder.folder_upload_key },
			'a.txt',
			'beta',
		);
		expect(again.status).toBe(200);
		expect(await again.text()).toBe('');
		// Not documented: the parameters as multipart fields next to the file.
		const viaBody = await saveFile({}, 'a.txt', 'gamma', {
			up_id: folder.folder_hash,
			key: folder.folder_upload_key,
		});
		expect(viaBody.status).toBe(400);
		expect(
			sandbox.store.filesIn(sandbox.store.folder(folder.folder_hash)!.id).map((f) => f.name),
		).toEqual(['a.txt', 'a (1).txt']);
		const log = sandbox.requests.list().filter((entry) => entry.path === '/save_file.php');
		expect(log.map((entry) => entry.keysInUrl)).toEqual([['key'], ['key'], []]);
		expect(log[0].url).toContain('key=***');
	});

	it('shares the upload checks: 491, 493, 401 and 405', async () => {
		const folder = await createFolder(sandbox);
		const fields = { up_id: folder.folder_hash, key: folder.folder_upload_key };
		expect((await saveFile(fields, 'x.pdf.exe', 'x')).status).toBe(491);
		sandbox.store.updateAccount('demo', { fileSizeLimit: 3 });
		expect((await saveFile(fields, 'big.txt', 'four')).status).toBe(493);
		expect((await saveFile({ up_id: folder.folder_hash }, 'a.txt', 'a')).status).toBe(401);
		expect(
			(
				await saveFile(
					{ up_id: DEMO_ACCOUNT.rootHash, key: DEMO_ACCOUNT.rootUploadKey },
					'a.txt',
					'a',
				)
			).status,
		).toBe(405);
	});

	it('replaces content in place with do=update: same hash, new ETag; versions kept for BUSINESS', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'report.txt', 'version one');
		const download = () =>
			v2(sandbox, 'download_file', {
				...DEMO_TOKEN,
				file_hash: file.file_hash,
			});
		const before = await download();
		const etag = before.headers.get('etag');
		expect(etag).toMatch(/^"[0-9a-f]{16}-1"$/);
		const replaced = await saveFile(
			{
				up_id: folder.folder_hash,
				key: folder.folder_upload_key,
				do: 'update',
				replace_file_hash: file.file_hash,
				get_file_hash: '1',
			},
			'whatever.txt',
			'version two!',
		);
		expect(await replaced.text()).toBe(file.file_hash);
		const after = await download();
		expect(after.headers.get('etag')).not.toBe(etag);
		expect(await after.text()).toBe('version two!');
		const stored = sandbox.store.file(file.file_hash)!;
		expect(stored).toMatchObject({
			name: 'report.txt',
			size: 12,
			version: 2,
			deleteKey: file.file_delete_key,
		});
		expect(stored.versions.map((v) => v.size)).toEqual([11]);
	});

	it('drops old content for plans without versions and refuses files of other folders', async () => {
		const folder = await createFolder(sandbox, {}, FREE_TOKEN);
		const other = await createFolder(sandbox, {}, FREE_TOKEN);
		const file = await uploadOk(sandbox, folder.folder_hash, 'f.txt', 'one', FREE_TOKEN);
		const update = (up: string) =>
			saveFile(
				{
					...FREE_TOKEN,
					up_id: up,
					do: 'update',
					replace_file_hash: file.file_hash,
				},
				'f.txt',
				'two',
			);
		expect((await update(other.folder_hash)).status).toBe(405);
		expect((await update(folder.folder_hash)).status).toBe(200);
		expect(sandbox.store.file(file.file_hash)!.versions).toEqual([]);
	});
});

const png = (width: number, height: number) => {
	const bytes = Buffer.alloc(33);
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
	bytes.writeUInt32BE(13, 8);
	bytes.write('IHDR', 12, 'latin1');
	bytes.writeUInt32BE(width, 16);
	bytes.writeUInt32BE(height, 20);
	return bytes;
};
const jpeg = (width: number, height: number) => {
	const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0x01, 0x02]), Buffer.alloc(0x100)]);
	const sof = Buffer.from([
		0xff,
		0xc2,
		0x00,
		0x11,
		0x08,
		height >> 8,
		height & 255,
		width >> 8,
		width & 255,
		3,
	]);
	return Buffer.concat([
		Buffer.from([0xff, 0xd8]),
		app1,
		Buffer.from([0xff, 0xc4, 0x00, 0x02]),
		sof,
		Buffer.alloc(8),
		Buffer.from([0xff, 0xd9]),
	]);
};

describe('api/get_file_info.php', () => {
	it('GET hash + del_key gives legacy details, with image dimensions from PNG and JPEG headers', async () => {
		const folder = await createFolder(sandbox);
		const picture = await uploadOk(
			sandbox,
			folder.folder_hash,
			'pic.png',
			png(640, 480) as unknown as string,
		);
		const info = await readJson(
			get('get_file_info', {
				hash: picture.file_hash,
				del_key: picture.file_delete_key,
			}),
		);
		expect(info).toEqual({
			success: true,
			file_info: {
				Name: 'pic.png',
				ContentType: 'image/png',
				Extension: 'png',
				ExtensionType: 'image',
				Size: '33 B',
				RealSize: 33,
				CustomInfo: { Width: 640, Height: 480 },
			},
		});
		const photo = await uploadOk(
			sandbox,
			folder.folder_hash,
			'photo.JPG',
			jpeg(1920, 1080) as unknown as string,
		);
		const photoInfo = await readJson(
			get('get_file_info', {
				hash: photo.file_hash,
				del_key: photo.file_delete_key,
			}),
		);
		expect(photoInfo.file_info).toMatchObject({
			Extension: 'jpg',
			CustomInfo: { Width: 1920, Height: 1080 },
		});
		const text = await uploadOk(sandbox, folder.folder_hash, 'notes.txt', 'x'.repeat(2048));
		const textInfo = await readJson(
			get('get_file_info', {
				hash: text.file_hash,
				del_key: text.file_delete_key,
			}),
		);
		expect(textInfo.file_info).toMatchObject({
			ExtensionType: 'document',
			Size: '2 KB',
			RealSize: 2048,
			CustomInfo: {},
		});
	});

	it('needs the right del_key', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'a');
		expect((await get('get_file_info', { hash: file.file_hash, del_key: 'nope' })).status).toBe(
			403,
		);
		expect((await get('get_file_info', { hash: file.file_hash })).status).toBe(400);
		expect((await get('get_file_info', { hash: 'nope', del_key: 'x' })).status).toBe(405);
	});

	it('refuses the undocumented forms: hash and del_key by POST (405)', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'a');
		const posted = await post('get_file_info', {
			hash: file.file_hash,
			del_key: file.file_delete_key,
		});
		expect(posted.status).toBe(405);
	});

	it('POST action=get_file_hash_by_name finds a file case-insensitively for a viewer', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'Invoice 7.pdf', 'a');
		const byName = (auth: Fields, name: string) =>
			post('get_file_info', {
				...auth,
				action: 'get_file_hash_by_name',
				upload_hash: folder.folder_hash,
				file_name: name,
			});
		expect(await readJson(byName(DEMO_TOKEN, 'invoice 7.PDF'))).toEqual({
			success: true,
			file_info: { hash: file.file_hash },
		});
		expect((await byName(DEMO_TOKEN, 'other.pdf')).status).toBe(405);
		expect((await byName(FREE_TOKEN, 'Invoice 7.pdf')).status).toBe(403);
		expect((await byName({}, 'Invoice 7.pdf')).status).toBe(401);
	});
});

describe('api/get_uploads_exist.php', () => {
	it('maps each hash to whether it is a live folder of the caller', async () => {
		const mine = await createFolder(sandbox);
		const theirs = await createFolder(sandbox, {}, FREE_TOKEN);
		const gone = await createFolder(sandbox);
		await v2(sandbox, 'delete_folder', {
			...DEMO_TOKEN,
			folder_hash: gone.folder_hash,
		});
		const hashes = [mine.folder_hash, theirs.folder_hash, gone.folder_hash, 'nope'];
		expect(await readJson(postJson('get_uploads_exist', { hashes }))).toEqual({
			[mine.folder_hash]: true,
			[theirs.folder_hash]: false,
			[gone.folder_hash]: false,
			nope: false,
		});
		expect((await postJson('get_uploads_exist', { hashes: 'x' })).status).toBe(400);
		expect((await postJson('get_uploads_exist', { hashes }, {})).status).toBe(401);
	});
});

describe('undelete', () => {
	it('restores a deleted file and folder with a suffix when the name is taken', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'Keep' });
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'a');
		await v2(sandbox, 'delete_file', {
			...DEMO_TOKEN,
			file_hash: file.file_hash,
		});
		await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'new a');
		expect(await readJson(post('undelete_file', { ...DEMO_TOKEN, hash: file.file_hash }))).toEqual({
			success: true,
			hash: file.file_hash,
			name: 'a (1).txt',
		});
		await v2(sandbox, 'delete_folder', {
			...DEMO_TOKEN,
			folder_hash: folder.folder_hash,
		});
		await createFolder(sandbox, { folder_name: 'Keep' });
		const restored = await readJson(
			post('undelete_folder', {
				...DEMO_TOKEN,
				folder_hash: folder.folder_hash,
			}),
		);
		expect(restored).toEqual({
			success: true,
			hash: folder.folder_hash,
			name: 'Keep (1)',
		});
		expect(sandbox.store.filesIn(sandbox.store.folder(folder.folder_hash)!.id)).toHaveLength(2);
	});

	it('refuses other plans with 403 and live or foreign items with 405', async () => {
		const folder = await createFolder(sandbox, {}, FREE_TOKEN);
		await v2(sandbox, 'delete_folder', {
			...FREE_TOKEN,
			folder_hash: folder.folder_hash,
		});
		const refused = await post('undelete_folder', {
			...FREE_TOKEN,
			hash: folder.folder_hash,
		});
		expect(refused.status).toBe(403);
		expect((await readJson(refused)).message).toMatch(/PRO, BUSINESS or ENTERPRISE/);
		expect(
			(
				await post('undelete_folder', {
					...DEMO_TOKEN,
					hash: folder.folder_hash,
				})
			).status,
		).toBe(405);
		const live = await createFolder(sandbox);
		expect((await post('undelete_folder', { ...DEMO_TOKEN, hash: live.folder_hash })).status).toBe(
			405,
		);
		expect(FREE_ACCOUNT.plan).toBe('FREE');
	});
});
