/**
 * Every Storage operation through n8n's engine against the sandbox, one node per run, the
 * way a user chains them: create a path, upload, find, rename, move, replace, keys, tree, restore,
 * account data and end-to-end-encryption keys.
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { chain, type NodeSpec, PACKAGE_NAME, runWorkflow } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: DEMO_ACCOUNT.username,
		accessToken: DEMO_ACCOUNT.token,
	},
});

/** Runs Start → (optional file) → one Storage node, returning its items or its error. */
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
	return {
		items: result.nodeOutput('Storage').map((item) => item.json),
		error: result.error,
		result,
	};
}

describe('Storage operations against the sandbox', () => {
	let leaf: string;
	let archive: string;
	let fileHash: string;

	it('creates a path of folders once, reusing existing ones', async () => {
		const first = await storage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: 'Invoices/2026/11',
		});
		expect(first.error).toBeUndefined();
		leaf = String(first.items[0].hash);
		expect(first.items[0]).toMatchObject({ name: '11', path: 'Invoices/2026/11' });
		const again = await storage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: 'Invoices/2026/11',
		});
		expect(again.items[0].hash).toBe(leaf);
		const archived = await storage({
			resource: 'folder',
			operation: 'createPath',
			parentFolder: rl('ROOT'),
			path: 'Archive',
		});
		archive = String(archived.items[0].hash);
	});

	it('uploads, finds by name, renames with a unique name, and moves', async () => {
		const up = await storage(
			{ resource: 'file', operation: 'upload', folder: rl(leaf), binaryPropertyName: 'data' },
			{ content: 'invoice one', fileName: 'inv.txt' },
		);
		expect(up.error).toBeUndefined();
		fileHash = String(up.items[0].hash);
		const found = await storage({
			resource: 'file',
			operation: 'findByName',
			folder: rl(leaf),
			name: 'inv.txt',
		});
		expect(found.items[0]).toMatchObject({ found: true, hash: fileHash });
		await storage(
			{ resource: 'file', operation: 'upload', folder: rl(leaf), binaryPropertyName: 'data' },
			{ content: 'other', fileName: 'renamed.txt' },
		);
		const renamed = await storage({
			resource: 'file',
			operation: 'rename',
			file: rl(fileHash),
			name: 'renamed.txt',
		});
		expect(renamed.error).toBeUndefined();
		expect(renamed.items[0].name).not.toBe('renamed.txt');
		const moved = await storage({
			resource: 'file',
			operation: 'move',
			file: rl(fileHash),
			targetFolder: rl(archive),
		});
		expect(moved.items[0]).toMatchObject({ moved: true, parent_folder_hash: archive });
	});

	it('explains a move to a folder it cannot use', async () => {
		const { error } = await storage({
			resource: 'file',
			operation: 'move',
			file: rl(fileHash),
			targetFolder: rl('NoSuchFolderHash'),
		});
		expect(error?.message).toMatch(/405/);
		expect((error as { description?: string }).description).toMatch(/another account/);
	});

	it('replaces the content keeping the hash, then downloads the new bytes', async () => {
		const replaced = await storage(
			{ resource: 'file', operation: 'replace', file: rl(fileHash), binaryPropertyName: 'data' },
			{ content: 'invoice one, corrected', fileName: 'x.txt' },
		);
		expect(replaced.error).toBeUndefined();
		expect(replaced.items[0]).toMatchObject({ hash: fileHash, replaced: true });
		const down = await storage({
			resource: 'file',
			operation: 'download',
			file: rl(fileHash),
			binaryPropertyName: 'data',
		});
		const item = down.result.nodeOutput('Storage')[0];
		expect((await down.result.readBinary(item, 'data')).toString()).toBe('invoice one, corrected');
	});

	it('gets file and folder keys, legacy details and the folder tree', async () => {
		const fileKeys = await storage({ resource: 'file', operation: 'getKeys', file: rl(fileHash) });
		expect(fileKeys.error).toBeUndefined();
		const folderKeys = await storage({
			resource: 'folder',
			operation: 'getKeys',
			folder: rl(archive),
		});
		expect(String(folderKeys.items[0].add_files_key)).toMatch(/^[0-9a-f]{32}$/);
		const details = await storage({
			resource: 'file',
			operation: 'get',
			file: rl(fileHash),
			options: { legacyDetails: true },
		});
		expect(details.items[0].details).toMatchObject({ Name: expect.any(String) });
		const tree = await storage({ resource: 'folder', operation: 'getTree', folder: rl('ROOT') });
		expect(tree.error).toBeUndefined();
		expect(tree.items.map((item) => item.path)).toEqual(
			expect.arrayContaining(['Invoices/2026/11', 'Archive']),
		);
	});

	it('deletes and restores a file and a folder', async () => {
		await storage({ resource: 'file', operation: 'delete', file: rl(fileHash) });
		const restored = await storage({ resource: 'file', operation: 'restore', file: rl(fileHash) });
		expect(restored.error).toBeUndefined();
		const info = await storage({ resource: 'file', operation: 'get', file: rl(fileHash) });
		expect(info.items[0].hash).toBe(fileHash);
		await storage({ resource: 'folder', operation: 'delete', folder: rl(archive) });
		const folder = await storage({ resource: 'folder', operation: 'restore', folder: rl(archive) });
		expect(folder.error).toBeUndefined();
	});

	it('reads the account, its storage usage and the ROOT list', async () => {
		const me = await storage({ resource: 'account', operation: 'get' });
		expect(me.items[0]).toMatchObject({ UserName: DEMO_ACCOUNT.username });
		expect(JSON.stringify(me.items)).not.toContain(DEMO_ACCOUNT.token);
		const usage = await storage({ resource: 'account', operation: 'getStorageUsage' });
		expect(usage.items[0]).toHaveProperty('used_mb');
		const root = await storage({ resource: 'folder', operation: 'listRoot' });
		expect(root.items.map((item) => item.hash)).toContain(archive);
		const exists = await storage({
			resource: 'folder',
			operation: 'checkExistence',
			hashes: `${archive},Nope`,
		});
		expect(exists.error).toBeUndefined();
		expect(exists.items).toEqual([
			{ hash: archive, exists: true },
			{ hash: 'Nope', exists: false },
		]);
	});

	it('stores and reads end-to-end-encryption keys as opaque strings', async () => {
		const saveUser = await storage({
			resource: 'encryption',
			operation: 'saveUserKeys',
			kem: 'kem-pub',
			dsa: 'dsa-pub',
			x25519: 'x-pub',
			ed25519: 'ed-pub',
		});
		expect(saveUser.error).toBeUndefined();
		await storage({
			resource: 'encryption',
			operation: 'saveFileKey',
			file: rl(fileHash),
			encryptionKey: 'wrapped==',
			keySignature: 'sig==',
		});
		const got = await storage({
			resource: 'encryption',
			operation: 'getFileKey',
			file: rl(fileHash),
		});
		expect(got.items[0]).toMatchObject({ encryptionKey: 'wrapped==', keySignature: 'sig==' });
	});

	it('creates an anonymous folder, uploads into it by key and lists it publicly', async () => {
		const anon = await storage({
			resource: 'folder',
			operation: 'createAnonymous',
			name: 'Drop box',
			accessType: 'LINK',
		});
		expect(anon.error).toBeUndefined();
		const { hash, add_files_key: key } = anon.items[0] as { hash: string; add_files_key: string };
		const nodes: NodeSpec[] = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				name: 'File',
				type: 'engine-test.binaryFixture',
				parameters: { content: 'dropped', fileName: 'd.txt', mimeType: 'text/plain' },
			},
			{
				name: 'Storage',
				type: `${PACKAGE_NAME}.cloudStorage`,
				parameters: {
					authentication: 'none',
					baseUrl: sandbox.baseUrl,
					webUrl: sandbox.webUrl,
					resource: 'file',
					operation: 'upload',
					folder: rl(hash),
					binaryPropertyName: 'data',
					options: { uploadKey: key },
				},
			},
		];
		const upload = await runWorkflow({ nodes, connections: chain('Start', 'File', 'Storage') });
		expect(upload.error).toBeUndefined();
		const listed = await runWorkflow({
			nodes: [
				nodes[0],
				{
					name: 'Storage',
					type: `${PACKAGE_NAME}.cloudStorage`,
					parameters: {
						authentication: 'none',
						baseUrl: sandbox.baseUrl,
						webUrl: sandbox.webUrl,
						resource: 'folder',
						operation: 'listPublic',
						folder: rl(`${sandbox.webUrl}/u/${hash}`, 'url'),
					},
				},
			],
			connections: chain('Start', 'Storage'),
		});
		expect(listed.nodeOutput('Storage').map((item) => item.json.name)).toEqual(['d.txt']);
	});
});

