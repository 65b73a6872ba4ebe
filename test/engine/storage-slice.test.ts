/**
 * The Storage node's first slice through n8n's engine against the sandbox: folder create → upload (5 MB
 * from a binary node) → list → get file → download → delete file → delete folder, with both credential
 * types, and the error path of deleting a file that does not exist.
 */
import { startSandbox } from '../sandbox/server';
import {
	chain,
	fixtureBytes,
	type NodeSpec,
	PACKAGE_NAME,
	runWorkflow,
	type RunResult,
} from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

const STORAGE = `${PACKAGE_NAME}.cloudStorage`;
const FIVE_MB = 5 * 1024 * 1024;
const locator = (value: string) => ({ __rl: true, mode: 'id', value });
const trigger: NodeSpec = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} };

const authentications = [
	{
		authentication: 'tokenApi',
		credentials: () => ({
			cloudStorageTokenApi: {
				baseUrl: sandbox.baseUrl,
				webUrl: sandbox.webUrl,
				user: 'demo',
				accessToken: 'demo-token-0123456789abcdef',
			},
		}),
	},
	{
		authentication: 'passwordApi',
		credentials: () => ({
			cloudStoragePasswordApi: {
				baseUrl: sandbox.baseUrl,
				webUrl: sandbox.webUrl,
				user: 'demo',
				password: 'demo-password',
			},
		}),
	},
];

describe.each(authentications)(
	'Storage slice with $authentication',
	({ authentication, credentials }) => {
		const storage = (
			name: string,
			parameters: NodeSpec['parameters'],
			extra: Partial<NodeSpec> = {},
		): NodeSpec => ({
			name,
			type: STORAGE,
			parameters: { authentication, ...parameters },
			...extra,
		});

		it('creates a folder, uploads 5 MB, lists, gets, downloads, then deletes the file and the folder', async () => {
			const folderName = `engine-slice-${authentication}-${Date.now()}`;
			const nodes: NodeSpec[] = [
				trigger,
				storage('Create Folder', {
					resource: 'folder',
					operation: 'create',
					parentFolder: locator('ROOT'),
					name: folderName,
					options: { accessType: 'PRIVATE' },
				}),
				{
					name: 'Make File',
					type: 'engine-test.binaryFixture',
					parameters: { sizeBytes: FIVE_MB, fileName: 'report.bin' },
				},
				storage('Upload', {
					resource: 'file',
					operation: 'upload',
					folder: locator('={{ $json.hash }}'),
					binaryPropertyName: 'data',
					options: { fileName: 'report.bin' },
				}),
				storage('List', {
					resource: 'folder',
					operation: 'list',
					folder: locator("={{ $('Create Folder').item.json.hash }}"),
				}),
				storage('Get File', {
					resource: 'file',
					operation: 'get',
					file: locator('={{ $json.hash }}'),
				}),
				storage('Download', {
					resource: 'file',
					operation: 'download',
					file: locator('={{ $json.hash }}'),
					binaryPropertyName: 'data',
				}),
				storage('Delete File', {
					resource: 'file',
					operation: 'delete',
					file: locator("={{ $('Upload').item.json.hash }}"),
				}),
				storage('Delete Folder', {
					resource: 'folder',
					operation: 'delete',
					folder: locator("={{ $('Create Folder').item.json.hash }}"),
				}),
			];
			const stored = credentials();
			const result = await runWorkflow(
				{ nodes, connections: chain(...nodes.map((node) => node.name)) },
				{ credentials: stored },
			);
			expect(result.error).toBeUndefined();
			const only = (nodeName: string) => {
				const items = result.nodeOutput(nodeName);
				expect(items).toHaveLength(1);
				return items[0];
			};

			const folder = only('Create Folder').json;
			expect(folder).toMatchObject({ type: 'folder', name: folderName, parent_folder_hash: null });
			expect(folder.hash).toEqual(expect.any(String));
			expect(folder.link).toContain(String(folder.hash));

			const uploaded = only('Upload').json;
			expect(uploaded).toMatchObject({
				type: 'file',
				name: 'report.bin',
				size: FIVE_MB,
				parent_folder_hash: folder.hash,
			});

			const listed = only('List').json;
			expect(listed).toMatchObject({ type: 'file', name: 'report.bin', hash: uploaded.hash });
			expect(Number(listed.size)).toBe(FIVE_MB);

			const info = only('Get File').json;
			expect(info).toMatchObject({ type: 'file', hash: uploaded.hash, name: 'report.bin' });
			expect(Number(info.size)).toBe(FIVE_MB);

			const downloaded = only('Download');
			expect(downloaded.binary?.data).toMatchObject({ fileName: 'report.bin', bytes: FIVE_MB });
			expect(downloaded.binary?.data.id).toMatch(/^filesystem-v2:/);
			expect((await result.readBinary(downloaded)).equals(fixtureBytes(FIVE_MB))).toBe(true);

			const applied = { deleted: true, outcome: 'applied', httpCode: 200 };
			expect(only('Delete File').json).toEqual({ hash: uploaded.hash, ...applied });
			expect(only('Delete Folder').json).toEqual({ hash: folder.hash, ...applied });
			expectPairedToTrigger(result, [
				'Create Folder',
				'Upload',
				'List',
				'Get File',
				'Download',
				'Delete File',
				'Delete Folder',
			]);
			// Every call of this slice carries the credential's own fields, on the transport's kept-alive
			// connections: no session was needed, so none was obtained (n8n's helper would have logged in first).
			expect(Object.values(stored)[0]).not.toHaveProperty('sessionId');

			// The folder is really gone: listing it now fails.
			const after = await runWorkflow(
				{
					nodes: [
						trigger,
						storage('List', {
							resource: 'folder',
							operation: 'list',
							folder: locator(String(folder.hash)),
						}),
					],
					connections: chain('Start', 'List'),
				},
				{ credentials: credentials() },
			);
			expect(after.error).toMatchObject({ name: 'NodeApiError', node: { name: 'List' } });
		});
	},
);

