/**
 * Request shapes and error paths of the Cloud Storage Trigger through n8n's poll context, with nock as the
 * service: what one poll sends for each scope, that secrets stay in bodies, and what reaches the output.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPoll } from '../harness';
import { BASE, form, rl, TOKEN, unexpectedRequests, WEB } from '../../unit/storage/run-storage';
import { withDurableCursors } from '../../unit/durable-env';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const TRIGGER = 'n8n-nodes-cloud-storage.cloudStorageTrigger';
const USER_DATA = {
	root_upload_hash: 'ROOTHASH1',
	root_upload_key: 'rootkey-secret',
	UserName: 'demo',
};

async function poll(parameters: INodeParameters, staticData: IDataObject = {}) {
	return await runPoll(
		{ nodes: [{ name: 'Trigger', type: TRIGGER, parameters }], connections: {} },
		{ credentials: { cloudStorageTokenApi: { ...TOKEN } }, staticData },
	);
}

/** The session login of the token credential and the account data lookup: both authenticate_user. */
function authenticator() {
	return nock(BASE)
		.post('/api/authenticate_user.php')
		.times(2)
		.reply(200, { Success: true, SessionID: 's1', UserData: USER_DATA });
}

function tree(children: object[]) {
	return {
		error: null,
		data: {
			Type: 'folder',
			ID: 1,
			Hash: 'ROOTHASH1',
			Name: 'ROOT',
			ParentID: 0,
			Children: children.length ? children : false,
		},
	};
}
const folderNode = (hash: string, name: string, children: object[] = []) => ({
	Type: 'folder',
	Hash: hash,
	Name: name,
	ParentID: 1,
	DeleteKey: 'k',
	CreatedDate: '2030-01-01 10:00:00',
	ModifiedDate: '2030-01-01 10:00:00',
	Children: children.length ? children : false,
});
const fileNode = (hash: string, name: string, modified = '2030-01-01 10:00:00') => ({
	Type: 'file',
	Hash: hash,
	Name: name,
	DeleteKey: 'file-key-secret',
	CreatedDate: '2030-01-01 10:00:00',
	ModifiedDate: modified,
	Children: false,
});

describe('ROOT with subfolders', () => {
	it('GETs Hash and the ROOT edit key in the query of one tree request, as documented; the first poll reports nothing', async () => {
		authenticator();
		let sent: Record<string, string> = {};
		let cookie = '';
		const scope = nock(BASE)
			.get('/api/get_upload_tree.php')
			.query((query) => ((sent = query as Record<string, string>), true))
			.reply(function () {
				cookie = String(this.req.headers.cookie ?? '');
				return [200, tree([folderNode('F1', 'Docs', [fileNode('a1', 'a.pdf')])])];
			});
		const result = await poll({ events: ['fileCreated'], folder: rl('ROOT') });
		expect(scope.isDone()).toBe(true);
		expect(sent).toEqual({ Hash: 'ROOTHASH1', DeleteKey: 'rootkey-secret' });
		// A GET carries no body: the credential goes as the session cookie, never in the URL.
		expect(cookie).toMatch(/^PHPSESSID=/);
		expect(result.emitted).toBeNull();
		expect(result.nodeStaticData.state).toMatchObject({
			v: 1,
			scope: 'ROOTHASH1|tree|window',
			cursor: Date.UTC(2030, 0, 1, 10) / 1000,
		});
	});

	it('reports a new file with its parent, path and links; keys never reach the output', async () => {
		authenticator();
		nock(BASE)
			.get('/api/get_upload_tree.php')
			.query(true)
			.reply(200, tree([folderNode('F1', 'Docs', [fileNode('a1', 'a.pdf')])]));
		const first = await poll({ events: ['fileCreated'], folder: rl('ROOT') });
		authenticator();
		nock(BASE)
			.get('/api/get_upload_tree.php')
			.query(true)
			.reply(
				200,
				tree([
					folderNode('F1', 'Docs', [
						fileNode('a1', 'a.pdf'),
						fileNode('b2', 'b.pdf', '2030-01-01 10:00:00'),
					]),
				]),
			);
		const second = await poll({ events: ['fileCreated'], folder: rl('ROOT') }, first.staticData);
		expect(second.items.map((item) => item.json)).toEqual([
			{
				event: 'fileCreated',
				eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
				type: 'file',
				hash: 'b2',
				name: 'b.pdf',
				path: 'Docs/b.pdf',
				timestamp_uploaded: Date.UTC(2030, 0, 1, 10) / 1000,
				timestamp_last_modified: Date.UTC(2030, 0, 1, 10) / 1000,
				parent_folder_hash: 'F1',
				parent_folder_name: 'Docs',
				parent_folder_link: `${WEB}/u/F1`,
				link: `${WEB}/f/b2`,
			},
		]);
		expect(JSON.stringify(second.items)).not.toMatch(/secret/);
		expect(JSON.stringify(second.staticData)).not.toMatch(/secret/);
	});

	it('names the refusal when the tree script answers an error object', async () => {
		authenticator();
		nock(BASE)
			.get('/api/get_upload_tree.php')
			.query(true)
			.reply(200, { error: 'Access denied', data: null });
		await expect(poll({ events: ['fileCreated'], folder: rl('ROOT') })).rejects.toThrow(
			'The service did not return the folder tree: Access denied',
		);
	});
});

