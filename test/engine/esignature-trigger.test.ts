/**
 * The Cloud Storage E-Signature Trigger through n8n-core's poll context against the sandbox. Signatures are
 * added through the sandbox's control hook, as if a signer had finished; the service clock is the test's.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import type { Folder, StoredFile } from '../sandbox/types';
import { PACKAGE_NAME, runPoll, runWorkflow } from './harness';

jest.setTimeout(60_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let clock = Date.UTC(2031, 4, 6, 7, 8, 9);
const tick = (seconds = 1) => (clock += seconds * 1000);
beforeAll(async () => (sandbox = await startSandbox({ port: 0, now: () => clock })));
afterAll(async () => await sandbox?.close());
beforeEach(() => sandbox.faults.clear());

const TRIGGER = `${PACKAGE_NAME}.cloudStorageESignatureTrigger`;
const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: 'demo',
		accessToken: DEMO_ACCOUNT.token,
	},
});
const demo = () => sandbox.store.accountByLogin('demo')!;
let folderCount = 0;
const newFolder = (parent: Folder = sandbox.store.rootOf(demo())) =>
	sandbox.store.createFolder(demo(), parent, `signed ${++folderCount}`, 'PRIVATE');
const addFiles = (parent: Folder, count: number) =>
	sandbox.store.bulkCreate(demo(), {
		folders: 0,
		filesPerFolder: count,
		parent,
		filePrefix: 'contract ',
	}).files;
const locator = (value: string) => ({ __rl: true, mode: 'id', value });
const workflow = (parameters: INodeParameters) => ({
	nodes: [{ name: 'Trigger', type: TRIGGER, parameters }],
	connections: {},
});

function poller(parameters: INodeParameters) {
	let staticData: IDataObject = {};
	return {
		async next(): Promise<INodeExecutionData[]> {
			const result = await runPoll(workflow(parameters), {
				credentials: credentials(),
				staticData,
			});
			staticData = result.staticData;
			return result.items;
		},
		staticData: () => staticData,
	};
}

/** The control hook: a signature record as if the signer had finished now (or at the given time). */
async function sign(file: StoredFile, signer: string, at?: string): Promise<void> {
	const response = await fetch(`${sandbox.baseUrl}/__sandbox/signatures`, {
		method: 'POST',
		body: JSON.stringify({
			file_hash: file.hash,
			signer_name: signer,
			...(at ? { signing_timestamp: at } : {}),
		}),
	});
	expect(response.status).toBe(200);
}
const summary = (items: INodeExecutionData[]) =>
	items.map(({ json }) => `${String(json.file_name)} ${String(json.signer_name)}`);
const actions = () => sandbox.requests.list().map((entry) => entry.action ?? entry.path);

