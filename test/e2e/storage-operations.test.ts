/**
 * The Storage operations in a real n8n against the sandbox, from one exported workflow
 * (workflows/storage-operations.json): create path → upload → find by name → rename → move → replace
 * content → download (bytes checked) → legacy details → delete → restore → keys → account →
 * usage → end-to-end-encryption keys → tree (last: it outputs an item per entry); then the anonymous
 * operations with Authentication: None.
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { createServiceCredential } from './harness/credentials';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	startN8n,
	type ExecutionSummary,
	type N8nInstance,
} from './harness/n8n';

jest.setTimeout(180_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let n8n: N8nInstance;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	n8n = await startN8n({ mode: 'regular' });
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const one = (execution: ExecutionSummary, node: string) => {
	const items = itemsOf(execution, node);
	expect(items).toHaveLength(1);
	return items[0].json;
};

it('runs every file and folder operation in one workflow', async () => {
	const credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox);
	const workflow = await n8n.client.importWorkflow(loadWorkflow('storage-operations.json'), {
		credentials: { [credential.type]: credential },
	});
	const execution = await n8n.client.runWorkflow(workflow.id);
	expect(describeErrors(execution)).toBe('');

	const path = one(execution, 'Create Path');
	const uploaded = one(execution, 'Upload');
	expect(path).toMatchObject({ name: 'docs', path: expect.stringMatching(/^E2E .*\/docs$/) });
	expect(one(execution, 'Find by Name')).toMatchObject({ found: true, hash: uploaded.hash });
	expect(one(execution, 'Rename')).toMatchObject({ name: 'invoice-2026.txt' });
	expect(one(execution, 'Move')).toMatchObject({
		moved: true,
		parent_folder_hash: one(execution, 'Create Archive').hash,
	});
	expect(one(execution, 'Replace Content')).toMatchObject({ hash: uploaded.hash, replaced: true });
	expect(one(execution, 'Check Bytes')).toEqual({ sameBytes: true, name: 'invoice-2026.txt' });
	expect(one(execution, 'Get With Details')).toMatchObject({
		access_rights: expect.any(Object),
		details: expect.any(Object),
	});
	expect(itemsOf(execution, 'Get Tree').map((item) => item.json.path)).toEqual(
		expect.arrayContaining(['archive', 'archive/invoice-2026.txt']),
	);
	expect(one(execution, 'Restore File')).toMatchObject({ hash: uploaded.hash, restored: true });
	expect(String(one(execution, 'Folder Keys').add_files_key)).toMatch(/^[0-9a-f]{32}$/);
	expect(one(execution, 'Account')).toMatchObject({ UserName: DEMO_ACCOUNT.username });
	expect(one(execution, 'Usage')).toHaveProperty('quota_mb');
	expect(one(execution, 'Get File Key')).toMatchObject({
		encryptionKey: 'wrapped-key==',
		keySignature: 'signature==',
	});
	expect(JSON.stringify(execution)).not.toContain(DEMO_ACCOUNT.token);
});

it('works without an account: anonymous folder, upload by key, public listing, LINK download', async () => {
	const base = { authentication: 'none', baseUrl: sandbox.baseUrl, webUrl: sandbox.webUrl };
	const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
	const storage = (name: string, index: number, parameters: Record<string, unknown>) => ({
		id: `6b7e0c3d-0000-4000-8000-${String(index).padStart(12, '0')}`,
		name,
		type: 'n8n-nodes-cloud-storage.cloudStorage',
		typeVersion: 1,
		position: [index * 220, 0],
		parameters: { ...base, ...parameters },
	});
	const nodes = [
		{
			id: '6b7e0c3d-0000-4000-8000-000000000000',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		storage('Anonymous Folder', 1, {
			resource: 'folder',
			operation: 'createAnonymous',
			name: 'Drop',
			accessType: 'LINK',
		}),
		{
			id: '6b7e0c3d-0000-4000-8000-000000000002',
			name: 'Make File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			position: [440, 0],
			parameters: {
				operation: 'toText',
				sourceProperty: 'hash',
				options: { fileName: 'hash.txt' },
			},
		},
		storage('Upload by Key', 3, {
			resource: 'file',
			operation: 'upload',
			folder: rl("={{ $('Anonymous Folder').item.json.hash }}"),
			binaryPropertyName: 'data',
			options: { uploadKey: "={{ $('Anonymous Folder').item.json.add_files_key }}" },
		}),
		// Files only: the documented listing cannot tell a subfolder from a file, so only then is each link known.
		storage('List Public', 4, {
			resource: 'folder',
			operation: 'listPublic',
			folder: rl("={{ $('Anonymous Folder').item.json.link }}", 'url'),
			includeFolders: false,
		}),
		storage('Download Link', 5, {
			resource: 'file',
			operation: 'download',
			file: rl('={{ $json.link }}', 'url'),
			binaryPropertyName: 'data',
		}),
	];
	const connections = Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((node, i) => [
				node.name,
				{ main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	const workflow = await n8n.client.importWorkflow({
		name: 'Anonymous storage',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	});
	const execution = await n8n.client.runWorkflow(workflow.id);
	expect(describeErrors(execution)).toBe('');
	const folder = one(execution, 'Anonymous Folder');
	expect(folder).toMatchObject({ anonymous: true });
	expect(one(execution, 'List Public')).toMatchObject({ name: 'hash.txt', type: 'file' });
	const downloaded = itemsOf(execution, 'Download Link')[0];
	expect((await n8n.client.downloadBinary(downloaded.binary!.data)).toString()).toBe(
		String(folder.hash),
	);
});

it('moves a file into ROOT, and Find by Name reads the documented 405 as not found', async () => {
	const credential = await n8n.client.createCredential(
		'cloudStorageTokenApi',
		'Cloud Storage (token, ROOT move)',
		{
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			user: DEMO_ACCOUNT.username,
			accessToken: DEMO_ACCOUNT.token,
		},
	);
	const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
	const storage = (
		name: string,
		index: number,
		parameters: Record<string, unknown>,
		extra: Record<string, unknown> = {},
	) => ({
		id: `7c8f1d4e-0000-4000-8000-${String(index).padStart(12, '0')}`,
		name,
		type: 'n8n-nodes-cloud-storage.cloudStorage',
		typeVersion: 1,
		position: [index * 220, 0],
		parameters: { authentication: 'tokenApi', ...parameters },
		credentials: { cloudStorageTokenApi: { id: credential.id, name: credential.name } },
		...extra,
	});
	const nodes = [
		{
			id: '7c8f1d4e-0000-4000-8000-000000000000',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		storage('Folder', 1, {
			resource: 'folder',
			operation: 'create',
			name: `E2E root move ${Date.now()}`,
		}),
		{
			id: '7c8f1d4e-0000-4000-8000-000000000002',
			name: 'Make File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			position: [440, 0],
			parameters: {
				operation: 'toText',
				sourceProperty: 'hash',
				options: { fileName: `to-root-${Date.now()}.txt` },
			},
		},
		storage('Upload', 3, {
			resource: 'file',
			operation: 'upload',
			folder: rl("={{ $('Folder').item.json.hash }}"),
			binaryPropertyName: 'data',
		}),
		storage('Find Missing', 4, {
			resource: 'file',
			operation: 'findByName',
			folder: rl("={{ $('Folder').item.json.hash }}"),
			name: 'no-such-file.txt',
		}),
		storage(
			'Find Missing Strict',
			5,
			{
				resource: 'file',
				operation: 'findByName',
				folder: rl("={{ $('Folder').item.json.hash }}"),
				name: 'no-such-file.txt',
				failIfMissing: true,
			},
			{ onError: 'continueRegularOutput' },
		),
		storage('Move to ROOT', 6, {
			resource: 'file',
			operation: 'move',
			file: rl("={{ $('Upload').item.json.hash }}"),
			targetFolder: rl('ROOT'),
		}),
		storage('Get After Move', 7, {
			resource: 'file',
			operation: 'get',
			file: rl("={{ $('Upload').item.json.hash }}"),
		}),
	];
	const connections = Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((node, i) => [
				node.name,
				{ main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	const workflow = await n8n.client.importWorkflow({
		name: 'ROOT move and Find by Name 405',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	});
	const execution = await n8n.client.runWorkflow(workflow.id);
	expect(one(execution, 'Find Missing')).toMatchObject({ found: false, name: 'no-such-file.txt' });
	expect(String(one(execution, 'Find Missing Strict').error)).toMatch(
		/No file "no-such-file.txt" in the folder/,
	);
	expect(one(execution, 'Move to ROOT')).toMatchObject({
		moved: true,
		parent_folder_hash: DEMO_ACCOUNT.rootHash,
	});
	expect(one(execution, 'Get After Move')).toMatchObject({
		hash: one(execution, 'Upload').hash,
		parent_folder_hash: DEMO_ACCOUNT.rootHash,
	});
	const findRequests = sandbox.requests
		.list()
		.filter((entry) => entry.path === '/api/get_file_info.php');
	expect(findRequests.map((entry) => entry.status)).toEqual(expect.arrayContaining([405]));
});

describe('Parallel Requests in a real n8n', () => {
	const rl = (value: string) => ({ __rl: true, mode: 'id', value });
	const parallelWorkflow = (
		name: string,
		hashes: string[],
		credentialId: string,
		tolerant: boolean,
	) => ({
		name,
		nodes: [
			{
				id: '8d9a2e5f-0000-4000-8000-000000000000',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: '8d9a2e5f-0000-4000-8000-000000000001',
				name: 'Hashes',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return ${JSON.stringify(hashes)}.map((hash) => ({ json: { hash } }));`,
				},
			},
			{
				id: '8d9a2e5f-0000-4000-8000-000000000002',
				name: 'Get Info',
				type: 'n8n-nodes-cloud-storage.cloudStorage',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					authentication: 'tokenApi',
					resource: 'file',
					operation: 'get',
					file: rl('={{ $json.hash }}'),
					options: { concurrency: 4 },
				},
				credentials: { cloudStorageTokenApi: { id: credentialId, name: 'parallel' } },
				...(tolerant ? { onError: 'continueRegularOutput' } : {}),
			},
		],
		connections: {
			Start: { main: [[{ node: 'Hashes', type: 'main', index: 0 }]] },
			Hashes: { main: [[{ node: 'Get Info', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	});
	const infoRequests = () =>
		sandbox.requests
			.list()
			.filter((entry) => entry.api === 'v2' && entry.action === 'get_file_info').length;

	it('gets files four at a time: input order and pairing kept, a missing file failing in its own slot or stopping the run', async () => {
		const credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox);
		const demo = sandbox.store.accountByLogin(DEMO_ACCOUNT.username)!;
		const { files } = sandbox.store.bulkCreate(demo, {
			folders: 1,
			filesPerFolder: 12,
			folderPrefix: 'E2E parallel ',
			filePrefix: 'parallel ',
		});
		const hashes = files.map((file) => file.hash);
		hashes.splice(5, 0, 'NoSuchFileHash');

		sandbox.requests.clear();
		const tolerant = await n8n.client.importWorkflow(
			parallelWorkflow('Parallel Get File Info', hashes, credential.id, true),
		);
		const execution = await n8n.client.runWorkflow(tolerant.id);
		expect(describeErrors(execution)).toBe('');
		const out = itemsOf(execution, 'Get Info');
		expect(out.map((item) => item.json.hash ?? 'failed')).toEqual(
			hashes.map((hash) => (hash === 'NoSuchFileHash' ? 'failed' : hash)),
		);
		expect(String(out[5].json.error)).toMatch(
			/refused the operation on file "NoSuchFileHash" \(405, item \d+\)/,
		);
		expect(infoRequests()).toBe(hashes.length);

		// Without Continue On Fail the missing file fails the run, each item asked at most once. How many items
		// started before its answer arrived depends on the order the answers come in; that none starts after it
		// is shown with held answers in the engine tier (test/engine/storage/parallel.test.ts).
		sandbox.requests.clear();
		const strict = await n8n.client.importWorkflow(
			parallelWorkflow('Parallel Get File Info, strict', hashes, credential.id, false),
		);
		const failed = await n8n.client.runWorkflow(strict.id);
		expect(describeErrors(failed)).toMatch(/^Get Info: .*\(405, item \d+\)/);
		expect(infoRequests()).toBeGreaterThanOrEqual(6);
		expect(infoRequests()).toBeLessThanOrEqual(hashes.length);
	});
});
