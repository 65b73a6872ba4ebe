import nock from 'nock';

import {
	BASE,
	form,
	rl,
	runStorage,
	sessionLogin,
	unexpectedRequests,
	WEB,
} from '../../unit/storage/run-storage';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

/** The folder's files before the upload begins (a lost answer never adopts one of them). */
const folderBefore = (items: object[] = []) =>
	nock(BASE).post('/api_v2/get_folder_content').reply(200, items);

const uploaded = {
	file_hash: 'FileH7',
	file_delete_key: 'd'.repeat(32),
	file_name: 'report.pdf',
	timestamp_uploaded: 1700000000,
	timestamp_last_modified: 1700000000,
};

describe('file upload', () => {
	it('streams a multipart body with the folder, the file and the token fields', async () => {
		sessionLogin(2); // the session, then the account data that tells ROOT's hash
		folderBefore();
		let body = '';
		const scope = nock(BASE)
			.post('/api_v2/upload_file')
			.matchHeader('content-type', /^multipart\/form-data; boundary=/)
			.reply((_uri, raw) => ((body = String(raw)), [200, uploaded]));
		const { out, error } = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('Fold3r'), binaryPropertyName: 'data' },
			{ binary: { content: 'hello %PDF' } },
		);
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(body).toMatch(/name="folder_hash"\r\n\r\nFold3r/);
		expect(body).toMatch(
			/name="file"; filename="report.pdf"\r\nContent-Type: application\/pdf\r\n\r\nhello %PDF/,
		);
		expect(body).toMatch(/name="user_access_token"\r\n\r\ntok-secret-1/);
		expect(out[0].json).toMatchObject({
			type: 'file',
			hash: 'FileH7',
			name: 'report.pdf',
			size: 10,
			delete_key: 'd'.repeat(32),
			parent_folder_hash: 'Fold3r',
			link: `${WEB}/f/FileH7`,
		});
		// The service's own names stay beside the uniform ones.
		expect(out[0].json).toMatchObject(uploaded);
	});

	it('uses the File Name option', async () => {
		sessionLogin(2); // the session, then the account data that tells ROOT's hash
		folderBefore();
		let body = '';
		nock(BASE)
			.post('/api_v2/upload_file')
			.reply(
				(_uri, raw) => ((body = String(raw)), [200, { ...uploaded, file_name: 'renamed.pdf' }]),
			);
		await runStorage(
			{
				resource: 'file',
				operation: 'upload',
				folder: rl('F'),
				binaryPropertyName: 'data',
				options: { fileName: 'renamed.pdf' },
			},
			{ binary: { content: 'x' } },
		);
		expect(body).toContain('filename="renamed.pdf"');
	});

	it.each([
		[490, /virus/],
		[491, /double extension/],
		[492, /folder size limit/],
		[493, /per-file limit/],
	])('explains upload code %i', async (status, message) => {
		sessionLogin(2); // the session, then the account data that tells ROOT's hash
		folderBefore();
		nock(BASE)
			.post('/api_v2/upload_file')
			.reply(status, '', { 'Content-Type': 'application/json' });
		const { error } = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('F'), binaryPropertyName: 'data' },
			{ binary: { content: 'x' } },
		);
		expect(error?.message).toMatch(message);
		expect((error as { httpCode?: string }).httpCode).toBe(String(status));
	});

	it('after a dropped connection, finds the stored file instead of uploading it twice', async () => {
		sessionLogin(2); // the session, then the account data that tells ROOT's hash
		folderBefore([{ type: 'file', hash: 'old', name: 'report.pdf', size: 1 }]);
		const upload = nock(BASE)
			.post('/api_v2/upload_file')
			.once()
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=F/)
			.reply(
				200,
				[
					{ type: 'file', hash: 'old', name: 'report.pdf', size: 1, timestamp_uploaded: 1 },
					{
						type: 'file',
						hash: 'New1',
						name: 'report (1).pdf',
						size: 1,
						timestamp_uploaded: Math.floor(Date.now() / 1000),
						delete_key: 'k',
					},
				],
				{ Date: new Date().toUTCString() },
			);
		nock(BASE)
			.post('/api_v2/download_file', /file_hash=New1/)
			.reply(200, 'x');
		const { out, error } = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('F'), binaryPropertyName: 'data' },
			{ binary: { content: 'x' } },
		);
		expect(error).toBeUndefined();
		expect(upload.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({ hash: 'New1', name: 'report (1).pdf' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	// The proofs after a lost answer (content, not clocks): write-outcomes.test.ts.

	it('after a 494 partial upload that did not store the file, uploads again with the content from the start', async () => {
		sessionLogin(2); // the session, then the account data that tells ROOT's hash
		folderBefore();
		nock(BASE).post('/api_v2/upload_file').reply(494, '');
		nock(BASE).post('/api_v2/get_folder_content').reply(200, []);
		let second = '';
		nock(BASE)
			.post('/api_v2/upload_file')
			.reply((_uri, raw) => ((second = String(raw)), [200, uploaded]));
		const { out, error } = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('F'), binaryPropertyName: 'data' },
			{ binary: { content: 'full content' } },
		);
		expect(error).toBeUndefined();
		expect(second).toContain('full content');
		expect(out[0].json.hash).toBe('FileH7');
	});

	it('fails before any request for ROOT or a missing binary property', async () => {
		const unexpected = unexpectedRequests();
		const root = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('ROOT'), binaryPropertyName: 'data' },
			{ binary: { content: 'x' } },
		);
		expect(root.error?.message).toMatch(/directly into ROOT/);
		const missing = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('F'), binaryPropertyName: 'attachment' },
			{ binary: { content: 'x' } },
		);
		expect(missing.error?.message).toMatch(/No binary property "attachment"/);
		expect(missing.error?.description).toMatch(/binary properties: data/);
		expect(unexpected).toEqual([]);
	});
});

