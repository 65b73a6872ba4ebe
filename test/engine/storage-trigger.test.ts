/**
 * The Cloud Storage Trigger through n8n-core's poll context against the sandbox: consecutive polls carry
 * the static data the previous one left, exactly as an active workflow does. Every change must come out
 * once and only once: bursts in one second, a poll failing half-way, renames, replacements, moves,
 * deletions, nested folders, a service clock years away from n8n's.
 */
import { BinaryDataService } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { trashFile, trashFolder } from '../sandbox/trash';
import type { Folder, StoredFile } from '../sandbox/types';
import { LAG_SECONDS } from '../../nodes/shared/storage/changes';
import { Container } from './harness/core-container';
import { PACKAGE_NAME, runPoll, runWorkflow } from './harness';

jest.setTimeout(60_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
// The service's clock: years ahead of n8n's and only moved by the tests, so "same second" is exact.
let clock = Date.UTC(2031, 4, 6, 7, 8, 9);
const tick = (seconds = 1) => (clock += seconds * 1000);
beforeAll(async () => (sandbox = await startSandbox({ port: 0, now: () => clock })));
afterAll(async () => await sandbox?.close());

const TRIGGER = `${PACKAGE_NAME}.cloudStorageTrigger`;
const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: 'demo',
		accessToken: DEMO_ACCOUNT.token,
	},
});
const demo = () => sandbox.store.accountByLogin('demo')!;
const root = () => sandbox.store.rootOf(demo());
let folderCount = 0;
const newFolder = (parent: Folder = root(), name = `watch ${++folderCount}`) =>
	sandbox.store.createFolder(demo(), parent, name, 'PRIVATE');
const addFiles = (parent: Folder, count: number, prefix = 'file ') =>
	sandbox.store.bulkCreate(demo(), {
		folders: 0,
		filesPerFolder: count,
		parent,
		filePrefix: prefix,
	}).files;

function workflow(parameters: INodeParameters) {
	return { nodes: [{ name: 'Trigger', type: TRIGGER, parameters }], connections: {} };
}

/**
 * Consecutive polls of one active workflow: static data carried over, kept as it was when a poll fails.
 * With `savedCredentials`, the session n8n saved in the credential is carried over too.
 */
function poller(parameters: INodeParameters, savedCredentials?: ReturnType<typeof credentials>) {
	let staticData: IDataObject = {};
	return {
		async next(): Promise<INodeExecutionData[]> {
			const result = await runPoll(workflow(parameters), {
				credentials: savedCredentials ?? credentials(),
				staticData,
			});
			staticData = result.staticData;
			return result.items;
		},
		staticData: () => staticData,
	};
}
const summary = (items: INodeExecutionData[]) =>
	items.map(({ json }) => `${String(json.event)} ${String(json.path ?? json.previous_path)}`);
const locator = (value: string) => ({ __rl: true, mode: 'id', value });

/** Requests the sandbox saw while `run` ran, as "api action" strings. */
async function requestsDuring<T>(
	run: () => Promise<T>,
): Promise<{ result: T; requests: string[] }> {
	sandbox.requests.clear();
	const result = await run();
	return { result, requests: sandbox.requests.list().map((r) => `${r.api} ${r.action ?? r.path}`) };
}

async function replaceContent(folder: Folder, file: StoredFile, content: string) {
	const body = new FormData();
	body.append('user', 'demo');
	body.append('user_access_token', DEMO_ACCOUNT.token);
	body.append('file', new Blob([content]), file.name);
	// As documented: up_id, do and replace_file_hash in the query, the file as multipart.
	const query = new URLSearchParams({
		up_id: folder.hash,
		do: 'update',
		replace_file_hash: file.hash,
	});
	const response = await fetch(`${sandbox.baseUrl}/save_file.php?${query}`, {
		method: 'POST',
		body,
	});
	expect(response.status).toBe(200);
}

