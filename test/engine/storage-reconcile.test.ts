/**
 * Writes whose answer is lost, through n8n's engine against the sandbox, in the situations that fool a
 * reconciling read: the service's clock ten minutes behind n8n's, an older file of the same name and size,
 * a watermark that changes the stored size, a folder the path script matched in another letter case.
 * Each write ends applied exactly once, or is sent again only when it did not land.
 */
import { MAY_HAVE_BEEN_APPLIED } from '../../nodes/shared/errors/outcome';
import { secondLook } from '../../nodes/shared/transport';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { takenNames } from '../sandbox/naming';
import type { FaultTarget } from '../sandbox/faults';
import {
	holdNext,
	makeUnavailable,
	replaceAsAnotherClient,
	uploadAsAnotherClient,
} from '../sandbox/world';
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
	sandbox.faults.dateOffsetMs = 0;
	takenNames.style = 'space-paren';
});
afterEach(() => jest.restoreAllMocks());

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
	onError: NodeSpec['onError'] = 'continueRegularOutput',
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
	nodes.push({ name: 'Storage', type: `${PACKAGE_NAME}.cloudStorage`, parameters, onError });
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: credentials() },
	);
	return {
		items: result.nodeOutput('Storage').map((item) => item.json),
		errorItems: result.nodeOutput('Storage', 1).map((item) => item.json),
		error: result.error,
	};
}

const filesIn = (folderHash: string) =>
	sandbox.store.filesIn(sandbox.store.folder(folderHash)!.id).map((file) => file.hash);
const upload = (
	folderHash: string,
	fileName: string,
	options = {},
	extra: Record<string, unknown> = {},
	onError?: NodeSpec['onError'],
) =>
	storage(
		{
			resource: 'file',
			operation: 'upload',
			folder: rl(folderHash),
			binaryPropertyName: 'data',
			options,
			...extra,
		},
		{ content: 'same bytes', fileName, mimeType: 'image/png' },
		onError,
	);
const actionCount = (action: string) =>
	sandbox.requests.list().filter((request) => request.action === action).length;
/** Runs `then` once, right when the sandbox applies a fault to the request of `action`. */
function onFault(action: string, then: () => void) {
	const take = sandbox.faults.take.bind(sandbox.faults);
	let done = false;
	jest.spyOn(sandbox.faults, 'take').mockImplementation((target: FaultTarget) => {
		const rule = take(target);
		if (rule && !done && target.action === action) {
			done = true;
			then();
		}
		return rule;
	});
}

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

it('watermarked upload applied but its answer lost: its bytes cannot be compared, so "may have been applied" naming the candidate, not uploaded twice', async () => {
	const folder = await createFolder(sandbox);
	sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-after', times: 1 });
	const { items, error } = await upload(folder.folder_hash, 'photo.png', {
		watermarkText: 'DRAFT',
	});
	expect(error).toBeUndefined();
	const stored = filesIn(folder.folder_hash);
	expect(stored).toHaveLength(1);
	expect(items[0]).toMatchObject({ outcome: 'unknown', candidates: [{ hash: stored[0] }] });
});