describe('E-Signature Trigger', () => {
	it('records on activation, then reports each signature once with the file, signer, time and link', async () => {
		const folder = newFolder();
		const [a, b] = addFiles(folder, 2);
		await sign(a, 'Old Signer');
		const trigger = poller({ watch: 'folder', folder: locator(folder.hash) });
		expect(await trigger.next()).toEqual([]);
		tick();
		await sign(a, 'Ann Signer');
		await sign(b, 'Bob Signer');
		const items = await trigger.next();
		expect(summary(items)).toEqual([`${a.name} Ann Signer`, `${b.name} Bob Signer`]);
		expect(items[0].json).toMatchObject({
			event: 'signed',
			file_hash: a.hash,
			signing_timestamp: expect.stringMatching(/^2031-05-06 07:08:1\d$/),
			link: `${sandbox.webUrl}/f/${a.hash}`,
		});
		// The same signer again, in the same second as the last poll: a distinct record.
		await sign(a, 'Ann Signer');
		expect(summary(await trigger.next())).toEqual([`${a.name} Ann Signer`]);
		expect(await trigger.next()).toEqual([]);
	});

	it('asks one listing plus one get_esignatures per file, from the last signing time seen', async () => {
		const folder = newFolder();
		const files = addFiles(folder, 5);
		await sign(files[0], 'Ann');
		const trigger = poller({
			watch: 'folder',
			folder: locator(folder.hash),
			includeSubfolders: false,
		});
		await trigger.next();
		sandbox.requests.clear();
		expect(await trigger.next()).toEqual([]);
		const calls = actions();
		expect(calls.filter((action) => action === 'get_esignatures')).toHaveLength(5);
		expect(
			calls.filter((action) => action !== 'get_esignatures' && action !== 'authenticate_user'),
		).toEqual(['get_folder_content']);
		const withDate = sandbox.requests
			.list()
			.filter(
				(entry) =>
					entry.action === 'get_esignatures' && JSON.stringify(entry).includes('from_date'),
			);
		expect(withDate).toHaveLength(1);
	});

	it('reports the signatures of a file that appears in the watched folder, and watches subfolders', async () => {
		const folder = newFolder();
		const trigger = poller({ watch: 'folder', folder: locator(folder.hash) });
		expect(await trigger.next()).toEqual([]);
		const [late] = addFiles(newFolder(folder), 1);
		await sign(late, 'Cy');
		const items = await trigger.next();
		expect(summary(items)).toEqual([`${late.name} Cy`]);
		expect(items[0].json.file_path).toMatch(/^signed \d+\/contract /);
	});

	it('watches a list of files and downloads the signed file', async () => {
		const [a, b] = addFiles(newFolder(), 2);
		const trigger = poller({
			watch: 'files',
			files: `${a.hash}\n${sandbox.webUrl}/f/${b.hash}`,
			download: true,
		});
		expect(await trigger.next()).toEqual([]);
		tick();
		await sign(b, 'Dee');
		const result = await runPoll(
			workflow({
				watch: 'files',
				files: `${a.hash}\n${sandbox.webUrl}/f/${b.hash}`,
				download: true,
			}),
			{
				credentials: credentials(),
				staticData: trigger.staticData(),
			},
		);
		expect(summary(result.items)).toEqual([`${b.name} Dee`]);
		expect(result.items[0].binary?.data).toMatchObject({ fileName: b.name });
	});

	it('a failed poll keeps the state: the signature comes out once, on the next successful poll', async () => {
		const folder = newFolder();
		const [a, b] = addFiles(folder, 2);
		const trigger = poller({ watch: 'folder', folder: locator(folder.hash) });
		await trigger.next();
		tick();
		await sign(a, 'Eve');
		await sign(b, 'Finn');
		const before = JSON.stringify(trigger.staticData());
		sandbox.faults.add({ match: { path: 'get_esignatures' }, fault: '500', times: 30 } as never);
		await expect(trigger.next()).rejects.toThrow();
		expect(JSON.stringify(trigger.staticData())).toBe(before);
		sandbox.faults.clear();
		expect(summary(await trigger.next())).toEqual([`${a.name} Eve`, `${b.name} Finn`]);
		expect(await trigger.next()).toEqual([]);
	});

	it('fails clearly above the cap of watched files, keeping the state', async () => {
		const folder = newFolder();
		addFiles(folder, 3);
		const trigger = poller({ watch: 'folder', folder: locator(folder.hash), maxFiles: 2 });
		await expect(trigger.next()).rejects.toThrow(/3 files are watched, more than the 2 allowed/);
		expect(trigger.staticData()).toEqual({});
	});

	it('Fetch Test Event returns the newest signatures and stores nothing', async () => {
		const folder = newFolder();
		const [a] = addFiles(folder, 1);
		await sign(a, 'First', '2031-01-01 00:00:00');
		await sign(a, 'Second', '2031-01-02 00:00:00');
		const result = await runWorkflow(workflow({ watch: 'folder', folder: locator(folder.hash) }), {
			credentials: credentials(),
		});
		expect(result.error).toBeUndefined();
		expect(result.nodeOutput('Trigger').map(({ json }) => json.signer_name)).toEqual([
			'Second',
			'First',
		]);
	});
});
