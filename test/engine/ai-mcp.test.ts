/**
 * The MCP node through n8n's engine against the sandbox's MCP endpoint, in each protocol revision:
 * public docs without a credential, private tools over the account's files (a binary file read into n8n's
 * binary store), tool pagination, a rate limit waited out by the retry seconds, and refusals before sending.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { mcpClock } from '../../nodes/shared/mcp/transport';
import { mcpOf } from '../sandbox/mcp/state';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { chain, PACKAGE_NAME, runWorkflow, testCredential, type NodeSpec } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let binaryHash: string;
let textHash: string;
const BYTES = Buffer.from([0, 1, 2, 3, 255, 254, 10, 13]);

function addFile(name: string, content: Buffer): string {
	const account = sandbox.store.accounts.get(DEMO_ACCOUNT.id)!;
	const tmpPath = path.join(sandbox.store.tmpDir, `mcp-${name}`);
	fs.writeFileSync(tmpPath, content);
	const sha256 = createHash('sha256').update(content).digest('hex');
	return sandbox.store.addFile(sandbox.store.rootOf(account), {
		name,
		tmpPath,
		size: content.length,
		sha256,
	}).hash;
}

// One clock for the sandbox's rate-limit windows and the node's waits: a wait moves it, nothing sleeps.
let clockOffsetMs = 0;
const realSleep = mcpClock.sleep;
let slept: number[] = [];

beforeAll(async () => {
	mcpClock.sleep = async (ms: number) => {
		slept.push(ms);
		clockOffsetMs += ms;
	};
	sandbox = await startSandbox({ port: 0, now: () => Date.now() + clockOffsetMs });
	binaryHash = addFile('blob.bin', BYTES);
	textHash = addFile('notes.txt', Buffer.from('Grüße from the sandbox'));
});
afterAll(async () => {
	mcpClock.sleep = realSleep;
	await sandbox?.close();
});

async function runMcp(parameters: Record<string, unknown>, items = 1) {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'Items',
			type: 'engine-test.jsonItems',
			parameters: { items: JSON.stringify(Array.from({ length: items }, (_, i) => ({ i }))) },
		},
		{ name: 'MCP', type: `${PACKAGE_NAME}.cloudStorageMcp`, parameters: parameters as never },
	];
	const credentials = {
		cloudStorageBearerApi: {
			userId: String(DEMO_ACCOUNT.id),
			apiToken: DEMO_ACCOUNT.token,
			baseUrl: sandbox.baseUrl,
			aiUrl: sandbox.baseUrl,
		},
	};
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'Items', 'MCP') },
		{ credentials: credentials as never },
	);
	return { ...result, out: result.nodeOutput('MCP') };
}

const mcpCalls = () => sandbox.requests.list().filter((entry) => entry.api === 'mcp');

describe.each(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'])(
	'MCP node, protocol %s',
	(protocolVersion) => {
		beforeEach(() => sandbox.requests.clear());

		it('searches and reads the public docs without a credential', async () => {
			const search = await runMcp({
				authentication: 'none',
				baseUrl: sandbox.baseUrl,
				protocolVersion,
				resource: 'docs',
				operation: 'search',
				query: 'upload',
			});
			expect(search.error).toBeUndefined();
			expect(search.out[0].json).toMatchObject({
				uri: 'docs://storage-api',
				title: 'Storage REST API',
			});
			const doc = await runMcp({
				authentication: 'none',
				baseUrl: sandbox.baseUrl,
				protocolVersion,
				resource: 'docs',
				operation: 'get',
				uri: 'docs://mcp-endpoint',
			});
			expect(String(doc.out[0].json.text)).toContain('storage_read_file');
			const methods = mcpCalls().map((entry) => entry.action);
			if (protocolVersion === '2026-07-28') expect(methods).toEqual(['tools/call', 'tools/call']);
			else
				expect(methods).toEqual([
					'initialize',
					'notifications/initialized',
					'tools/call',
					'initialize',
					'notifications/initialized',
					'tools/call',
				]);
			expect(
				mcpCalls().find((entry) => entry.action === 'notifications/initialized')?.status ?? 202,
			).toBe(202);
		});

		it('lists every tool across pages and reads files into text and binary data, one handshake for all items', async () => {
			const tools = await runMcp({
				protocolVersion,
				resource: 'tool',
				operation: 'getAll',
				returnAll: true,
			});
			expect(tools.out.map((item) => item.json.name)).toHaveLength(8);

			sandbox.requests.clear();
			const read = await runMcp(
				{
					protocolVersion,
					resource: 'tool',
					operation: 'call',
					tool: 'storage_read_file',
					arguments: `={{ JSON.stringify({ file_hash: $json.i === 0 ? '${binaryHash}' : '${textHash}' }) }}`,
				},
				2,
			);
			expect(read.error).toBeUndefined();
			expect(await read.readBinary(read.out[0], 'data')).toEqual(BYTES);
			expect(JSON.stringify(read.out[1].json)).toContain('Grüße from the sandbox');
			expect(mcpCalls().filter((entry) => entry.action === 'initialize')).toHaveLength(
				protocolVersion === '2026-07-28' ? 0 : 1,
			);
		});
	},
);

describe('MCP resources, server discovery and whole-folder listing', () => {
	it.each(['2026-07-28', '2025-06-18'])(
		'lists resources and templates (protocol %s)',
		async (protocolVersion) => {
			const resources = await runMcp({
				protocolVersion,
				resource: 'resource',
				operation: 'getAll',
				returnAll: true,
			});
			expect(resources.error).toBeUndefined();
			expect(resources.out.map((item) => item.json.uri)).toContain('docs://storage-api');
			const templates = await runMcp({
				protocolVersion,
				resource: 'resource',
				operation: 'getTemplates',
				returnAll: true,
			});
			expect(templates.out.map((item) => item.json.uriTemplate)).toEqual([
				'storage://file/{file_hash}',
				'storage://folder/{folder_hash}',
			]);
		},
	);

	it('discovers the server in the 2026-07-28 mode, and explains the mode in the others', async () => {
		const discovered = await runMcp({
			protocolVersion: '2026-07-28',
			resource: 'server',
			operation: 'discover',
		});
		expect(discovered.out[0].json).toMatchObject({
			supportedVersions: expect.arrayContaining(['2026-07-28']),
			resultType: 'complete',
		});
		const older = await runMcp({
			protocolVersion: '2025-11-25',
			resource: 'server',
			operation: 'discover',
		});
		expect(older.error?.message).toBe('server/discover exists only in protocol version 2026-07-28');
	});

	it('Return All on List Folder continues by raw offset until the end', async () => {
		const account = sandbox.store.accounts.get(DEMO_ACCOUNT.id)!;
		const rootHash = sandbox.store.rootOf(account).hash;
		sandbox.requests.clear();
		const listed = await runMcp({
			resource: 'tool',
			operation: 'call',
			tool: 'storage_list_folder',
			arguments: JSON.stringify({ folder_hash: rootHash, limit: 1 }),
			returnAll: true,
		});
		expect(listed.error).toBeUndefined();
		expect(listed.out.map((item) => item.json.name)).toEqual(
			expect.arrayContaining(['blob.bin', 'notes.txt']),
		);
		expect(
			mcpCalls().filter((entry) => entry.action === 'tools/call').length,
		).toBeGreaterThanOrEqual(listed.out.length);
	});
});

describe('MCP node limits and errors', () => {
	afterEach(() => mcpOf(sandbox.store).reset());

	it('waits out a 429 for the 40 s the endpoint names, on a clock the test controls', async () => {
		mcpOf(sandbox.store).limits.read = [{ limit: 1, windowMs: 40_000 }];
		sandbox.requests.clear();
		slept = [];
		const read = await runMcp(
			{
				resource: 'tool',
				operation: 'call',
				tool: 'storage_read_file',
				arguments: JSON.stringify({ file_hash: textHash }),
			},
			2,
		);
		expect(read.error).toBeUndefined();
		expect(read.out).toHaveLength(2);
		expect(mcpCalls().map((entry) => entry.status)).toEqual([200, 429, 200]);
		expect(slept).toEqual([40_000]);
	});

	it('fails at once, naming the time, when the window outlasts Max Rate-Limit Wait', async () => {
		mcpOf(sandbox.store).limits.read = [{ limit: 1, windowMs: 90_000 }];
		sandbox.requests.clear();
		slept = [];
		const read = await runMcp(
			{
				resource: 'tool',
				operation: 'call',
				tool: 'storage_read_file',
				arguments: JSON.stringify({ file_hash: textHash }),
			},
			2,
		);
		expect(read.error?.message).toBe(
			"The MCP endpoint's rate limit was exceeded (429): it asks to retry after 90 s, longer than the 60 s this node may wait",
		);
		expect(mcpCalls().map((entry) => entry.status)).toEqual([200, 429]);
		expect(slept).toEqual([]);
	});

	it("the Bearer credential's test calls a tool in the per-request revision, which needs no handshake", async () => {
		sandbox.requests.clear();
		const data = {
			userId: String(DEMO_ACCOUNT.id),
			apiToken: DEMO_ACCOUNT.token,
			baseUrl: sandbox.baseUrl,
			aiUrl: sandbox.baseUrl,
		};
		expect(await testCredential('cloudStorageBearerApi', data)).toMatchObject({ status: 'OK' });
		expect(mcpCalls().map((entry) => [entry.action, entry.status])).toEqual([['tools/call', 200]]);
		expect(
			await testCredential('cloudStorageBearerApi', { ...data, apiToken: 'wrong' }),
		).toMatchObject({ status: 'Error' });
	});

	it('reports a private tool without a credential, a tool error and an unknown tool', async () => {
		const anonymous = await runMcp({
			authentication: 'none',
			baseUrl: sandbox.baseUrl,
			resource: 'tool',
			operation: 'call',
			tool: 'storage_get_root_folder',
		});
		expect(anonymous.error?.message).toBe('The MCP endpoint rejected the bearer token (401)');
		const missing = await runMcp({
			resource: 'tool',
			operation: 'call',
			tool: 'storage_get_file_info',
			arguments: '{"file_hash":"nope00"}',
		});
		expect(missing.error?.message).toBe(
			'The tool storage_get_file_info failed: File not found or not accessible',
		);
		const unknown = await runMcp({
			resource: 'tool',
			operation: 'call',
			tool: 'custom',
			customTool: 'storage_delete_file',
		});
		// The sandbox's tool list (tools/list) does not offer it: reported as unknown, with the tools offered.
		expect(unknown.error?.message).toBe('The MCP endpoint has no tool named "storage_delete_file"');
		expect(unknown.error?.description).toContain('storage_get_file_info');
	});

	it('refuses an unpublished doc and reads a docs resource', async () => {
		const unpublished = await runMcp({
			resource: 'resource',
			operation: 'read',
			uri: 'docs://internal-roadmap',
		});
		expect(unpublished.error?.message).toMatch(/Resource not found/);
		const read = await runMcp({ resource: 'resource', operation: 'read', uri: 'docs://dav' });
		expect(read.out[0].json).toMatchObject({
			uri: 'docs://dav',
			contents: [{ mimeType: 'text/markdown' }],
		});
	});

	it('never sends a body over 1 MB', async () => {
		sandbox.requests.clear();
		const { error } = await runMcp({
			resource: 'tool',
			operation: 'call',
			tool: 'storage_search_files',
			arguments: JSON.stringify({ query: 'x'.repeat(1_100_000) }),
		});
		expect(error?.message).toMatch(/over the endpoint's 1 MB limit/);
		expect(mcpCalls()).toEqual([]);
	});
});
