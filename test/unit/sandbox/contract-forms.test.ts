import { DEMO_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import { boot, createFolder, DEMO_TOKEN, readJson, uploadOk, type Fields } from './helpers.ts';

/**
 * The sandbox answers the documented request forms and refuses the others the way such a server would:
 * wrong method 405, a parameter in the wrong place is a missing parameter (400 or the script's error object).
 */
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const url = (path: string, query: Fields = {}) => {
	const qs = new URLSearchParams(query).toString();
	return `${sandbox.baseUrl}/${path}${qs ? `?${qs}` : ''}`;
};
const get = (path: string, query: Fields = {}, headers: Record<string, string> = {}) =>
	fetch(url(path, query), { headers });
const post = (path: string, query: Fields, body: Fields | URLSearchParams) =>
	fetch(url(path, query), { method: 'POST', body: new URLSearchParams(body) });

async function sessionCookie(): Promise<Record<string, string>> {
	const body = await readJson(post('api/authenticate_user.php', {}, DEMO_TOKEN));
	return { Cookie: `PHPSESSID=${body.SessionID}` };
}

describe('api/get_upload_tree.php: GET with Hash and DeleteKey', () => {
	it('answers the documented GET; POST is 405 and a missing Hash 400', async () => {
		const folder = await createFolder(sandbox);
		const ok = await get('api/get_upload_tree.php', {
			Hash: folder.folder_hash,
			DeleteKey: folder.folder_edit_key,
		});
		expect(ok.status).toBe(200);
		expect((await readJson(ok)).data.Hash).toBe(folder.folder_hash);
		const posted = await post(
			'api/get_upload_tree.php',
			{},
			{ Hash: folder.folder_hash, DeleteKey: folder.folder_edit_key },
		);
		expect(posted.status).toBe(405);
		expect(
			(await get('api/get_upload_tree.php', { DeleteKey: folder.folder_edit_key })).status,
		).toBe(400);
	});
});

describe('documented GET scripts refuse POST', () => {
	it.each([
		'get_upload_keys',
		'get_add_key',
		'get_file_list_for_upload',
		'upload_list',
		'get_storage_data',
		'get_file_keys',
		'get_upload_id',
		'validate_session',
	])('%s', async (script) => {
		expect(
			(await post(`api/${script}.php`, {}, { ...DEMO_TOKEN, hash: DEMO_ACCOUNT.rootHash })).status,
		).toBe(405);
	});
});

describe('api/get_file_info.php', () => {
	it('GET hash + del_key in the query; the same fields by POST are 405', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'a');
		expect(
			(await get('api/get_file_info.php', { hash: file.file_hash, del_key: file.file_delete_key }))
				.status,
		).toBe(200);
		expect(
			(
				await post(
					'api/get_file_info.php',
					{},
					{ hash: file.file_hash, del_key: file.file_delete_key },
				)
			).status,
		).toBe(405);
	});

	it('POST action=get_file_hash_by_name in the body; the action by GET is not read (400)', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'a');
		const found = await readJson(
			post(
				'api/get_file_info.php',
				{},
				{
					...DEMO_TOKEN,
					action: 'get_file_hash_by_name',
					upload_hash: folder.folder_hash,
					file_name: 'a.txt',
				},
			),
		);
		expect(found).toEqual({ success: true, file_info: { hash: file.file_hash } });
		const viaGet = await get(
			'api/get_file_info.php',
			{ action: 'get_file_hash_by_name', upload_hash: folder.folder_hash, file_name: 'a.txt' },
			await sessionCookie(),
		);
		expect(viaGet.status).toBe(400);
	});
});

describe('api/get_ids_and_keys_from_paths.php', () => {
	it('reads upload_hash and add_key from the query and Directories[] from the body only', async () => {
		const top = await createFolder(sandbox);
		const keys = { upload_hash: top.folder_hash, add_key: top.folder_upload_key };
		const ok = await post(
			'api/get_ids_and_keys_from_paths.php',
			keys,
			new URLSearchParams([['Directories[]', 'A/B']]),
		);
		expect((await readJson(ok)).Success).toBe(true);
		const allInBody = await post(
			'api/get_ids_and_keys_from_paths.php',
			{},
			new URLSearchParams([...Object.entries(keys), ['Directories[]', 'C']]),
		);
		expect(allInBody.status).toBe(400);
		expect(await readJson(allInBody)).toMatchObject({ Success: false });
		const pathsInQuery = await post(
			'api/get_ids_and_keys_from_paths.php',
			{ ...keys, 'Directories[]': 'D' },
			{},
		);
		expect(pathsInQuery.status).toBe(400);
		expect((await get('api/get_ids_and_keys_from_paths.php', keys)).status).toBe(405);
	});
});