it('Replace Content applied but its answer lost, service clock behind: its content proves it, one new version', async () => {
	const folder = await createFolder(sandbox);
	const file = await uploadOk(sandbox, folder.folder_hash, 'r.txt', 'old content');
	const versionBefore = sandbox.store.file(file.file_hash)!.version;
	sandbox.faults.add({ match: { path: 'save_file' }, fault: 'drop-after', times: 1 });
	const { items, error } = await storage(
		{
			resource: 'file',
			operation: 'replace',
			file: rl(file.file_hash),
			binaryPropertyName: 'data',
		},
		{ content: 'new content', fileName: 'r.txt' },
	);
	expect(error).toBeUndefined();
	expect(items[0]).toMatchObject({ replaced: true, outcome: 'applied-after-lost-answer' });
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

describe('#35: others write too, clocks disagree, the service is slow', () => {
	it('upload lost before it arrived while another client stored a same-name, same-size file: ours is uploaded, theirs not adopted', async () => {
		const folder = await createFolder(sandbox);
		sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-before', times: 1 });
		let theirs = '';
		onFault('upload_file', () => {
			theirs = uploadAsAnotherClient(
				sandbox.store,
				folder.folder_hash,
				'report.png',
				'some bites',
			).hash;
		});
		const { items, error } = await upload(folder.folder_hash, 'report.png');
		expect(error).toBeUndefined();
		expect(items[0].hash).not.toBe(theirs);
		expect(items[0].outcome).toBe('applied');
		expect(filesIn(folder.folder_hash)).toEqual([theirs, items[0].hash]);
	});

	it('upload applied, answer lost, the Date five minutes ahead of the stored timestamps: adopted, not uploaded twice', async () => {
		serviceOffsetMs = 0;
		sandbox.faults.dateOffsetMs = 300_000;
		const folder = await createFolder(sandbox);
		sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-after', times: 1 });
		const { items } = await upload(folder.folder_hash, 'report.png');
		expect(items[0].outcome).toBe('applied-after-lost-answer');
		expect(filesIn(folder.folder_hash)).toEqual([items[0].hash]);
	});

	it('upload lost before it arrived, the Date five minutes behind, an older file with the same bytes there: uploaded, the older one not adopted', async () => {
		serviceOffsetMs = 0;
		const folder = await createFolder(sandbox);
		const older = await uploadOk(sandbox, folder.folder_hash, 'report.png', 'same bytes');
		sandbox.faults.dateOffsetMs = -300_000;
		sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-before', times: 1 });
		const { items } = await upload(folder.folder_hash, 'report.png');
		expect(items[0].hash).not.toBe(older.file_hash);
		expect(filesIn(folder.folder_hash)).toEqual([older.file_hash, items[0].hash]);
	});

	it('upload applied, answer lost, the service naming taken names "report_1.png": adopted, not uploaded twice', async () => {
		takenNames.style = 'underscore';
		const folder = await createFolder(sandbox);
		const first = await uploadOk(sandbox, folder.folder_hash, 'report.png', 'other bytes');
		sandbox.faults.add({ match: { path: 'upload_file' }, fault: 'drop-after', times: 1 });
		const { items } = await upload(folder.folder_hash, 'report.png');
		expect(items[0]).toMatchObject({ name: 'report_1.png', outcome: 'applied-after-lost-answer' });
		expect(filesIn(folder.folder_hash)).toEqual([first.file_hash, items[0].hash]);
	});

	it('upload still being stored when the Timeout ends: found at the second look, sent once', async () => {
		const folder = await createFolder(sandbox);
		const held = holdNext('upload_file');
		const waits: number[] = [];
		jest.spyOn(secondLook, 'wait').mockImplementation(async (ms) => {
			waits.push(ms);
			await held.release();
		});
		const { items } = await upload(
			folder.folder_hash,
			'report.png',
			{},
			{
				requestOptions: { timeout: 1 },
			},
		);
		expect(waits).toEqual([1000]);
		expect(items[0].outcome).toBe('applied-after-lost-answer');
		expect(actionCount('upload_file')).toBe(1);
		expect(filesIn(folder.folder_hash)).toEqual([items[0].hash]);
	});

	it('upload still being stored after the second look: "may have been applied", never sent again; the error output carries the outcome', async () => {
		const folder = await createFolder(sandbox);
		const held = holdNext('upload_file');
		jest.spyOn(secondLook, 'wait').mockResolvedValue(undefined);
		const { items, errorItems } = await upload(
			folder.folder_hash,
			'report.png',
			{},
			{ requestOptions: { timeout: 1 } },
			'continueErrorOutput',
		);
		expect(items).toEqual([]);
		expect(String(errorItems[0].error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		// On the error output n8n keeps only error, message and details: the outcome is in details.
		expect(errorItems[0].details).toMatchObject({ outcome: 'unknown' });
		await held.release();
		expect(actionCount('upload_file')).toBe(1);
		expect(filesIn(folder.folder_hash)).toHaveLength(1);
	});

	it('upload answered 500 and the check read fails too: "may have been applied", not "nothing was changed"', async () => {
		const folder = await createFolder(sandbox);
		sandbox.faults.add({ match: { path: 'upload_file' }, fault: '500', times: 1 });
		onFault('upload_file', () =>
			sandbox.faults.add({ match: { path: 'get_folder_content' }, fault: '500' }),
		);
		const { items } = await upload(folder.folder_hash, 'report.png');
		expect(String(items[0].error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		expect(String(items[0].description)).not.toMatch(/nothing was changed/);
		expect(items[0]).toMatchObject({ outcome: 'unknown', httpCode: 500 });
		expect(actionCount('upload_file')).toBe(1);
	});

	it("Replace Content lost before it arrived, another client's replacement in between: no claim of success, not sent again", async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'r.txt', 'old content');
		sandbox.faults.add({ match: { path: 'save_file' }, fault: 'drop-before', times: 1 });
		onFault('save_file:update', () =>
			replaceAsAnotherClient(sandbox.store, file.file_hash, 'their text'),
		);
		const { items } = await storage(
			{
				resource: 'file',
				operation: 'replace',
				file: rl(file.file_hash),
				binaryPropertyName: 'data',
			},
			{ content: 'new content', fileName: 'r.txt' },
		);
		expect(items[0].outcome).toBe('unknown');
		expect(
			sandbox.requests.list().filter((request) => request.path.includes('save_file')),
		).toHaveLength(1);
		expect(sandbox.store.file(file.file_hash)!.size).toBe('their text'.length);
	});

	it('Rename from "report (1).pdf" to "report.pdf", lost before it arrived: sent again, not reported done', async () => {
		const folder = await createFolder(sandbox);
		await uploadOk(sandbox, folder.folder_hash, 'report.pdf', 'a');
		const variant = await uploadOk(sandbox, folder.folder_hash, 'report.pdf', 'b');
		expect(variant.file_name).toBe('report (1).pdf');
		sandbox.faults.add({ match: { path: 'rename_file' }, fault: 'drop-before', times: 1 });
		const { items } = await storage({
			resource: 'file',
			operation: 'rename',
			file: rl(variant.file_hash),
			name: 'report.pdf',
		});
		expect(actionCount('rename_file')).toBe(2);
		expect(items[0]).toMatchObject({ outcome: 'applied', httpCode: 200 });
	});

	it('Delete lost before it arrived, the file now answering 405 (unavailable) but still listed: "may have been applied", not called deleted', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'x');
		sandbox.faults.add({ match: { path: 'delete_file' }, fault: 'drop-before', times: 1 });
		onFault('delete_file', () => makeUnavailable(sandbox.store, file.file_hash));
		const { items } = await storage({
			resource: 'file',
			operation: 'delete',
			file: rl(file.file_hash),
		});
		expect(items[0].outcome).toBe('unknown');
		expect(String(items[0].error)).toMatch(new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: `));
		expect(sandbox.store.file(file.file_hash)!.deleted).toBeNull();
	});

	it('Delete applied, answer lost: its folder no longer lists it, applied after a lost answer, sent once', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.txt', 'x');
		sandbox.faults.add({ match: { path: 'delete_file' }, fault: 'drop-after', times: 1 });
		const { items } = await storage({
			resource: 'file',
			operation: 'delete',
			file: rl(file.file_hash),
		});
		expect(items[0]).toMatchObject({ deleted: true, outcome: 'applied-after-lost-answer' });
		expect(actionCount('delete_file')).toBe(1);
	});
});