describe('Parallel Requests against the sandbox', () => {
	it('gets 12 files four at a time: outputs in input order, paired, a missing one failing in its own slot', async () => {
		const demo = sandbox.store.accountByLogin(DEMO_ACCOUNT.username)!;
		const { files } = sandbox.store.bulkCreate(demo, {
			folders: 1,
			filesPerFolder: 12,
			folderPrefix: 'Parallel ',
			filePrefix: 'parallel ',
		});
		const hashes = files.map((file) => file.hash);
		hashes.splice(5, 0, 'NoSuchFileHash');
		const nodes: NodeSpec[] = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				name: 'Items',
				type: 'engine-test.jsonItems',
				parameters: { items: JSON.stringify(hashes.map((hash) => ({ hash }))) },
			},
			{
				name: 'Storage',
				type: `${PACKAGE_NAME}.cloudStorage`,
				parameters: {
					resource: 'file',
					operation: 'get',
					file: rl('={{ $json.hash }}'),
					options: { concurrency: 4 },
				},
				onError: 'continueRegularOutput',
			},
		];
		const result = await runWorkflow(
			{ nodes, connections: chain('Start', 'Items', 'Storage') },
			{ credentials: credentials() },
		);
		expect(result.error).toBeUndefined();
		const out = result.nodeOutput('Storage');
		expect(out.map((item) => item.pairedItem)).toEqual(hashes.map((_, item) => ({ item })));
		expect(out.map((item) => item.json.hash ?? 'failed')).toEqual(
			hashes.map((hash) => (hash === 'NoSuchFileHash' ? 'failed' : hash)),
		);
		expect(String(out[5].json.error)).not.toBe('');
	});
});