describe('save_file.php', () => {
	it('GET is 405; parameters as multipart fields are missing parameters (400)', async () => {
		const folder = await createFolder(sandbox);
		expect(
			(await get('save_file.php', { up_id: folder.folder_hash, key: folder.folder_upload_key }))
				.status,
		).toBe(405);
		const form = new FormData();
		form.append('up_id', folder.folder_hash);
		form.append('key', folder.folder_upload_key);
		form.append('file', new Blob(['x']), 'x.txt');
		expect((await fetch(url('save_file.php'), { method: 'POST', body: form })).status).toBe(400);
	});

	it('do=update in the body does not replace: the upload lands as a new file', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'r.txt', 'old');
		const form = new FormData();
		form.append('do', 'update');
		form.append('replace_file_hash', file.file_hash);
		form.append('file', new Blob(['new']), 'r.txt');
		const response = await fetch(
			url('save_file.php', { up_id: folder.folder_hash, key: folder.folder_upload_key }),
			{ method: 'POST', body: form },
		);
		expect(response.status).toBe(200);
		expect(
			sandbox.store.filesIn(sandbox.store.folder(folder.folder_hash)!.id).map((f) => f.name),
		).toEqual(['r.txt', 'r (1).txt']);
	});
});

describe('V2 takes its parameters from the POST body only', () => {
	it('a parameter in the query is not read (400); the action name alone may be a query parameter', async () => {
		const folder = await createFolder(sandbox);
		const inQuery = await fetch(
			url('api_v2/get_folder_info', { folder_hash: folder.folder_hash }),
			{
				method: 'POST',
				body: new URLSearchParams(DEMO_TOKEN),
			},
		);
		expect(inQuery.status).toBe(400);
		const actionInQuery = await fetch(url('api_v2', { action: 'get_folder_info' }), {
			method: 'POST',
			body: new URLSearchParams({ ...DEMO_TOKEN, folder_hash: folder.folder_hash }),
		});
		expect(actionInQuery.status).toBe(200);
		expect((await readJson(actionInQuery)).hash).toBe(folder.folder_hash);
		expect(
			(
				await fetch(
					url('api_v2/get_folder_info', { ...DEMO_TOKEN, folder_hash: folder.folder_hash }),
				)
			).status,
		).toBe(405);
	});
});

describe('downloads', () => {
	it('download_file answers the bytes with Content-Type and no Content-Disposition; down.php names the file', async () => {
		const folder = await createFolder(sandbox, { access_type: 'LINK' });
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'hello');
		const v2 = await fetch(url('api_v2/download_file'), {
			method: 'POST',
			body: new URLSearchParams({ file_hash: file.file_hash }),
		});
		expect(v2.status).toBe(200);
		expect(v2.headers.get('content-disposition')).toBeNull();
		expect(await v2.text()).toBe('hello');
		const legacy = await get('down.php', { i: file.file_hash });
		expect(legacy.headers.get('content-disposition')).toMatch(/a\.txt/);
	});
});

describe('flags', () => {
	it('take 1 or true only; another spelling is not the flag', async () => {
		const folder = await createFolder(sandbox);
		const info = async (value: string) =>
			readJson(
				fetch(url('api_v2/get_folder_info'), {
					method: 'POST',
					body: new URLSearchParams({
						...DEMO_TOKEN,
						folder_hash: folder.folder_hash,
						get_access_rights: value,
					}),
				}),
			);
		expect(await info('1')).toHaveProperty('access_rights');
		expect(await info('true')).toHaveProperty('access_rights');
		expect(await info('yes')).not.toHaveProperty('access_rights');
		expect(await info('on')).not.toHaveProperty('access_rights');
	});
});

describe('api/get_uploads_exist.php', () => {
	it('takes the documented JSON body only; a form body with hashes[] is 400', async () => {
		const folder = await createFolder(sandbox);
		const cookie = await sessionCookie();
		const asJson = await fetch(url('api/get_uploads_exist.php'), {
			method: 'POST',
			body: JSON.stringify({ hashes: [folder.folder_hash] }),
			headers: { 'Content-Type': 'application/json', ...cookie },
		});
		expect(await readJson(asJson)).toEqual({ [folder.folder_hash]: true });
		const asForm = await fetch(url('api/get_uploads_exist.php'), {
			method: 'POST',
			body: new URLSearchParams([['hashes[]', folder.folder_hash]]),
			headers: cookie,
		});
		expect(asForm.status).toBe(400);
	});
});
