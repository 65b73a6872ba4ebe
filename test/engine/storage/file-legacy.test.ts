import nock from 'nock';

import { BASE, form, rl, runStorage, WEB } from '../../unit/storage/run-storage';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const userData = {
	ID: 1001,
	UserName: 'demo',
	root_upload_hash: 'ROOTHASH1',
	user_access_token: 'must-not-leak',
	SessionID: 'x',
};

function authenticator(times = 1) {
	nock(BASE)
		.post('/api/authenticate_user.php')
		.times(times)
		.reply(200, { Success: true, SessionID: 'sess-1', UserData: userData });
}

/** The download whose headers carry the content's ETag (Replace Content reads it before and after). */
function etagRead(etag: string | undefined) {
	nock(BASE)
		.post('/api_v2/download_file', /file_hash=F/)
		.reply(200, 'old one', etag ? { ETag: etag } : {});
}

function post(path: string, reply: unknown, status = 200) {
	const seen: { body: Record<string, string>; raw: string }[] = [];
	nock(BASE)
		.post(path)
		.reply((_uri, raw) => {
			const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
			seen.push({ body: form(text), raw: text });
			return [status, reply as nock.Body];
		});
	return seen;
}

describe('file operations beyond the first slice', () => {
	it('Find by Name posts the documented action and returns the file with its link', async () => {
		authenticator();
		const find = post('/api/get_file_info.php', { success: true, file_info: { hash: 'Found1' } });
		post('/api_v2/get_file_info', { hash: 'Found1', name: 'x.pdf' });
		const { out } = await runStorage({
			resource: 'file',
			operation: 'findByName',
			folder: rl('F1'),
			name: 'x.pdf',
		});
		expect(find[0].body).toMatchObject({
			action: 'get_file_hash_by_name',
			upload_hash: 'F1',
			file_name: 'x.pdf',
		});
		expect(out[0].json).toMatchObject({ found: true, hash: 'Found1', link: `${WEB}/f/Found1` });
	});

	it('Find by Name outputs found: false, or fails when asked to', async () => {
		authenticator(2);
		post('/api/get_file_info.php', { success: false });
		const soft = await runStorage({
			resource: 'file',
			operation: 'findByName',
			folder: rl('F1'),
			name: 'none.pdf',
		});
		expect(soft.out[0].json).toEqual({ found: false, name: 'none.pdf', parent_folder_hash: 'F1' });
		post('/api/get_file_info.php', { success: false });
		const hard = await runStorage({
			resource: 'file',
			operation: 'findByName',
			folder: rl('F1'),
			name: 'none.pdf',
			failIfMissing: true,
		});
		expect(hard.error?.message).toMatch(/No file "none.pdf"/);
	});

	it('Find by Name takes the documented not-found status 405 (empty body or error object) as not found', async () => {
		authenticator(2);
		post('/api/get_file_info.php', '', 405);
		const soft = await runStorage({
			resource: 'file',
			operation: 'findByName',
			folder: rl('F1'),
			name: 'none.pdf',
		});
		expect(soft.error).toBeUndefined();
		expect(soft.out[0].json).toEqual({ found: false, name: 'none.pdf', parent_folder_hash: 'F1' });
		post('/api/get_file_info.php', { success: false, message: 'File not found' }, 405);
		const hard = await runStorage({
			resource: 'file',
			operation: 'findByName',
			folder: rl('F1'),
			name: 'none.pdf',
			failIfMissing: true,
		});
		expect(hard.error?.message).toMatch(/No file "none.pdf" in the folder/);
		expect(hard.error?.description).toMatch(/folder itself is missing/);
	});

	it('Rename posts file_name and reports the final name', async () => {
		authenticator();
		post('/api_v2/get_file_info', { hash: 'F', name: 'a.txt' });
		const rename = post('/api_v2/rename_file', { file_hash: 'F', file_name: 'b (1).txt' });
		const { out } = await runStorage({
			resource: 'file',
			operation: 'rename',
			file: rl('F'),
			name: 'b.txt',
		});
		expect(rename[0].body).toMatchObject({ file_hash: 'F', file_name: 'b.txt' });
		expect(out[0].json).toMatchObject({ name: 'b (1).txt', link: `${WEB}/f/F` });
	});

	describe('Rename after a lost answer: a read of the name settles it', () => {
		const rename = () =>
			runStorage({ resource: 'file', operation: 'rename', file: rl('F'), name: 'b.txt' });
		const dropped = () =>
			nock(BASE)
				.post('/api_v2/rename_file')
				.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));

		it('the new name (or its " (n)" variant) means applied: not sent twice', async () => {
			post('/api_v2/get_file_info', { hash: 'F', name: 'a.txt' });
			dropped();
			post('/api_v2/get_file_info', { hash: 'F', name: 'b (1).txt' });
			const { out, error } = await rename();
			expect(error).toBeUndefined();
			expect(out[0].json).toMatchObject({ hash: 'F', name: 'b (1).txt' });
			expect(nock.pendingMocks()).toEqual([]);
		});

		it('the old name means not applied: sent again', async () => {
			post('/api_v2/get_file_info', { hash: 'F', name: 'a.txt' });
			post('/api_v2/rename_file', '', 500);
			post('/api_v2/get_file_info', { hash: 'F', name: 'a.txt' });
			const again = post('/api_v2/rename_file', { file_hash: 'F', file_name: 'b.txt' });
			const { out, error } = await rename();
			expect(error).toBeUndefined();
			expect(again).toHaveLength(1);
			expect(out[0].json).toMatchObject({ name: 'b.txt' });
		});

		it('a third name: "may have been applied", naming it', async () => {
			post('/api_v2/get_file_info', { hash: 'F', name: 'a.txt' });
			dropped();
			post('/api_v2/get_file_info', { hash: 'F', name: 'c.txt' });
			const { error } = await rename();
			expect(error?.message).toMatch(/may have been applied.*now named "c.txt" \(it was "a.txt"\)/);
			expect(nock.pendingMocks()).toEqual([]);
		});
	});

	it('Move explains 405 as a missing target, another account or no rights', async () => {
		authenticator();
		post('/api_v2/move_file', '', 405);
		const { error } = await runStorage({
			resource: 'file',
			operation: 'move',
			file: rl('F'),
			targetFolder: rl('Other'),
		});
		expect(error?.description).toMatch(/another account/);
	});

	it('Move is reconciled after a 500: no second move when the file is already there', async () => {
		post('/api_v2/move_file', '', 500);
		post('/api_v2/get_file_info', { hash: 'F', parent_folder_hash: 'T' });
		const { out, error } = await runStorage({
			resource: 'file',
			operation: 'move',
			file: rl('F'),
			targetFolder: rl('T'),
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({ moved: true, parent_folder_hash: 'T' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Move into ROOT is allowed (only uploads into ROOT are forbidden): ROOT resolves to its hash', async () => {
		authenticator(2);
		const move = post('/api_v2/move_file', '');
		const { out, error } = await runStorage({
			resource: 'file',
			operation: 'move',
			file: rl('F'),
			targetFolder: rl('ROOT'),
		});
		expect(error).toBeUndefined();
		expect(move[0].body).toEqual(
			expect.objectContaining({ file_hash: 'F', folder_hash: String(userData.root_upload_hash) }),
		);
		expect(out[0].json).toMatchObject({
			moved: true,
			parent_folder_hash: String(userData.root_upload_hash),
		});
	});

	it("Upload refuses every form that names ROOT: the literal, a path link to the root, and ROOT's own hash", async () => {
		const literal = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('ROOT'), binaryPropertyName: 'data' },
			{ binary: { content: 'x' } },
		);
		expect(literal.error?.message).toMatch(/directly into ROOT/);
		const link = await runStorage(
			{
				resource: 'file',
				operation: 'upload',
				folder: rl(`${WEB}/pa/${String(userData.UserName)}/`, 'url'),
				binaryPropertyName: 'data',
			},
			{ binary: { content: 'x' } },
		);
		expect(link.error?.message).toMatch(/directly into ROOT/);
		authenticator();
		const byHash = await runStorage(
			{
				resource: 'file',
				operation: 'upload',
				folder: rl(String(userData.root_upload_hash)),
				binaryPropertyName: 'data',
			},
			{ binary: { content: 'x' } },
		);
		expect(byHash.error?.message).toMatch(/directly into ROOT/);
		// Refused before the upload: no upload_file was sent.
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Replace Content uploads through save_file.php with do=update, keeping the hash', async () => {
		authenticator();
		post('/api_v2/get_file_info', { hash: 'F', name: 'r.txt', parent_folder_hash: 'P' });
		post('/api_v2/get_folder_info', { hash: 'P', add_files_key: 'addkey' });
		etagRead('"v1"');
		let query = '';
		let raw = '';
		nock(BASE)
			.post('/save_file.php')
			.query(true)
			.reply((uri, body) => {
				query = uri.split('?')[1] ?? '';
				raw = String(body);
				return [200, 'F'];
			});
		post('/api_v2/get_file_info', { hash: 'F', name: 'r.txt', size: 7 });
		const { out, error } = await runStorage(
			{ resource: 'file', operation: 'replace', file: rl('F'), binaryPropertyName: 'data' },
			{ binary: { content: 'new one' } },
		);
		expect(error).toBeUndefined();
		// As documented: up_id, key, do and replace_file_hash in the query; the body is the file part alone.
		expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
			up_id: 'P',
			key: 'addkey',
			do: 'update',
			replace_file_hash: 'F',
		});
		expect(raw).not.toMatch(/name="(do|replace_file_hash|up_id|key)"/);
		expect(raw).toMatch(/name="file"; filename="r.txt"/);
		expect(raw).toContain('new one');
		expect(out[0].json).toMatchObject({ hash: 'F', replaced: true, size: 7 });
	});

	// Replace Content after a lost answer (proven by content, not by the ETag): write-outcomes.test.ts.

	it('Get with legacy details GETs hash and del_key in the query, as documented; the key never reaches the output', async () => {
		authenticator();
		post('/api_v2/get_file_info', { hash: 'I', name: 'p.png', delete_key: 'secretdel' });
		let query = '';
		nock(BASE)
			.get('/api/get_file_info.php')
			.query(true)
			.reply((uri) => {
				query = uri.split('?')[1] ?? '';
				return [
					200,
					{
						success: true,
						file_info: { ContentType: 'image/png', CustomInfo: { Width: 2, Height: 3 } },
					},
				];
			});
		const { out } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('I'),
			options: { legacyDetails: true },
		});
		expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
			hash: 'I',
			del_key: 'secretdel',
		});
		expect(JSON.stringify(out[0].json.details)).not.toContain('secretdel');
		expect(out[0].json.details).toMatchObject({
			ContentType: 'image/png',
			CustomInfo: { Width: 2, Height: 3 },
		});
	});

	it('Upload by upload key after a lost answer: no anonymous listing, no second upload, "may have been applied"', async () => {
		const upload = nock(BASE)
			.post('/api_v2/upload_file')
			.once()
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		const { error } = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'file',
				operation: 'upload',
				folder: rl('Drop'),
				binaryPropertyName: 'data',
				options: { uploadKey: 'a'.repeat(32) },
			},
			{ credentials: {}, binary: { content: 'png', fileName: 'a.png', mimeType: 'image/png' } },
		);
		expect(upload.isDone()).toBe(true);
		expect(error?.description).toMatch(/may have been applied/);
		expect(error?.description).toMatch(/"a.png" \(3 bytes\)/);
		// Nothing else was asked: neither a listing (which could mistake an older file for this one) nor a repeat.
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('Upload by upload key sends no credentials', async () => {
		let headers: Record<string, unknown> = {};
		let body = '';
		nock(BASE)
			.post('/api_v2/upload_file')
			.reply(function (_uri, raw) {
				headers = this.req.headers;
				body = String(raw);
				return [
					200,
					{
						file_hash: 'K1',
						file_delete_key: 'd',
						file_name: 'a.png',
						timestamp_uploaded: 1,
						timestamp_last_modified: 1,
					},
				];
			});
		const { out, error } = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'file',
				operation: 'upload',
				folder: rl('Drop'),
				binaryPropertyName: 'data',
				options: {
					uploadKey: 'a'.repeat(32),
					watermarkText: 'DRAFT',
					watermarkPosition: 'TOP_LEFT',
					watermarkColor: '#00ff00',
				},
			},
			{ credentials: {}, binary: { content: 'png', fileName: 'a.png', mimeType: 'image/png' } },
		);
		expect(error).toBeUndefined();
		expect(headers.authorization).toBeUndefined();
		expect(body).not.toContain('user_access_token');
		expect(body).toMatch(/name="folder_upload_key"\r\n\r\naaaa/);
		expect(body).toMatch(/name="watermark_text"\r\n\r\nDRAFT/);
		expect(body).toMatch(/name="watermark_position"\r\n\r\nTOP_LEFT/);
		expect(body).toMatch(/name="watermark_color"\r\n\r\n00FF00/);
		expect(out[0].json.hash).toBe('K1');
	});

	it('refuses watermarks on non-images and uploads without key or credential, before any request', async () => {
		const pdf = await runStorage(
			{
				resource: 'file',
				operation: 'upload',
				folder: rl('F'),
				binaryPropertyName: 'data',
				options: { watermarkText: 'X' },
			},
			{ binary: { content: 'x', fileName: 'a.pdf' } },
		);
		expect(pdf.error?.message).toMatch(/needs a JPG or PNG/);
		const anonymous = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				resource: 'file',
				operation: 'upload',
				folder: rl('F'),
				binaryPropertyName: 'data',
			},
			{ credentials: {}, binary: { content: 'x' } },
		);
		expect(anonymous.error?.message).toMatch(/needs the folder's upload key/);
	});

	it('downloads a LINK file without credentials, naming it from Content-Disposition', async () => {
		let headers: Record<string, unknown> = {};
		nock(BASE)
			.post('/api_v2/download_file', /file_hash=L1/)
			.reply(function () {
				headers = this.req.headers;
				return [
					200,
					Buffer.from('hello'),
					{
						'Content-Type': 'text/plain',
						'Content-Disposition': 'attachment; filename="hi.txt"',
						'Content-Length': '5',
					},
				];
			});
		const result = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'file',
				operation: 'download',
				file: rl(`${WEB}/f/L1`, 'url'),
				binaryPropertyName: 'data',
			},
			{ credentials: {} },
		);
		expect(result.error).toBeUndefined();
		expect(headers.authorization).toBeUndefined();
		expect(result.out[0].binary?.data).toMatchObject({
			fileName: 'hi.txt',
			mimeType: 'text/plain',
		});
	});

	it('names a download without Content-Disposition: from the file info with a credential, else by its hash', async () => {
		authenticator();
		post('/api_v2/get_file_info', { hash: 'N1', name: 'named.txt', size: 5 });
		nock(BASE)
			.post('/api_v2/download_file', /file_hash=N1/)
			.reply(200, Buffer.from('hello'), { 'Content-Type': 'text/plain' });
		const known = await runStorage({
			resource: 'file',
			operation: 'download',
			file: rl('N1'),
			binaryPropertyName: 'data',
		});
		expect(known.error).toBeUndefined();
		expect(known.out[0].binary?.data).toMatchObject({ fileName: 'named.txt' });
		nock(BASE)
			.post('/api_v2/download_file', /file_hash=L2/)
			// Without a size known beforehand the answer must say where it ends (see expectedBodyBytes).
			.reply(200, Buffer.from('hello'), { 'Content-Type': 'text/plain', 'Content-Length': '5' });
		const anonymous = await runStorage(
			{
				authentication: 'none',
				baseUrl: BASE,
				webUrl: WEB,
				resource: 'file',
				operation: 'download',
				file: rl('L2'),
				binaryPropertyName: 'data',
			},
			{ credentials: {} },
		);
		expect(anonymous.error).toBeUndefined();
		expect(anonymous.out[0].binary?.data).toMatchObject({ fileName: 'L2', mimeType: 'text/plain' });
	});
});

