import nock from 'nock';

import { BASE, form, rl, runStorage, sessionLogin, unexpectedRequests, WEB } from './run-storage';
import { offlineWithNock } from '../offline';

offlineWithNock();

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
		const { out, error } = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('F'), binaryPropertyName: 'data' },
			{ binary: { content: 'x' } },
		);
		expect(error).toBeUndefined();
		expect(upload.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({ hash: 'New1', name: 'report (1).pdf' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	describe("after a lost answer, proves the upload by the service clock, never by n8n's", () => {
		const lostUpload = () =>
			nock(BASE)
				.post('/api_v2/upload_file')
				.once()
				.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		const listing = (items: object[], serviceNowMs: number) =>
			nock(BASE)
				.post('/api_v2/get_folder_content', /folder_hash=F/)
				.reply(200, items, { Date: new Date(serviceNowMs).toUTCString() });
		const upload = (options: Record<string, string> = {}, content = 'x', fileName = 'report.pdf') =>
			runStorage(
				{
					resource: 'file',
					operation: 'upload',
					folder: rl('F'),
					binaryPropertyName: 'data',
					options,
				},
				{ binary: { content, fileName, mimeType: 'image/png' } },
			);

		it('never adopts an older file of the same name and size (uploaded a minute before): uploads again', async () => {
			sessionLogin(2);
			lostUpload();
			const serviceNow = Date.now();
			listing(
				[
					{
						type: 'file',
						hash: 'Older',
						name: 'report.pdf',
						size: 1,
						timestamp_uploaded: Math.floor(serviceNow / 1000) - 60,
					},
				],
				serviceNow,
			);
			const again = nock(BASE).post('/api_v2/upload_file').reply(200, uploaded);
			const { out, error } = await upload();
			expect(error).toBeUndefined();
			expect(again.isDone()).toBe(true);
			expect(out[0].json.hash).toBe('FileH7');
		});

		it('finds the file when the service clock runs ten minutes behind n8n (no second upload)', async () => {
			sessionLogin(2);
			lostUpload();
			const serviceNow = Date.now() - 600_000;
			listing(
				[
					{
						type: 'file',
						hash: 'Mine',
						name: 'report.pdf',
						size: 1,
						timestamp_uploaded: Math.floor(serviceNow / 1000),
					},
				],
				serviceNow,
			);
			const { out, error } = await upload();
			expect(error).toBeUndefined();
			expect(out[0].json.hash).toBe('Mine');
			expect(nock.pendingMocks()).toEqual([]);
		});

		it('does not depend on the size when a watermark changed it (no second upload)', async () => {
			sessionLogin(2);
			lostUpload();
			const serviceNow = Date.now();
			listing(
				[
					{
						type: 'file',
						hash: 'Stamped',
						name: 'photo.png',
						size: 4711,
						timestamp_uploaded: Math.floor(serviceNow / 1000),
					},
				],
				serviceNow,
			);
			const { out, error } = await upload({ watermarkText: 'DRAFT' }, 'x', 'photo.png');
			expect(error).toBeUndefined();
			expect(out[0].json.hash).toBe('Stamped');
			expect(nock.pendingMocks()).toEqual([]);
		});

		it('names the candidates and picks none when more than one fits', async () => {
			sessionLogin(2);
			lostUpload();
			const serviceNow = Date.now();
			const now = Math.floor(serviceNow / 1000);
			listing(
				[
					{ type: 'file', hash: 'A1', name: 'report.pdf', size: 1, timestamp_uploaded: now },
					{ type: 'file', hash: 'B2', name: 'report (1).pdf', size: 1, timestamp_uploaded: now },
				],
				serviceNow,
			);
			const { error } = await upload();
			expect(error?.message).toMatch(/may have been applied/);
			expect(error?.message).toMatch(/"report.pdf" \(A1\), "report \(1\).pdf" \(B2\)/);
			expect(nock.pendingMocks()).toEqual([]);
		});

		it('says "may have been applied" when the listing carries no Date to date the files by', async () => {
			sessionLogin(2);
			lostUpload();
			nock(BASE)
				.post('/api_v2/get_folder_content')
				.reply(200, [
					{ type: 'file', hash: 'A1', name: 'report.pdf', size: 1, timestamp_uploaded: 1 },
				]);
			const { error } = await upload();
			expect(error?.message).toMatch(/may have been applied.*no Date/);
			expect(nock.pendingMocks()).toEqual([]);
		});
	});

	it('after a 494 partial upload that did not store the file, uploads again with the content from the start', async () => {
		sessionLogin(2); // the session, then the account data that tells ROOT's hash
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
		sessionLogin();
		nock(BASE)
			.post('/api_v2/delete_file', /file_hash=F/)
			.reply(200, '');
		const ok = await runStorage({ resource: 'file', operation: 'delete', file: rl('F') });
		expect(ok.out[0].json).toEqual({ hash: 'F', deleted: true });
		sessionLogin();
		nock(BASE).post('/api_v2/delete_file').reply(405, '', { 'Content-Type': 'application/json' });
		const gone = await runStorage(
			{ resource: 'file', operation: 'delete', file: rl('gone') },
			{ continueOnFail: true },
		);
		expect(gone.out[0]).toMatchObject({
			json: { error: expect.stringMatching(/405/) },
			pairedItem: { item: 0 },
		});
	});
});
