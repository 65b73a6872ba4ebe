/** The sandbox's MCP endpoint and AI API keep the spec's rules, independently of the nodes. */
import { DEMO_ACCOUNT, startSandbox } from '../../sandbox/server';
import { mcpOf } from '../../sandbox/mcp/state';
import { setModelListing } from '../../sandbox/ai/models';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

const BEARER = `Bearer ${DEMO_ACCOUNT.id}:${DEMO_ACCOUNT.token}`;
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

async function mcp(
	body: unknown,
	headers: Record<string, string> = {},
	path = '/api/mcp',
	method = 'POST',
) {
	const response = await fetch(`${sandbox.baseUrl}${path}`, {
		method,
		headers: { 'content-type': 'application/json', ...headers },
		body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const call = (name: string, args: object = {}, id = 1) => ({
	jsonrpc: '2.0',
	id,
	method: 'tools/call',
	params: { name, arguments: args },
});
const initialize = async (headers: Record<string, string> = {}) =>
	await mcp(
		{
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: {
				protocolVersion: '2025-06-18',
				capabilities: {},
				clientInfo: { name: 't', version: '1' },
			},
		},
		headers,
	);

describe('sandbox MCP endpoint', () => {
	it('answers GET with 405, and refuses query strings', async () => {
		expect((await mcp(undefined, {}, '/api/mcp', 'GET')).status).toBe(405);
		expect(
			await mcp(call('storage_search_docs', { query: 'ai' }), {}, '/api/mcp?token=x'),
		).toMatchObject({ status: 400 });
	});

	it('refuses a body that is not declared as JSON (MCP and AI)', async () => {
		expect(
			(await mcp(call('storage_search_docs', { query: 'ai' }), { 'content-type': 'text/plain' }))
				.status,
		).toBe(400);
		const ai = await fetch(`${sandbox.baseUrl}/api/generate`, {
			method: 'POST',
			headers: { authorization: BEARER, 'content-type': 'text/plain' },
			body: JSON.stringify({ model: 'qwen3:8b', prompt: 'x', stream: false }),
		});
		expect(ai.status).toBe(400);
	});

	it('lists the supported versions for an unknown MCP-Protocol-Version', async () => {
		const { status, body } = await mcp(call('storage_search_docs', { query: 'ai' }), {
			'mcp-protocol-version': '2030-01-01',
		});
		expect(status).toBe(400);
		expect(body.error.data.supported).toEqual([
			'2024-11-05',
			'2025-03-26',
			'2025-06-18',
			'2025-11-25',
			'2026-07-28',
		]);
	});

	it('refuses a body over 1 MB with 413 and accepts notifications with 202', async () => {
		expect((await mcp(call('storage_search_docs', { query: 'x'.repeat(1_000_000) }))).status).toBe(
			413,
		);
		expect(await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({
			status: 202,
			body: undefined,
		});
	});

	it('negotiates initialize, defaulting to 2025-06-18 for unknown revisions', async () => {
		const init = (protocolVersion: string) =>
			mcp({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } },
			});
		expect((await init('2025-11-25')).body.result.protocolVersion).toBe('2025-11-25');
		expect((await init('1999-01-01')).body.result.protocolVersion).toBe('2025-06-18');
	});

	it('holds 2026-07-28 requests to their headers and _meta, and marks results complete', async () => {
		const headers = {
			'mcp-protocol-version': '2026-07-28',
			accept: 'application/json, text/event-stream',
			'mcp-method': 'tools/call',
			'mcp-name': 'storage_get_doc',
		};
		const good = {
			...call('storage_get_doc', { uri: 'docs://ai-api' }),
			params: { name: 'storage_get_doc', arguments: { uri: 'docs://ai-api' }, _meta: MODERN_META },
		};
		expect((await mcp(good, headers)).body.result).toMatchObject({
			resultType: 'complete',
			structuredContent: { uri: 'docs://ai-api' },
		});
		expect((await mcp(good, { ...headers, 'mcp-name': 'other' })).status).toBe(400);
		expect((await mcp(good, { ...headers, 'mcp-method': 'tools/list' })).status).toBe(400);
		expect((await mcp({ ...good, params: { ...good.params, _meta: {} } }, headers)).status).toBe(
			400,
		);
		const discover = await mcp(
			{ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: MODERN_META } },
			{ ...headers, 'mcp-method': 'server/discover' },
		);
		expect(discover.body.result).toMatchObject({
			resultType: 'complete',
			supportedVersions: expect.arrayContaining(['2026-07-28']),
		});
		const init = await mcp(
			{ jsonrpc: '2.0', id: 3, method: 'initialize', params: { _meta: MODERN_META } },
			{ ...headers, 'mcp-method': 'initialize' },
		);
		expect(init.status).toBe(400);
	});

	it('older revisions need the initialize handshake first (per bearer token, else per IP)', async () => {
		mcpOf(sandbox.store).reset();
		const refused = await mcp(call('storage_get_root_folder'), { authorization: BEARER });
		expect(refused.status).toBe(400);
		expect(refused.body.error.message).toMatch(/Send initialize first/);
		expect((await initialize({ authorization: BEARER })).status).toBe(200);
		expect((await mcp(call('storage_get_root_folder'), { authorization: BEARER })).status).toBe(
			200,
		);
		expect((await mcp(call('storage_search_docs', { query: 'ai' }))).status).toBe(400);
	});

	it('needs the bearer for private tools only, and rejects a wrong one', async () => {
		await initialize();
		await initialize({ authorization: BEARER });
		expect((await mcp(call('storage_get_root_folder'))).status).toBe(401);
		expect(
			(await mcp(call('storage_get_root_folder'), { authorization: 'Bearer 1001:wrong' })).status,
		).toBe(401);
		const root = await mcp(call('storage_get_root_folder'), { authorization: BEARER });
		expect(root.body.result.structuredContent).toMatchObject({ hash: DEMO_ACCOUNT.rootHash });
		expect(
			(await mcp(call('storage_search_docs', { query: 'calendar' }))).body.result.structuredContent
				.results[0],
		).toMatchObject({ uri: 'docs://dav' });
	});

	it('rate-limits per token with the retry seconds in the message', async () => {
		await initialize({ authorization: BEARER });
		mcpOf(sandbox.store).limits.search = [{ limit: 1, windowMs: 60_000 }];
		expect(
			(await mcp(call('storage_search_files', { query: 'a' }), { authorization: BEARER })).status,
		).toBe(200);
		const limited = await mcp(call('storage_search_files', { query: 'a' }), {
			authorization: BEARER,
		});
		expect(limited.status).toBe(429);
		expect(limited.body.error.message).toMatch(/retry after (60|59) seconds/);
		mcpOf(sandbox.store).reset();
	});
});

describe("sandbox AI model listing (GET /api/tags, the sandbox's stand-in)", () => {
	it('lists the models with capabilities for a bearer, 401 without, 404 when switched off', async () => {
		const tags = async (authorization?: string) =>
			await fetch(`${sandbox.baseUrl}/api/tags`, {
				headers: authorization ? { authorization } : {},
			});
		const listed = (await (await tags(BEARER)).json()) as {
			models: Array<{ name: string; capabilities: string[] }>;
		};
		expect(listed.models).toHaveLength(6);
		expect(listed.models.find((model) => model.name === 'phi4:14b')?.capabilities).toEqual([
			'completion',
		]);
		expect((await tags()).status).toBe(401);
		setModelListing(sandbox.store, false);
		expect((await tags(BEARER)).status).toBe(404);
		setModelListing(sandbox.store, true);
	});
});

describe('sandbox AI API', () => {
	const ai = async (path: string, body: object, authorization = BEARER) => {
		const response = await fetch(`${sandbox.baseUrl}${path}`, {
			method: 'POST',
			headers: { authorization, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.status, text: await response.text() };
	};

	it('streams NDJSON by default and answers one JSON object with stream false', async () => {
		const streamed = await ai('/api/generate', { model: 'qwen3:8b', prompt: 'a b', think: false });
		const lines = streamed.text
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(lines.at(-1)).toMatchObject({ done: true, eval_count: 3 });
		expect(lines.map((line) => line.response).join('')).toBe('Echo: a b');
		expect(
			JSON.parse(
				(await ai('/api/generate', { model: 'qwen3:8b', prompt: 'a', stream: false })).text,
			),
		).toMatchObject({ response: 'Echo: a', done: true });
	});

	it('answers a tool call, then the tool result', async () => {
		const tools = [{ type: 'function', function: { name: 'lookup', parameters: {} } }];
		const first = JSON.parse(
			(
				await ai('/api/chat', {
					model: 'gpt-oss:20b',
					stream: false,
					tools,
					messages: [{ role: 'user', content: 'call tool lookup with {"q":1}' }],
				})
			).text,
		);
		expect(first.message.tool_calls).toEqual([
			{ function: { name: 'lookup', arguments: { q: 1 } } },
		]);
		const second = JSON.parse(
			(
				await ai('/api/chat', {
					model: 'gpt-oss:20b',
					stream: false,
					tools,
					messages: [{ role: 'tool', content: '42', tool_name: 'lookup' }],
				})
			).text,
		);
		expect(second.message.content).toBe('Tool lookup returned: 42');
	});

	it.each([
		[
			{
				model: 'phi4:14b',
				stream: false,
				messages: [{ role: 'user', content: 'x' }],
				tools: [{ type: 'function', function: { name: 'f' } }],
			},
			400,
			/does not support tools/,
		],
		[
			{
				model: 'phi4:14b',
				stream: false,
				think: 'low',
				messages: [{ role: 'user', content: 'x' }],
			},
			400,
			/does not support thinking/,
		],
		[
			{
				model: 'qwen3:8b',
				stream: false,
				messages: [{ role: 'user', content: 'x', images: ['R0lGODlh'] }],
			},
			400,
			/does not support images/,
		],
		[{ model: 'nope:1b', stream: false, messages: [] }, 404, /not found/],
		[
			{ model: 'qwen3:8b', stream: false, messages: [{ role: 'bot', content: 'x' }] },
			400,
			/invalid message/,
		],
	])('refuses %j', async (body, status, error) => {
		const answer = await ai('/api/chat', body);
		expect(answer.status).toBe(status);
		expect(JSON.parse(answer.text).error).toMatch(error);
	});

	it('refuses a missing or wrong bearer', async () => {
		expect(
			(await ai('/api/chat', { model: 'qwen3:8b', messages: [] }, 'Bearer 1001:wrong')).status,
		).toBe(401);
	});
});