describe('account', () => {
	it('Get returns UserData without secrets', async () => {
		authenticator(2);
		const { out } = await runStorage({ resource: 'account', operation: 'get' });
		expect(out[0].json).toMatchObject({
			ID: 1001,
			UserName: 'demo',
			root_link: `${WEB}/u/ROOTHASH1`,
		});
		expect(JSON.stringify(out[0].json)).not.toContain('must-not-leak');
		expect(out[0].json.SessionID).toBeUndefined();
	});

	it('Get Storage Usage returns the data object', async () => {
		authenticator();
		nock(BASE)
			.get('/api/get_storage_data.php')
			.reply(200, {
				success: true,
				message: 'ok',
				data: { used_mb: 1, quota_mb: 10, available_mb: 9, free_mb: 9 },
			});
		const { out } = await runStorage({ resource: 'account', operation: 'getStorageUsage' });
		expect(out[0].json).toEqual({ used_mb: 1, quota_mb: 10, available_mb: 9, free_mb: 9 });
	});

	it('Create Access Token asks for a token and outputs it', async () => {
		const mint = post('/api/authenticate_user.php', {
			Success: true,
			UserData: { UserName: 'demo', user_access_token: 'new-token' },
		});
		const { out } = await runStorage({ resource: 'account', operation: 'createAccessToken' });
		expect(mint[0].body).toMatchObject({ get_user_access_token: '1' });
		expect(out[0].json).toEqual({
			user: 'demo',
			user_access_token: 'new-token',
			outcome: 'applied',
			httpCode: 200,
		});
	});
});