describe('a folder by hash', () => {
	it('with subfolders: get_folder_info for the edit key, then the tree with it', async () => {
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 's1' });
		let info: Record<string, string> = {};
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_folder_info',
				(body) => ((info = form(new URLSearchParams(body).toString())), true),
			)
			.reply(200, { hash: 'Fx', name: 'Docs', delete_key: 'edit-secret' })
			.get('/api/get_upload_tree.php')
			.query((query) => ((sent = query as Record<string, string>), true))
			.reply(200, { error: null, data: { ...folderNode('Fx', 'Docs'), ParentID: 7 } });
		await poll({ events: ['fileCreated'], folder: rl('Fx') });
		expect(info).toMatchObject({ folder_hash: 'Fx' });
		expect(sent).toMatchObject({ Hash: 'Fx', DeleteKey: 'edit-secret' });
	});

	it('without subfolders: one get_folder_content; sizes and integer timestamps pass through', async () => {
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 's1' });
		const listing = (items: object[]) =>
			nock(BASE)
				.post('/api_v2/get_folder_content', (body) => body.folder_hash === 'Fx')
				.reply(200, items);
		listing([]);
		const first = await poll({
			events: ['fileCreated', 'folderCreated'],
			folder: rl('Fx'),
			includeSubfolders: false,
		});
		nock(BASE).post('/api/authenticate_user.php').reply(200, { Success: true, SessionID: 's1' });
		listing([
			{
				type: 'folder',
				hash: 'S1',
				name: 'Sub',
				size: 0,
				timestamp_uploaded: 100,
				timestamp_last_modified: 100,
				delete_key: 'x',
			},
			{
				type: 'file',
				hash: 'f1',
				name: 'a.txt',
				size: 12,
				timestamp_uploaded: 101,
				timestamp_last_modified: 101,
				delete_key: 'x',
			},
		]);
		const second = await poll(
			{ events: ['fileCreated', 'folderCreated'], folder: rl('Fx'), includeSubfolders: false },
			first.staticData,
		);
		expect(
			second.items.map((item) => [
				item.json.event,
				item.json.hash,
				item.json.size,
				item.json.timestamp_uploaded,
			]),
		).toEqual([
			['folderCreated', 'S1', 0, 100],
			['fileCreated', 'f1', 12, 101],
		]);
		expect(second.items[1].json).not.toHaveProperty('delete_key');
	});
});

describe('eventId', () => {
	const parameters = {
		events: ['fileCreated', 'fileUpdated', 'fileDeleted', 'fileMoved'],
		folder: rl('ROOT'),
	};
	async function pollTree(files: object[], staticData?: IDataObject) {
		authenticator();
		nock(BASE)
			.get('/api/get_upload_tree.php')
			.query(true)
			.reply(200, tree([folderNode('F1', 'Docs', files)]));
		// A deleted file of a listed folder is asked about once.
		nock(BASE).post('/api_v2/get_file_info').optionally().reply(405, {});
		return await poll(parameters, staticData);
	}
	const ids = (run: { items: Array<{ json: IDataObject }> }) =>
		run.items.map((item) => [item.json.event, item.json.hash, item.json.eventId]);

	it('is the same when the same static data is polled again (a crash before n8n kept the cursor), new for a later change', async () => {
		const first = await pollTree([fileNode('a1', 'a.pdf'), fileNode('d1', 'd.pdf')]);
		const changed = [
			fileNode('a1', 'a.pdf', '2030-01-01 10:05:00'),
			fileNode('n1', 'n.pdf', '2030-01-01 10:04:00'),
		];
		const second = await pollTree(changed, first.staticData);
		// n8n was killed before it kept the second poll's state: the next poll starts from the first one's.
		const replayed = await pollTree(changed, first.staticData);
		expect(ids(second)).toHaveLength(3);
		expect(ids(replayed)).toEqual(ids(second));
		expect(new Set(ids(second).map((entry) => entry[2])).size).toBe(3);
		const later = await pollTree(
			[
				fileNode('a1', 'a.pdf', '2030-01-01 10:09:00'),
				fileNode('n1', 'n.pdf', '2030-01-01 10:04:00'),
			],
			second.staticData,
		);
		const updatedAgain = ids(later);
		expect(updatedAgain).toEqual([['fileUpdated', 'a1', expect.any(String)]]);
		expect(ids(second).map((entry) => entry[2])).not.toContain(updatedAgain[0][2]);
	});
});