function expectPairedToTrigger(result: RunResult, nodeNames: string[]) {
	for (const nodeName of nodeNames) {
		expect(result.nodeOutput(nodeName).map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
	}
}

describe('Storage errors', () => {
	const credentials = authentications[0].credentials;
	const deleteFiles = (onError?: NodeSpec['onError']): NodeSpec[] => [
		trigger,
		{
			name: 'Hashes',
			type: 'engine-test.jsonItems',
			parameters: {
				items: JSON.stringify([{ hash: 'missing-file-hash-1' }, { hash: 'missing-file-hash-2' }]),
			},
		},
		{
			name: 'Delete File',
			type: STORAGE,
			parameters: {
				authentication: 'tokenApi',
				resource: 'file',
				operation: 'delete',
				file: locator('={{ $json.hash }}'),
			},
			onError,
		},
	];

	it('deleting a missing file stops the workflow with a clear NodeApiError', async () => {
		const nodes = deleteFiles();
		const result = await runWorkflow(
			{ nodes, connections: chain('Start', 'Hashes', 'Delete File') },
			{ credentials: credentials() },
		);
		// The service answers 405 for a missing item; the node says so in the error's description.
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '405',
			node: { name: 'Delete File' },
			description: expect.stringContaining('does not exist'),
		});
	});

	it('with Continue On Fail, each failed delete becomes an error item paired to its input', async () => {
		const nodes = deleteFiles('continueRegularOutput');
		const result = await runWorkflow(
			{ nodes, connections: chain('Start', 'Hashes', 'Delete File') },
			{ credentials: credentials() },
		);
		expect(result.error).toBeUndefined();
		const items = result.nodeOutput('Delete File');
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of items) expect(item.json.error).toMatch(/405/);
	});
});
