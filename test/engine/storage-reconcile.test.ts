/**
 * Writes whose answer is lost, through n8n's engine against the sandbox, in the situations that fool a
 * reconciling read: the service's clock ten minutes behind n8n's, an older file of the same name and size,
 * a watermark that changes the stored size, a folder the path script matched in another letter case.
 * Each write ends applied exactly once, or is sent again only when it did not land.
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { createFolder, uploadOk } from '../unit/sandbox/helpers';
import { chain, type NodeSpec, PACKAGE_NAME, runWorkflow } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
/** The service's clock relative to n8n's, in milliseconds. */
let serviceOffsetMs = -600_000;
beforeAll(
	async () => (sandbox = await startSandbox({ port: 0, now: () => Date.now() + serviceOffsetMs })),
);
afterAll(async () => await sandbox?.close());
beforeEach(() => {
	sandbox.reset();
	serviceOffsetMs = -600_000;
});

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: DEMO_ACCOUNT.username,
		accessToken: DEMO_ACCOUNT.token,
	},
});

async function storage(
	parameters: NodeSpec['parameters'],
	file?: { content: string; fileName: string; mimeType?: string },
) {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
	];
	if (file)
		nodes.push({
			name: 'File',
			type: 'engine-test.binaryFixture',
			parameters: { ...file, mimeType: file.mimeType ?? 'text/plain' },
		});
	nodes.push({ name: 'Storage', type: `${PACKAGE_NAME}.cloudStorage`, parameters });
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: credentials() },
	);
	return { items: result.nodeOutput('Storage').map((item) => item.json), error: result.error };
}

const filesIn = (folderHash: string) =>
	sandbox.store.filesIn(sandbox.store.folder(folderHash)!.id).map((file) => file.hash);
const upload = (folderHash: string, fileName: string, options = {}) =>
	storage(
		{
			resource: 'file',
			operation: 'upload',
			folder: rl(folderHash),
			binaryPropertyName: 'data',
			options,
		},
		{ content: 'same bytes', fileName, mimeType: 'image/png' },
	);

it('upload applied but its answer lost, service clock ten minutes behind: found, not uploaded twice', async () => {
	const folder = await createFolder(sandbox);
	sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-after', times: 1 });
	const { items, error } = await upload(folder.folder_hash, 'report.png');
	expect(error).toBeUndefined();
	expect(filesIn(folder.folder_hash)).toEqual([items[0].hash]);
});

it('upload lost before it arrived, an older file of the same name and size there: uploaded, the older one not adopted', async () => {
	const folder = await createFolder(sandbox);
	serviceOffsetMs = -60_000; // a minute before, by the service's clock
	const older = await uploadOk(sandbox, folder.folder_hash, 'report.png', 'same bytes');
	serviceOffsetMs = 0;
	sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-before', times: 1 });
	const { items, error } = await upload(folder.folder_hash, 'report.png');
	expect(error).toBeUndefined();
	expect(items[0].hash).not.toBe(older.file_hash);
	expect(filesIn(folder.folder_hash)).toEqual([older.file_hash, items[0].hash]);
});

it('watermarked upload applied but its answer lost (the stored size differs): found, not uploaded twice', async () => {
	const folder = await createFolder(sandbox);
	sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-after', times: 1 });
	const { items, error } = await upload(folder.folder_hash, 'photo.png', {
		watermarkText: 'DRAFT',
	});
	expect(error).toBeUndefined();
	expect(filesIn(folder.folder_hash)).toEqual([items[0].hash]);
	expect(sandbox.store.file(String(items[0].hash))!.size).not.toBe('same bytes'.length);
});

it('Replace Content applied but its answer lost, service clock behind: the ETag proves it, one new version', async () => {
	const folder = await createFolder(sandbox);
	const file = await uploadOk(sandbox, folder.folder_hash, 'r.txt', 'old content');
	const versionBefore = sandbox.store.file(file.file_hash)!.version;
	sandbox.faults.add({ match: { path: 'save_file' }, fault: 'drop-after', times: 1 });
	const { error } = await storage(
		{
			resource: 'file',
			operation: 'replace',
			file: rl(file.file_hash),
			binaryPropertyName: 'data',
		},
		{ content: 'new content', fileName: 'r.txt' },
	);
	expect(error).toBeUndefined();
	expect(sandbox.store.file(file.file_hash)!.version).toBe(versionBefore + 1);
});

it('Create Path after a lost answer, the service matching "invoices" for "Invoices": the existing folder, once', async () => {
	const existing = await createFolder(sandbox, { folder_name: 'invoices' });
	sandbox.faults.add({
		match: { path: 'get_ids_and_keys_from_paths' },
		fault: 'drop-after',
		times: 1,
	});
	const { items, error } = await storage({
		resource: 'folder',
		operation: 'createPath',
		parentFolder: rl('ROOT'),
		path: 'Invoices/2026',
	});
	expect(error).toBeUndefined();
	const invoices = sandbox.store.folder(existing.folder_hash)!;
	const children = sandbox.store.subfolders(invoices.id);
	expect(children.map((child) => child.name)).toEqual(['2026']);
	expect(items[0].hash).toBe(children[0].hash);
});

it('Rename applied but its answer lost: read back, not sent twice', async () => {
	const folder = await createFolder(sandbox);
	const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'x');
	sandbox.faults.add({ match: { path: 'rename_file' }, fault: 'drop-after', times: 1 });
	const { items, error } = await storage({
		resource: 'file',
		operation: 'rename',
		file: rl(file.file_hash),
		name: 'b.txt',
	});
	expect(error).toBeUndefined();
	expect(items[0].name).toBe('b.txt');
	expect(
		sandbox.requests.list().filter((request) => request.action === 'rename_file'),
	).toHaveLength(1);
});