describe("with n8n's durable poll cursors", () => {
	it('the first poll records the state and emits one empty batch, so n8n commits the state it staged', async () => {
		authenticator();
		nock(BASE)
			.get('/api/get_upload_tree.php')
			.query(true)
			.reply(200, tree([folderNode('F1', 'Docs', [fileNode('a1', 'a.pdf')])]));
		const first = await withDurableCursors(
			async () => await poll({ events: ['fileCreated'], folder: rl('ROOT') }),
		);
		expect(first.emitted).toEqual([[]]);
		expect(first.nodeStaticData.state).toMatchObject({ v: 1, scope: 'ROOTHASH1|tree|window' });
	});
});

describe('content download', () => {
	async function secondPoll(parameters: INodeParameters, download: (scope: nock.Scope) => void) {
		nock(BASE)
			.post('/api/authenticate_user.php')
			.times(2)
			.reply(200, { Success: true, SessionID: 's1' });
		nock(BASE).post('/api_v2/get_folder_content').reply(200, []);
		const first = await poll(parameters);
		const scope = nock(BASE)
			.post('/api_v2/get_folder_content')
			.reply(200, [
				{
					type: 'file',
					hash: 'f1',
					name: 'big.bin',
					size: 3_000_000,
					timestamp_uploaded: 5,
					timestamp_last_modified: 5,
				},
			]);
		download(scope);
		return await poll(parameters, first.staticData);
	}
	const base = {
		events: ['fileCreated'],
		folder: rl('Fx'),
		includeSubfolders: false,
		download: true,
	};

	it('streams the file into the binary field', async () => {
		const result = await secondPoll({ ...base, maxDownloadMb: 5 }, (scope) =>
			scope
				.post('/api_v2/download_file', (body) => body.file_hash === 'f1')
				.reply(200, Buffer.alloc(3_000_000, 7), {
					'Content-Type': 'application/octet-stream',
					'Content-Length': '3000000',
				}),
		);
		expect(result.items[0].binary?.data).toMatchObject({
			fileName: 'big.bin',
			mimeType: 'application/octet-stream',
		});
	});

	it('skips content above the size limit and says so', async () => {
		const result = await secondPoll({ ...base, maxDownloadMb: 1 }, (scope) =>
			scope
				.post('/api_v2/download_file')
				.reply(200, Buffer.alloc(3_000_000), { 'Content-Length': '3000000' }),
		);
		expect(result.items[0].binary).toBeUndefined();
		expect(result.items[0].json.download_skipped).toBe(
			'larger than the size limit (3000000 bytes)',
		);
	});

	it('reports the event without content when the file is gone by the time of the download', async () => {
		const result = await secondPoll(base, (scope) =>
			scope.post('/api_v2/download_file').reply(405, ''),
		);
		expect(result.items[0].json).toMatchObject({
			event: 'fileCreated',
			download_skipped: 'the file is no longer available (status 405)',
		});
	});
});

describe('bad settings', () => {
	it('fails before any request without an event', async () => {
		const seen = unexpectedRequests();
		await expect(poll({ events: [], folder: rl('ROOT') })).rejects.toThrow('No event selected');
		expect(seen).toEqual([]);
	});

	it('fails before any request with a malformed folder hash', async () => {
		nock(BASE)
			.post('/api/authenticate_user.php')
			.optionally()
			.reply(200, { Success: true, SessionID: 's1' });
		const seen = unexpectedRequests();
		await expect(poll({ events: ['fileCreated'], folder: rl('a b/c') })).rejects.toThrow(
			'is not a folder hash',
		);
		expect(seen).toEqual([]);
	});
});