describe('created and updated events (cursor state)', () => {
	it('reports a burst of 500 files in the same second exactly once, across a poll inside that second', async () => {
		const watched = newFolder();
		const trigger = poller({
			events: ['fileCreated', 'fileUpdated'],
			folder: locator(watched.hash),
		});
		expect(await trigger.next()).toEqual([]);
		tick();
		addFiles(watched, 300, 'first ');
		const { result: first, requests } = await requestsDuring(() => trigger.next());
		addFiles(watched, 200, 'second '); // same second as the previous poll
		const second = await trigger.next();
		tick(5);
		const third = await trigger.next();
		expect(first).toHaveLength(300);
		expect(second).toHaveLength(200);
		expect(third).toEqual([]);
		const hashes = [...first, ...second].map((item) => item.json.hash);
		expect(new Set(hashes).size).toBe(500);
		expect([...first, ...second].every((item) => item.json.event === 'fileCreated')).toBe(true);
		// One folder info (for the tree's edit key) and one recursive tree, however many folders.
		expect(requests.filter((r) => !r.includes('authenticate_user'))).toEqual([
			'v2 get_folder_info',
			'v1 get_upload_tree',
		]);
		expect(JSON.stringify(trigger.staticData()).length).toBeLessThan(40_000);
	});

	it('keeps polling when the saved session expires: n8n logs in again once and the tree is read', async () => {
		const watched = newFolder();
		const saved = credentials();
		const trigger = poller({ events: ['fileCreated'], folder: locator(watched.hash) }, saved);
		expect(await trigger.next()).toEqual([]);
		tick();
		const [added] = addFiles(watched, 1, 'after expiry ');
		sandbox.sessions.expireAll();
		const { result, requests } = await requestsDuring(() => trigger.next());
		expect(result.map((item) => item.json.hash)).toEqual([added.hash]);
		expect(requests).toEqual([
			'v2 get_folder_info',
			'v1 get_upload_tree',
			'auth authenticate_user',
			'v1 get_upload_tree',
		]);
	});

	it('a poll failing half-way reports nothing and the next one reports everything once', async () => {
		const watched = newFolder();
		const trigger = poller({
			events: ['fileCreated'],
			folder: locator(watched.hash),
			download: true,
		});
		await trigger.next();
		tick();
		addFiles(watched, 3);
		// The tree arrives, the first download succeeds, the second keeps failing: the poll fails.
		sandbox.faults.add({ match: { path: 'download_file' }, fault: '429', retryAfter: 0, times: 6 });
		await expect(trigger.next()).rejects.toThrow();
		sandbox.faults.clear();
		// The retry of the whole poll: every file once, with content.
		const items = await trigger.next();
		expect(summary(items)).toEqual([
			'fileCreated file 1.txt',
			'fileCreated file 2.txt',
			'fileCreated file 3.txt',
		]);
		const bytes = await Container.get(BinaryDataService).getAsBuffer(items[1].binary!.data);
		expect(bytes.toString()).toBe(`${watched.name}/file 2.txt\n`);
		expect(await trigger.next()).toEqual([]);
	});

	it('a failed tree request leaves the state untouched', async () => {
		const watched = newFolder();
		const trigger = poller({ events: ['fileCreated'], folder: locator(watched.hash) });
		await trigger.next();
		const before = JSON.stringify(trigger.staticData());
		tick();
		addFiles(watched, 2);
		sandbox.faults.add({
			match: { path: 'get_upload_tree' },
			fault: '429',
			retryAfter: 0,
			times: 5,
		});
		await expect(trigger.next()).rejects.toThrow(/429|rate|many/i);
		expect(JSON.stringify(trigger.staticData())).toBe(before);
		sandbox.faults.clear();
		expect(await trigger.next()).toHaveLength(2);
	});

	it('reports replaced content and renames as updated, in nested folders, with a filter', async () => {
		const watched = newFolder();
		const sub = newFolder(watched, 'Sub');
		const [doc] = addFiles(sub, 1, 'report ');
		const trigger = poller({
			events: ['fileCreated', 'fileUpdated', 'folderCreated'],
			folder: locator(watched.hash),
			filters: { extensions: 'txt' },
		});
		await trigger.next();
		tick(2);
		await replaceContent(sub, doc, 'new content');
		const deeper = newFolder(sub, 'Deeper');
		addFiles(deeper, 1, 'deep ');
		expect(summary(await trigger.next())).toEqual([
			'folderCreated Sub/Deeper',
			'fileCreated Sub/Deeper/deep 1.txt',
			'fileUpdated Sub/report 1.txt',
		]);
		tick(2);
		sandbox.store.renameFile(doc, 'renamed.txt');
		sandbox.store.renameFile(sandbox.store.filesIn(deeper.id)[0], 'skip.pdf');
		expect(summary(await trigger.next())).toEqual(['fileUpdated Sub/renamed.txt']);
		expect(await trigger.next()).toEqual([]);
	});
});

