import nock from 'nock';

import { mcpClock } from '../../../nodes/shared/mcp/transport';
import { AUTHORIZATION, BASE, BEARER, runNode, unexpectedRequests } from '../ai/run-ai';
import { offlineWithNock } from '../../unit/offline';

// The clock that waits out a 429: the test's own, so nothing waits in real time.
const realSleep = mcpClock.sleep;
let slept: number[] = [];
beforeEach(() => {
	slept = [];
	mcpClock.sleep = async (ms: number) => void slept.push(ms);
});
afterAll(() => (mcpClock.sleep = realSleep));

offlineWithNock();

const MCP = 'n8n-nodes-cloud-storage.cloudStorageMcp';
const run = async (
	parameters: Record<string, unknown>,
	options: Parameters<typeof runNode>[2] = {},
) => await runNode(MCP, parameters as never, options);

const rpcResult = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });
const structured = (data: unknown) => ({
	content: [{ type: 'text', text: JSON.stringify(data) }],
	structuredContent: data,
	resultType: 'complete',
});

describe('MCP node', () => {
	it('searches the docs without a credential: no Authorization header, one item per result', async () => {
		let body: Record<string, any> = {};
		const scope = nock(BASE, { badheaders: ['authorization'] })
			.post('/api/mcp', (sent) => ((body = sent), true))
			.matchHeader('mcp-method', 'tools/call')
			.matchHeader('mcp-name', 'storage_search_docs')
			.reply(200, (_uri, sent) =>
				rpcResult(
					(sent as { id: number }).id,
					structured({
						results: [
							{ uri: 'docs://a', title: 'A' },
							{ uri: 'docs://b', title: 'B' },
						],
					}),
				),
			);
		const { out, error } = await run({
			authentication: 'none',
			baseUrl: BASE,
			resource: 'docs',
			operation: 'search',
			query: 'upload',
			limit: 5,
		});
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(body).toMatchObject({
			jsonrpc: '2.0',
			method: 'tools/call',
			params: { name: 'storage_search_docs', arguments: { query: 'upload', limit: 5 } },
		});
		expect(out.map((item) => item.json.uri)).toEqual(['docs://a', 'docs://b']);
	});

	it('runs the handshake once per node run for older revisions and calls a private tool with the bearer token', async () => {
		const methods: string[] = [];
		nock(BASE)
			.post('/api/mcp')
			.times(3)
			.matchHeader('authorization', AUTHORIZATION)
			.reply((_uri, sent) => {
				const message = sent as { id?: number; method: string };
				methods.push(message.method);
				if (message.id === undefined) return [202, ''];
				if (message.method === 'initialize')
					return [200, rpcResult(message.id, { protocolVersion: '2025-06-18', capabilities: {} })];
				return [200, rpcResult(message.id, structured({ hash: 'q7RkZ2', name: 'ROOT' }))];
			});
		const { out, error } = await run({
			protocolVersion: '2025-06-18',
			resource: 'tool',
			operation: 'call',
			tool: 'storage_get_root_folder',
			arguments: '{}',
		});
		expect(error).toBeUndefined();
		expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
		expect(out[0].json).toEqual({
			tool: 'storage_get_root_folder',
			result: { hash: 'q7RkZ2', name: 'ROOT' },
		});
	});

	it('waits out a 429 for the 40 s the endpoint names (within the 60 s default), then succeeds', async () => {
		const limited = {
			jsonrpc: '2.0',
			id: 1,
			error: { code: -32029, message: 'Rate limit exceeded; retry after 40 seconds' },
		};
		nock(BASE).post('/api/mcp').reply(429, limited);
		nock(BASE)
			.post('/api/mcp')
			.reply(200, (_uri, sent) =>
				rpcResult((sent as { id: number }).id, structured({ uri: 'docs://a', text: 'T' })),
			);
		const { out, error } = await run({ resource: 'docs', operation: 'get', uri: 'docs://a' });
		expect(error).toBeUndefined();
		// One wait of the whole retry time, never a retry inside the window.
		expect(slept).toEqual([40_000]);
		expect(out[0].json).toEqual({ uri: 'docs://a', text: 'T' });
	});

	it('fails at once, naming the time, when the retry time is longer than Max Rate-Limit Wait', async () => {
		const limited = {
			jsonrpc: '2.0',
			id: 1,
			error: { code: -32029, message: 'Rate limit exceeded; retry after 40 seconds' },
		};
		const scope = nock(BASE).post('/api/mcp').reply(429, limited);
		const { error } = await run({
			resource: 'docs',
			operation: 'get',
			uri: 'docs://a',
			maxRateLimitWait: 30,
		});
		expect(scope.isDone()).toBe(true);
		expect(slept).toEqual([]);
		expect(error?.message).toBe(
			"The MCP endpoint's rate limit was exceeded (429): it asks to retry after 40 s, longer than the 30 s this node may wait",
		);
		expect(error?.description).toMatch(/Raise "Max Rate-Limit Wait"/);
	});

	it('does not wait twice beyond the maximum: a second 429 that would pass it fails, naming both times', async () => {
		const limited = (seconds: number) => ({
			jsonrpc: '2.0',
			id: 1,
			error: { code: -32029, message: `Rate limit exceeded; retry after ${seconds} seconds` },
		});
		nock(BASE).post('/api/mcp').reply(429, limited(40));
		nock(BASE).post('/api/mcp').reply(429, limited(30));
		const { error } = await run({ resource: 'docs', operation: 'get', uri: 'docs://a' });
		expect(slept).toEqual([40_000]);
		expect(error?.message).toBe(
			"The MCP endpoint's rate limit was exceeded (429): it asks to retry after 30 s after waiting 40 s already, longer than the 60 s this node may wait",
		);
	});

	it('backs off (bounded) on a 429 that names no retry time, then succeeds', async () => {
		const tooMany = {
			jsonrpc: '2.0',
			id: 1,
			error: { code: -32029, message: 'Too many requests' },
		};
		nock(BASE).post('/api/mcp').times(2).reply(429, tooMany);
		nock(BASE)
			.post('/api/mcp')
			.reply(200, (_uri, sent) =>
				rpcResult((sent as { id: number }).id, structured({ uri: 'docs://a', text: 'T' })),
			);
		const { out, error } = await run({ resource: 'docs', operation: 'get', uri: 'docs://a' });
		expect(error).toBeUndefined();
		expect(out[0].json).toEqual({ uri: 'docs://a', text: 'T' });
		// The transport's back-off for 429s: 0.5 s then 1 s ceilings, each waited at least half (jitter).
		expect(slept).toHaveLength(2);
		expect(slept[0]).toBeGreaterThanOrEqual(250);
		expect(slept[0]).toBeLessThanOrEqual(500);
		expect(slept[1]).toBeGreaterThanOrEqual(500);
		expect(slept[1]).toBeLessThanOrEqual(1000);
	});

	it('gives up after 5 attempts when every 429 names no retry time, saying so', async () => {
		const tooMany = {
			jsonrpc: '2.0',
			id: 1,
			error: { code: -32029, message: 'Too many requests' },
		};
		const scope = nock(BASE).post('/api/mcp').times(5).reply(429, tooMany);
		const { error } = await run({ resource: 'docs', operation: 'get', uri: 'docs://a' });
		expect(scope.isDone()).toBe(true);
		expect(slept).toHaveLength(4);
		expect(error?.message).toMatch(
			/^The MCP endpoint's rate limit was exceeded \(429\) and it named no retry time; still limited after 5 attempts over \d+ s$/,
		);
		expect(error?.description).toMatch(/Raise "Max Rate-Limit Wait"/);
	});

	it('Return All on List Folder pages by raw offset: a short page is not the end', async () => {
		const offsets: Array<[number, number]> = [];
		const pages: Record<number, unknown> = {
			0: { items: [{ hash: 'a' }], offset: 0, limit: 2, next_offset: 2 },
			2: { items: [{ hash: 'c' }, { hash: 'd' }], offset: 2, limit: 2, next_offset: 4 },
			4: { items: [], offset: 4, limit: 2, next_offset: null },
		};
		nock(BASE)
			.post('/api/mcp')
			.times(3)
			.reply((_uri, sent) => {
				const { id, params } = sent as {
					id: number;
					params: { arguments: { offset: number; limit: number } };
				};
				offsets.push([params.arguments.offset, params.arguments.limit]);
				return [200, rpcResult(id, structured(pages[params.arguments.offset]))];
			});
		const { out, error } = await run({
			resource: 'tool',
			operation: 'call',
			tool: 'storage_list_folder',
			arguments: '{"folder_hash":"F","limit":2}',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(offsets).toEqual([
			[0, 2],
			[2, 2],
			[4, 2],
		]);
		expect(out.map((item) => item.json.hash)).toEqual(['a', 'c', 'd']);
	});

	it('lists resources and resource templates, and discovers the server in the 2026-07-28 mode', async () => {
		const methods: string[] = [];
		nock(BASE)
			.post('/api/mcp')
			.times(3)
			.reply((_uri, sent) => {
				const { id, method } = sent as { id: number; method: string };
				methods.push(method);
				const result =
					method === 'resources/list'
						? { resources: [{ uri: 'docs://a', name: 'A' }], resultType: 'complete' }
						: method === 'resources/templates/list'
							? {
									resourceTemplates: [{ uriTemplate: 'storage://file/{file_hash}', name: 'File' }],
									resultType: 'complete',
								}
							: { supportedVersions: ['2026-07-28'], resultType: 'complete' };
				return [200, rpcResult(id, result)];
			});
		expect(
			(await run({ resource: 'resource', operation: 'getAll', returnAll: true })).out.map(
				(item) => item.json.uri,
			),
		).toEqual(['docs://a']);
		expect(
			(await run({ resource: 'resource', operation: 'getTemplates', returnAll: true })).out[0].json,
		).toMatchObject({ uriTemplate: 'storage://file/{file_hash}' });
		expect((await run({ resource: 'server', operation: 'discover' })).out[0].json).toMatchObject({
			supportedVersions: ['2026-07-28'],
		});
		expect(methods).toEqual(['resources/list', 'resources/templates/list', 'server/discover']);
		const older = await run({
			resource: 'server',
			operation: 'discover',
			protocolVersion: '2025-06-18',
		});
		expect(older.error?.message).toBe('server/discover exists only in protocol version 2026-07-28');
	});

	it('turns a base64 file of Read File into binary data', async () => {
		const bytes = Buffer.from([0, 1, 2, 250]);
		nock(BASE)
			.post('/api/mcp')
			.reply(200, (_uri, sent) =>
				rpcResult((sent as { id: number }).id, {
					content: [
						{
							type: 'resource',
							resource: {
								uri: 'storage://file/F1',
								name: 'a.bin',
								mimeType: 'application/octet-stream',
								blob: bytes.toString('base64'),
							},
						},
					],
				}),
			);
		const result = await run({
			resource: 'tool',
			operation: 'call',
			tool: 'storage_read_file',
			arguments: '{"file_hash":"F1"}',
		});
		expect(result.error).toBeUndefined();
		expect(result.out[0].binary?.data).toMatchObject({ fileName: 'a.bin' });
		expect(await result.readBinary(result.out[0], 'data')).toEqual(bytes);
	});

	it('reports a tool failure and an unknown tool clearly', async () => {
		nock(BASE)
			.post('/api/mcp')
			.reply(200, (_u, sent) =>
				rpcResult((sent as { id: number }).id, {
					content: [{ type: 'text', text: 'File not found' }],
					isError: true,
				}),
			);
		const failed = await run({
			resource: 'tool',
			operation: 'call',
			tool: 'storage_get_file_info',
			arguments: '{"file_hash":"x"}',
		});
		expect(failed.error?.message).toBe('The tool storage_get_file_info failed: File not found');
		nock(BASE)
			.post('/api/mcp')
			.reply(200, (_u, sent) => ({
				jsonrpc: '2.0',
				id: (sent as { id: number }).id,
				error: { code: -32602, message: 'Unknown tool: nope' },
			}));
		nock(BASE)
			.post('/api/mcp')
			.matchHeader('mcp-method', 'tools/list')
			.reply(200, (_u, sent) =>
				rpcResult((sent as { id: number }).id, {
					tools: [{ name: 'storage_search_files' }, { name: 'storage_get_file_info' }],
				}),
			);
		const unknown = await run({
			resource: 'tool',
			operation: 'call',
			tool: 'custom',
			customTool: 'nope',
		});
		expect(unknown.error?.message).toBe('The MCP endpoint has no tool named "nope"');
		expect(unknown.error?.description).toBe(
			'Check the tool name (names are case-sensitive). Tool → Get Many lists the tools the endpoint offers; it offers: storage_search_files, storage_get_file_info.',
		);
		expect(unknown.error?.description).not.toMatch(/arguments/);
	});

	it('keeps the arguments hint when the refused tool is one the endpoint offers', async () => {
		nock(BASE)
			.post('/api/mcp')
			.matchHeader('mcp-method', 'tools/call')
			.reply(200, (_u, sent) => ({
				jsonrpc: '2.0',
				id: (sent as { id: number }).id,
				error: { code: -32602, message: 'Invalid params: query is required' },
			}));
		nock(BASE)
			.post('/api/mcp')
			.matchHeader('mcp-method', 'tools/list')
			.reply(200, (_u, sent) =>
				rpcResult((sent as { id: number }).id, { tools: [{ name: 'storage_search_files' }] }),
			);
		const { error } = await run({
			resource: 'tool',
			operation: 'call',
			tool: 'custom',
			customTool: 'storage_search_files',
			arguments: '{}',
		});
		expect(error?.message).toBe(
			'The MCP endpoint reported an error: Invalid params: query is required',
		);
		expect(error?.description).toMatch(/The arguments do not match what the tool expects/);
	});

	it('explains 401 and a 400 listing the supported versions', async () => {
		nock(BASE)
			.post('/api/mcp')
			.reply(401, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Unauthorized' } });
		const denied = await run({ resource: 'tool', operation: 'getAll' });
		expect(denied.error?.message).toMatch(/rejected the bearer token \(401\)/);
		nock(BASE)
			.post('/api/mcp')
			.reply(400, {
				jsonrpc: '2.0',
				id: null,
				error: { code: -32600, message: 'Unsupported MCP-Protocol-Version; supported: 2025-06-18' },
			});
		const rejected = await run({ resource: 'tool', operation: 'getAll' });
		expect(rejected.error?.message).toMatch(/rejected the request \(400\)/);
		expect(rejected.error?.description).toMatch(/supported: 2025-06-18/);
	});

	describe('bad input fails before any request', () => {
		it.each([
			[
				'an unknown protocol version',
				{ protocolVersion: '2024-01-01', resource: 'tool', operation: 'getAll' },
				/Unsupported MCP protocol version "2024-01-01"/,
			],
			[
				'a body over 1 MB',
				{
					resource: 'tool',
					operation: 'call',
					tool: 'storage_search_files',
					arguments: JSON.stringify({ query: 'x'.repeat(1_000_001) }),
				},
				/over the endpoint's 1 MB limit/,
			],
			[
				'arguments that are not JSON',
				{ resource: 'tool', operation: 'call', arguments: '{oops' },
				/arguments are not valid JSON/,
			],
			[
				'arguments that are an array',
				{ resource: 'tool', operation: 'call', arguments: '[1]' },
				/must be a JSON object/,
			],
			[
				'an empty search',
				{ resource: 'docs', operation: 'search', query: ' ' },
				/search query is empty/,
			],
			[
				'a doc URI of another scheme',
				{ resource: 'docs', operation: 'get', uri: 'file:///etc/passwd' },
				/is not a docs:\/\/ URI/,
			],
			[
				'a resource URI without scheme',
				{ resource: 'resource', operation: 'read', uri: '/etc/passwd' },
				/is not a resource URI/,
			],
		])('%s', async (_name, parameters, message) => {
			const unexpected = unexpectedRequests();
			const { error } = await run(parameters);
			expect(error?.message).toMatch(message);
			expect(unexpected).toEqual([]);
		});

		it('a base URL with a query string', async () => {
			const unexpected = unexpectedRequests();
			const { error } = await run(
				{ resource: 'tool', operation: 'getAll' },
				{ credentials: { cloudStorageBearerApi: { ...BEARER, baseUrl: `${BASE}/?token=abc` } } },
			);
			expect(error?.message).toMatch(/must not contain a query string/);
			expect(unexpected).toEqual([]);
		});
	});
});