describe('file download', () => {
	it('stores the bytes with the file name and content type', async () => {
		sessionLogin();
		nock(BASE)
			.post('/api_v2/get_file_info', /file_hash=Fx/)
			.reply(200, { hash: 'Fx', name: 'photo.jpg', size: 5 });
		nock(BASE)
			.post('/api_v2/download_file', /file_hash=Fx/)
			.reply(200, Buffer.from('JPEG!'), { 'Content-Type': 'image/jpeg', 'Content-Length': '5' });
		const result = await runStorage({
			resource: 'file',
			operation: 'download',
			file: rl('Fx'),
			binaryPropertyName: 'data',
		});
		expect(result.error).toBeUndefined();
		const item = result.out[0];
		expect(item.binary?.data).toMatchObject({ fileName: 'photo.jpg', mimeType: 'image/jpeg' });
		expect((await result.readBinary(item, 'data')).toString()).toBe('JPEG!');
		expect(item.json.link).toBe(`${WEB}/f/Fx`);
	});

	it('refuses a download cut short', async () => {
		sessionLogin();
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'Fx', name: 'a.bin', size: 10 });
		nock(BASE).post('/api_v2/download_file').reply(200, Buffer.from('12345'));
		const { error } = await runStorage({
			resource: 'file',
			operation: 'download',
			file: rl('Fx'),
			binaryPropertyName: 'data',
		});
		// Through n8n's helper a short body may also be a compressed answer it unpacked: both causes named.
		expect(error?.message).toMatch(
			/does not match its expected size: 5 bytes arrived, 10 were expected/,
		);
		expect(error?.description).toMatch(/connection broke.*compressed on the way/);
	});

	it('accepts a pasted file link', async () => {
		sessionLogin();
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_file_info',
				(raw) => ((sent = form(new URLSearchParams(raw).toString())), true),
			)
			.reply(200, { hash: 'abc', name: 'a' });
		await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('https://www.example.test/f/abc', 'url'),
		});
		expect(sent.file_hash).toBe('abc');
	});
});

describe('file get and delete', () => {
	it('gets a file with access rights', async () => {
		sessionLogin();
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_file_info',
				(raw) => ((sent = form(new URLSearchParams(raw).toString())), true),
			)
			.reply(200, { hash: 'F', name: 'a.txt', access_rights: { allow_view: true } });
		const { out } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('F'),
			options: { accessRights: true },
		});
		expect(sent).toMatchObject({ file_hash: 'F', get_access_rights: '1' });
		expect(out[0].json).toMatchObject({
			type: 'file',
			name: 'a.txt',
			access_rights: { allow_view: true },
		});
	});

	it('deletes a file; a missing one gives the 405 explanation', async () => {
		// The file's folder is read first: after a lost answer only its listing proves the delete.
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'F', parent_folder_hash: 'P' });
		nock(BASE)
			.post('/api_v2/delete_file', /file_hash=F/)
			.reply(200, '');
		const ok = await runStorage({ resource: 'file', operation: 'delete', file: rl('F') });
		expect(ok.out[0].json).toEqual({ hash: 'F', deleted: true, outcome: 'applied', httpCode: 200 });
		nock(BASE).post('/api_v2/get_file_info').reply(405, '');
		nock(BASE).post('/api_v2/delete_file').reply(405, '', { 'Content-Type': 'application/json' });
		const gone = await runStorage(
			{ resource: 'file', operation: 'delete', file: rl('gone') },
			{ continueOnFail: true },
		);
		expect(gone.out[0]).toMatchObject({
			json: { error: expect.stringMatching(/405/), outcome: 'not-applied', httpCode: 405 },
			pairedItem: { item: 0 },
		});
	});
});
