// Issue #35: the outcome of a Storage write whose answer was lost, proven by what only our write can have
// (content, an absence its parent folder shows), never by names, sizes or clocks alone; and said
// machine-readably (`outcome`, `httpCode`, `candidates`) on success and error items alike.
import nock from 'nock';

import { MAY_HAVE_BEEN_APPLIED } from '../../../nodes/shared/errors/outcome';
import { secondLook } from '../../../nodes/shared/transport';
import { BASE, rl, runStorage, sessionLogin } from '../../unit/storage/run-storage';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();
afterEach(() => jest.restoreAllMocks());

const uploaded = {
	file_hash: 'FileH7',
	file_delete_key: 'd'.repeat(32),
	file_name: 'report.pdf',
	timestamp_uploaded: 1700000000,
	timestamp_last_modified: 1700000000,
};
const dropped = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const secondsNow = () => Math.floor(Date.now() / 1000);
const file = (hash: string, name: string, size: number, extra: object = {}) => ({
	type: 'file',
	hash,
	name,
	size,
	timestamp_uploaded: secondsNow(),
	...extra,
});
const listing = (items: object[], dateMs = Date.now()) =>
	nock(BASE)
		.post('/api_v2/get_folder_content', /folder_hash=F/)
		.reply(200, items, { Date: new Date(dateMs).toUTCString() });
const download = (hash: string, content: string) =>
	nock(BASE)
		.post('/api_v2/download_file', new RegExp(`file_hash=${hash}`))
		.reply(200, content);

const upload = (
	content = 'ours',
	fileName = 'report.pdf',
	options: Record<string, string> = {},
	extra: object = {},
) =>
	runStorage(
		{
			resource: 'file',
			operation: 'upload',
			folder: rl('F'),
			binaryPropertyName: 'data',
			options,
			...extra,
		},
		{ binary: { content, fileName, mimeType: 'image/png' }, continueOnFail: true },
	);