describe('all events (snapshot state)', () => {
	const ALL = ['fileCreated', 'fileUpdated', 'folderCreated', 'fileDeleted', 'fileMoved'];

	it('reports renames, replacements, moves in/out/within, deletions and folder deletions exactly once', async () => {
		const outside = newFolder(root(), 'outside');
		const watched = newFolder();
		const a = newFolder(watched, 'A');
		const b = newFolder(a, 'B');
		const [one, two, three, four] = addFiles(a, 4);
		const [inB] = addFiles(b, 1, 'in-b ');
		const [stranger] = addFiles(outside, 1, 'stranger ');
		// Created well before the newest change the trigger has seen: coming into view later, it was moved
		// in, not created. (Only service timestamps are compared, so "before" means before that change.)
		tick(LAG_SECONDS + 60);
		const [recent] = addFiles(b, 1, 'recent ');
		const trigger = poller({ events: ALL, folder: locator(watched.hash) });
		expect(await trigger.next()).toEqual([]);

		tick(3);
		sandbox.store.renameFile(one, 'one renamed.txt');
		await replaceContent(a, two, 'replaced');
		sandbox.store.moveFile(three, b);
		sandbox.store.moveFile(four, outside);
		sandbox.store.moveFile(stranger, a);
		const items = await trigger.next();
		// Same second for all: ordered by path, the moved-out file by its last path inside.
		expect(summary(items)).toEqual([
			'fileMoved A/B/file 3.txt',
			'fileUpdated A/file 2.txt',
			'fileMoved A/file 4.txt',
			'fileUpdated A/one renamed.txt',
			'fileMoved A/stranger 1.txt',
		]);
		const byHash = new Map(items.map((item) => [item.json.hash, item.json]));
		expect(byHash.get(one.hash)).toMatchObject({
			event: 'fileUpdated',
			change: 'renamed',
			previous_name: 'file 1.txt',
			name: 'one renamed.txt',
		});
		expect(byHash.get(two.hash)).toMatchObject({ event: 'fileUpdated', change: 'content' });
		expect(byHash.get(three.hash)).toMatchObject({
			event: 'fileMoved',
			moved: 'within',
			previous_parent_folder_hash: a.hash,
			parent_folder_hash: b.hash,
			parent_folder_name: 'B',
		});
		expect(byHash.get(four.hash)).toMatchObject({
			event: 'fileMoved',
			moved: 'out',
			previous_path: 'A/file 4.txt',
			parent_folder_hash: outside.hash,
		});
		expect(byHash.get(stranger.hash)).toMatchObject({
			event: 'fileMoved',
			moved: 'in',
			path: 'A/stranger 1.txt',
		});
		expect(items).toHaveLength(5);

		tick(3);
		trashFile(sandbox.store, two);
		trashFolder(sandbox.store, b);
		const deleted = await trigger.next();
		expect(summary(deleted)).toEqual([
			'fileDeleted A/B/file 3.txt',
			'fileDeleted A/B/in-b 1.txt',
			'fileDeleted A/B/recent 1.txt',
			'fileDeleted A/file 2.txt',
		]);
		expect(deleted.map((item) => item.json.hash).sort()).toEqual(
			[three.hash, inB.hash, recent.hash, two.hash].sort(),
		);
		expect(await trigger.next()).toEqual([]);
	});

	it('watching one folder without subfolders: V2 listing, a move into a subfolder is a move out', async () => {
		const watched = newFolder();
		const sub = newFolder(watched, 'Sub');
		const [x, y] = addFiles(watched, 2);
		const trigger = poller({
			events: ALL,
			folder: locator(watched.hash),
			includeSubfolders: false,
		});
		await trigger.next();
		tick();
		sandbox.store.moveFile(x, sub);
		trashFile(sandbox.store, y);
		addFiles(watched, 1, 'new ');
		const { result, requests } = await requestsDuring(() => trigger.next());
		expect(summary(result)).toEqual([
			'fileMoved file 1.txt',
			'fileCreated new 1.txt',
			'fileDeleted file 2.txt',
		]);
		expect(result[0].json).toMatchObject({
			hash: x.hash,
			moved: 'out',
			parent_folder_hash: sub.hash,
			previous_path: 'file 1.txt',
		});
		expect(result[1].json).toMatchObject({
			size: expect.any(Number),
			timestamp_uploaded: Math.floor(clock / 1000),
		});
		// The listing, plus one info request per file that vanished while its folder stayed.
		expect(requests.filter((r) => !r.includes('authenticate_user'))).toEqual([
			'v2 get_folder_content',
			'v2 get_file_info',
			'v2 get_file_info',
		]);
	});

	it('fails with an explanation above the tracked-items cap, and keeps its state', async () => {
		const watched = newFolder();
		addFiles(watched, 5);
		const trigger = poller({ events: ALL, folder: locator(watched.hash), maxTrackedItems: 10 });
		await trigger.next();
		const before = JSON.stringify(trigger.staticData());
		addFiles(watched, 6, 'more ');
		await expect(trigger.next()).rejects.toThrow(
			'The watched folder holds 11 files and folders, more than the 10 tracked',
		);
		expect(JSON.stringify(trigger.staticData())).toBe(before);
	});
});

describe('manual "Fetch Test Event"', () => {
	it('returns the most recent items with their content, without needing earlier polls', async () => {
		const watched = newFolder();
		addFiles(watched, 12);
		tick();
		const result = await runWorkflow(
			workflow({ events: ['fileCreated'], folder: locator(watched.hash), download: true }),
			{
				credentials: credentials(),
			},
		);
		expect(result.error).toBeUndefined();
		const items = result.nodeOutput('Trigger');
		expect(items).toHaveLength(10);
		expect(items[0].json).toMatchObject({
			event: 'fileCreated',
			type: 'file',
			link: expect.stringContaining('/f/'),
		});
		expect((await result.readBinary(items[0])).toString()).toMatch(/\.txt\n$/);
	});

	it('explains an empty folder', async () => {
		const result = await runWorkflow(
			workflow({ events: ['fileCreated'], folder: locator(newFolder().hash) }),
			{ credentials: credentials() },
		);
		expect(result.error?.message).toMatch(/Nothing matching/);
	});
});