describe('Reads a token credential sends with the session cookie, after the session expired', () => {
	const cases: Array<
		[
			string,
			(hashes: { file: string; folder: string; name: string }) => NodeSpec['parameters'],
			string,
		]
	> = [
		[
			'File → Get Keys',
			({ file }) => ({ resource: 'file', operation: 'getKeys', file: rl(file) }),
			'/api/get_file_keys.php',
		],
		[
			'File → Get with legacy details',
			({ file }) => ({
				resource: 'file',
				operation: 'get',
				file: rl(file),
				options: { legacyDetails: true },
			}),
			'/api/get_file_info.php',
		],
		[
			'Folder → Get Tree',
			({ folder }) => ({ resource: 'folder', operation: 'getTree', folder: rl(folder) }),
			'/api/get_upload_tree.php',
		],
		[
			'Folder → List Root',
			() => ({ resource: 'folder', operation: 'listRoot' }),
			'/api/upload_list.php',
		],
		[
			'Account → Get Storage Usage',
			() => ({ resource: 'account', operation: 'getStorageUsage' }),
			'/api/get_storage_data.php',
		],
		[
			'Folder → Get Keys',
			({ folder }) => ({ resource: 'folder', operation: 'getKeys', folder: rl(folder) }),
			'/api/get_upload_keys.php',
		],
		[
			'Folder → Check Existence',
			({ folder }) => ({ resource: 'folder', operation: 'checkExistence', hashes: folder }),
			'/api/get_uploads_exist.php',
		],
	];
	it.each(cases)(
		'%s logs in again once and repeats the request',
		async (_name, parameters, path) => {
			const demo = sandbox.store.accountByLogin(DEMO_ACCOUNT.username)!;
			const { files, folders } = sandbox.store.bulkCreate(demo, {
				folders: 1,
				filesPerFolder: 1,
				folderPrefix: 'Session ',
				filePrefix: 'session ',
			});
			const target = { file: files[0].hash, folder: folders[0].hash, name: files[0].name };
			const saved = credentials();
			const run = async () =>
				await runWorkflow(
					{
						nodes: [
							{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
							{
								name: 'Storage',
								type: `${PACKAGE_NAME}.cloudStorage`,
								parameters: parameters(target),
							},
						],
						connections: chain('Start', 'Storage'),
					},
					{ credentials: saved },
				);
			expect((await run()).error).toBeUndefined();
			sandbox.sessions.expireAll();
			sandbox.requests.clear();
			const again = await run();
			expect(again.error).toBeUndefined();
			expect(again.nodeOutput('Storage')).not.toHaveLength(0);
			expect(
				sandbox.requests
					.list()
					.map((request) => `${request.path} ${request.status}`)
					.filter((line) => line.startsWith(path) || line.startsWith('/api/authenticate_user.php')),
			).toEqual([`${path} 401`, '/api/authenticate_user.php 200', `${path} 200`]);
		},
	);
});