describe('end-to-end-encryption keys', () => {
	it("saves user keys with the account's own userID", async () => {
		authenticator(2);
		const save = post('/api_v2/save_user_encryption_keys', { success: true });
		const { out } = await runStorage({
			resource: 'encryption',
			operation: 'saveUserKeys',
			kem: 'K',
			dsa: 'D',
			x25519: 'X',
			ed25519: 'E',
		});
		expect(save[0].body).toMatchObject({
			userID: '1001',
			kem: 'K',
			dsa: 'D',
			x25519: 'X',
			ed25519: 'E',
		});
		expect(out[0].json).toEqual({ success: true, outcome: 'applied', httpCode: 200 });
	});

	it('refuses another user id before sending the action', async () => {
		authenticator();
		const { error } = await runStorage({
			resource: 'encryption',
			operation: 'getFileKey',
			file: rl('F'),
			userId: 42,
		});
		expect(error?.message).toMatch(/User ID 42 is not the credential's account/);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('saves and gets file and folder keys with the documented field names', async () => {
		authenticator(2);
		const saveFile = post('/api_v2/save_file_encryption_key', { success: true });
		await runStorage({
			resource: 'encryption',
			operation: 'saveFileKey',
			file: rl('F'),
			encryptionKey: 'wrapped',
			keySignature: 'sig',
		});
		expect(saveFile[0].body).toEqual({
			userID: '1001',
			fileHash: 'F',
			encryptionKey: 'wrapped',
			keySignature: 'sig',
			user: 'demo',
			user_access_token: 'tok-secret-1',
		});
		authenticator(2);
		const getFolder = post('/api_v2/get_upload_encryption_key', {
			encryptionKey: 'w',
			keySignature: 's',
			senderUserID: 1001,
		});
		const { out } = await runStorage({
			resource: 'encryption',
			operation: 'getFolderKey',
			folder: rl('D'),
			isEncryptedFolder: true,
		});
		expect(getFolder[0].body).toMatchObject({ uploadHash: 'D', isEncryptedFolder: '1' });
		expect(out[0].json).toMatchObject({ uploadHash: 'D', encryptionKey: 'w', senderUserID: 1001 });
	});

	it('gets a share key for exactly one of file or folder and validates the e-mail first', async () => {
		authenticator(2);
		const share = post('/api_v2/get_share_encryption_key', {
			encryptionKey: 'w',
			receiverUserID: 5,
		});
		await runStorage({
			resource: 'encryption',
			operation: 'getShareKey',
			receiverEmail: 'bob@example.com',
			shareKind: 'folder',
			folder: rl('D'),
		});
		expect(share[0].body).toMatchObject({ receiverEmail: 'bob@example.com', uploadHash: 'D' });
		expect(share[0].body.fileHash).toBeUndefined();
		const bad = await runStorage({
			resource: 'encryption',
			operation: 'getShareKey',
			receiverEmail: 'bob',
			shareKind: 'file',
			file: rl('F'),
		});
		expect(bad.error?.message).toMatch(/not an e-mail address/);
	});

	it('explains 404 for a missing key', async () => {
		authenticator(2);
		post('/api_v2/get_file_encryption_key', '', 404);
		const { error } = await runStorage({
			resource: 'encryption',
			operation: 'getFileKey',
			file: rl('F'),
		});
		expect(error?.message).toMatch(/404/);
	});
});

describe('delete after a lost answer', () => {
	it('counts the delete as done when its folder no longer lists it, without deleting twice', async () => {
		post('/api_v2/get_file_info', { hash: 'F', parent_folder_hash: 'P' });
		post('/api_v2/delete_file', '', 500);
		post('/api_v2/get_file_info', '', 405);
		post('/api_v2/get_folder_content', []);
		const { out, error } = await runStorage({
			resource: 'file',
			operation: 'delete',
			file: rl('F'),
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toEqual({ hash: 'F', deleted: true, outcome: 'applied-after-lost-answer' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('sends the delete again only when the file is still there', async () => {
		post('/api_v2/get_file_info', { hash: 'F', parent_folder_hash: 'P' });
		post('/api_v2/delete_file', '', 500);
		post('/api_v2/get_file_info', { hash: 'F', name: 'still.txt' });
		post('/api_v2/delete_file', '');
		const { error } = await runStorage({ resource: 'file', operation: 'delete', file: rl('F') });
		expect(error).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('does the same for folders', async () => {
		authenticator();
		post('/api_v2/get_folder_info', { hash: 'D', parent_folder_hash: 'P' });
		nock(BASE)
			.post('/api_v2/delete_folder')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		post('/api_v2/get_folder_info', '', 405);
		post('/api_v2/get_folder_content', [{ type: 'folder', hash: 'Other' }]);
		const { out, error } = await runStorage({
			resource: 'folder',
			operation: 'delete',
			folder: rl('D'),
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toEqual({ hash: 'D', deleted: true, outcome: 'applied-after-lost-answer' });
	});
});