describe('Upload after a lost answer: adopted only by its content', () => {
	it('succeeds with outcome applied and the status', async () => {
		sessionLogin(2);
		listing([]);
		nock(BASE).post('/api_v2/upload_file').reply(200, uploaded);
		const { out } = await upload();
		expect(out[0].json).toMatchObject({ hash: 'FileH7', outcome: 'applied', httpCode: 200 });
	});

	it("another client's same-name, same-size file arrived while ours did not: its bytes differ, ours is sent again", async () => {
		sessionLogin(2);
		listing([]);
		nock(BASE).post('/api_v2/upload_file').replyWithError(dropped());
		listing([file('Theirs', 'report.pdf', 4)]);
		download('Theirs', 'them');
		const again = nock(BASE).post('/api_v2/upload_file').reply(200, uploaded);
		const { out } = await upload();
		expect(again.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({ hash: 'FileH7', outcome: 'applied' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('adopts the new file holding our bytes, whatever the clocks say (Date ten minutes ahead of its timestamp)', async () => {
		sessionLogin(2);
		listing([]);
		nock(BASE).post('/api_v2/upload_file').replyWithError(dropped());
		listing(
			[file('Mine', 'report (1).pdf', 4, { timestamp_uploaded: secondsNow() - 600 })],
			Date.now() + 600_000,
		);
		download('Mine', 'ours');
		const { out } = await upload();
		expect(out[0].json).toMatchObject({
			hash: 'Mine',
			name: 'report (1).pdf',
			outcome: 'applied-after-lost-answer',
		});
		expect(out[0].json.httpCode).toBeUndefined();
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('never adopts a file that was there before the upload began, even with our bytes and a later timestamp', async () => {
		sessionLogin(2);
		const older = file('Older', 'report.pdf', 4, { timestamp_uploaded: secondsNow() + 60 });
		listing([older]);
		nock(BASE).post('/api_v2/upload_file').replyWithError(dropped());
		listing([older], Date.now() - 600_000);
		const again = nock(BASE).post('/api_v2/upload_file').reply(200, uploaded);
		const { out } = await upload();
		expect(again.isDone()).toBe(true);
		expect(out[0].json.hash).toBe('FileH7');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('tolerates another taken-name suffix style ("report_1.pdf")', async () => {
		sessionLogin(2);
		listing([file('Old', 'report.pdf', 9)]);
		nock(BASE).post('/api_v2/upload_file').replyWithError(dropped());
		listing([file('Old', 'report.pdf', 9), file('Mine', 'report_1.pdf', 4)]);
		download('Mine', 'ours');
		const { out } = await upload();
		expect(out[0].json).toMatchObject({ hash: 'Mine', outcome: 'applied-after-lost-answer' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('a watermarked upload cannot be compared: "may have been applied", naming the candidates, not sent again', async () => {
		sessionLogin(2);
		listing([]);
		nock(BASE).post('/api_v2/upload_file').replyWithError(dropped());
		listing([file('Stamped', 'photo.png', 4711)]);
		const { out } = await upload('ours', 'photo.png', { watermarkText: 'DRAFT' });
		expect(String(out[0].json.error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		expect(out[0].json).toMatchObject({
			outcome: 'unknown',
			candidates: [{ hash: 'Stamped', name: 'photo.png', size: 4711 }],
		});
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('several new files with our bytes: "may have been applied", naming them as candidates', async () => {
		sessionLogin(2);
		listing([]);
		nock(BASE).post('/api_v2/upload_file').replyWithError(dropped());
		listing([file('A1', 'report.pdf', 4), file('B2', 'report (1).pdf', 4)]);
		download('A1', 'ours');
		download('B2', 'ours');
		const { out } = await upload();
		expect(out[0].json).toMatchObject({
			outcome: 'unknown',
			candidates: [
				{ hash: 'A1', name: 'report.pdf', size: 4 },
				{ hash: 'B2', name: 'report (1).pdf', size: 4 },
			],
		});
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('into a folder this account may add to but not list (403): uploaded; a lost answer is "may have been applied"', async () => {
		sessionLogin(2);
		nock(BASE).post('/api_v2/get_folder_content').reply(403, '');
		nock(BASE).post('/api_v2/upload_file').replyWithError(dropped());
		const { out } = await upload();
		expect(out[0].json).toMatchObject({ outcome: 'unknown' });
		expect(String(out[0].json.error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('the check read fails (500): "may have been applied", never "nothing was changed"', async () => {
		sessionLogin(2);
		listing([]);
		nock(BASE).post('/api_v2/upload_file').reply(500, '');
		nock(BASE).post('/api_v2/get_folder_content').times(2).reply(500, 'db down');
		const { out } = await upload();
		expect(String(out[0].json.error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		expect(String(out[0].json.description)).not.toMatch(/nothing was changed/);
		expect(String(out[0].json.description)).toMatch(/read that was to check it failed too/);
		expect(out[0].json.outcome).toBe('unknown');
		expect(nock.pendingMocks()).toEqual([]);
	});
});

describe('A write that timed out: looked at twice, never sent again', () => {
	// The Timeout runs on the driven clock: the upload, once it reached nock, moves it on by the Timeout, so no
	// call races a loaded machine. nock's own delay is on the wall clock, never reached while a test runs.
	const requestOptions = { timeout: 1 };
	beforeEach(() =>
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date'] }),
	);
	afterEach(() => {
		jest.useRealTimers();
		nock.abortPendingRequests();
	});
	const slowUpload = () =>
		nock(BASE)
			.post('/api_v2/upload_file')
			.delay(600_000)
			.reply(200, uploaded)
			.on('request', () => setImmediate(() => void jest.advanceTimersByTimeAsync(1000)));

	it('found at the second look: applied after a lost answer', async () => {
		sessionLogin(2);
		listing([]);
		slowUpload();
		listing([]);
		const waits: number[] = [];
		// The service finishes storing it while the node waits for its second look.
		jest.spyOn(secondLook, 'wait').mockImplementation(async (ms) => {
			waits.push(ms);
			listing([file('Late', 'report.pdf', 4)]);
			download('Late', 'ours');
		});
		const { out } = await upload('ours', 'report.pdf', {}, { requestOptions });
		expect(waits).toEqual([1000]);
		expect(out[0].json).toMatchObject({ hash: 'Late', outcome: 'applied-after-lost-answer' });
	});

	it('still not there at the second look: "may have been applied", not sent again', async () => {
		sessionLogin(2);
		listing([]);
		slowUpload();
		listing([]);
		listing([]);
		jest.spyOn(secondLook, 'wait').mockResolvedValue(undefined);
		const { out } = await upload('ours', 'report.pdf', {}, { requestOptions });
		expect(String(out[0].json.error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		expect(out[0].json.outcome).toBe('unknown');
		expect(nock.pendingMocks()).toEqual([]);
	});
});

describe('Replace Content after a lost answer: proven by content, not by the ETag', () => {
	const start = () => {
		sessionLogin();
		nock(BASE)
			.post('/api_v2/get_file_info')
			.reply(200, { hash: 'F', name: 'r.txt', parent_folder_hash: 'P' });
		nock(BASE).post('/api_v2/get_folder_info').reply(200, { hash: 'P', add_files_key: 'k' });
		nock(BASE).post('/api_v2/download_file').reply(200, 'old one', { ETag: '"v1"' });
		nock(BASE).post('/save_file.php').query(true).replyWithError(dropped());
	};
	const replace = () =>
		runStorage(
			{ resource: 'file', operation: 'replace', file: rl('F'), binaryPropertyName: 'data' },
			{ binary: { content: 'new one' }, continueOnFail: true },
		);

	it("a changed ETag over another client's bytes is no proof: may have been applied, not sent again", async () => {
		start();
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'F', name: 'r.txt', size: 7 });
		nock(BASE).post('/api_v2/download_file').reply(200, 'theirs!', { ETag: '"v2"' });
		nock(BASE).post('/api_v2/download_file').reply(200, 'theirs!', { ETag: '"v2"' });
		const { out } = await replace();
		expect(out[0].json).toMatchObject({ outcome: 'unknown' });
		expect(String(out[0].json.error)).toMatch(/another client may have replaced it/);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('our bytes stored now: applied after a lost answer, though the ETag did not change', async () => {
		start();
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'F', name: 'r.txt', size: 7 });
		nock(BASE).post('/api_v2/download_file').reply(200, 'new one', { ETag: '"v1"' });
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'F', name: 'r.txt', size: 7 });
		const { out } = await replace();
		expect(out[0].json).toMatchObject({ replaced: true, outcome: 'applied-after-lost-answer' });
		expect(nock.pendingMocks()).toEqual([]);
	});
});

describe('Rename from a " (n)" variant of the target, answer lost', () => {
	it('"report (1).pdf" → "report.pdf" still named so: sent again, not reported done', async () => {
		sessionLogin();
		const info = { hash: 'F', name: 'report (1).pdf' };
		nock(BASE).post('/api_v2/get_file_info').reply(200, info);
		nock(BASE).post('/api_v2/rename_file').replyWithError(dropped());
		nock(BASE).post('/api_v2/get_file_info').reply(200, info);
		const again = nock(BASE)
			.post('/api_v2/rename_file')
			.reply(200, { file_hash: 'F', file_name: 'report.pdf' });
		const { out } = await runStorage({
			resource: 'file',
			operation: 'rename',
			file: rl('F'),
			name: 'report.pdf',
		});
		expect(again.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({ name: 'report.pdf', outcome: 'applied', httpCode: 200 });
	});
});

describe('Delete after a lost answer: a 405 alone is no proof', () => {
	const del = () =>
		runStorage({ resource: 'file', operation: 'delete', file: rl('F') }, { continueOnFail: true });

	it('405 from the info call, yet the folder still lists it: may have been applied', async () => {
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'F', parent_folder_hash: 'P' });
		nock(BASE).post('/api_v2/delete_file').reply(500, '');
		nock(BASE).post('/api_v2/get_file_info').reply(405, '');
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=P/)
			.reply(200, [file('F', 'a.txt', 1)]);
		const { out } = await del();
		expect(String(out[0].json.error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		expect(out[0].json.outcome).toBe('unknown');
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('405 and absent from the listing of its folder: deleted, applied after a lost answer', async () => {
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'F', parent_folder_hash: 'P' });
		nock(BASE).post('/api_v2/delete_file').replyWithError(dropped());
		nock(BASE).post('/api_v2/get_file_info').reply(405, '');
		nock(BASE)
			.post('/api_v2/get_folder_content', /folder_hash=P/)
			.reply(200, []);
		const { out } = await del();
		expect(out[0].json).toEqual({
			hash: 'F',
			deleted: true,
			outcome: 'applied-after-lost-answer',
		});
	});

	it('a refusal by status is not applied, with its httpCode on the error item', async () => {
		nock(BASE).post('/api_v2/get_file_info').reply(405, '');
		nock(BASE).post('/api_v2/delete_file').reply(403, '');
		const { out } = await del();
		expect(out[0].json).toMatchObject({ outcome: 'not-applied', httpCode: 403 });
	});
});

describe('Outcome on error items of writes', () => {
	it('bad input refused before any request: not-applied', async () => {
		const { out } = await runStorage(
			{ resource: 'file', operation: 'upload', folder: rl('ROOT'), binaryPropertyName: 'data' },
			{ binary: { content: 'x' }, continueOnFail: true },
		);
		expect(out[0].json).toMatchObject({ outcome: 'not-applied' });
	});

	it('a read has no outcome', async () => {
		sessionLogin();
		nock(BASE).post('/api_v2/get_file_info').reply(403, '');
		const { out } = await runStorage(
			{ resource: 'file', operation: 'get', file: rl('F') },
			{ continueOnFail: true },
		);
		expect(out[0].json.error).toBeDefined();
		expect(out[0].json.outcome).toBeUndefined();
	});
});
