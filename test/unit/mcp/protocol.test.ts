import {
	listAll,
	MAX_BODY_BYTES,
	McpClient,
	McpError,
	rateLimitWaitMs,
	waitingOutRateLimits,
	type McpHttpRequest,
	type McpHttpResponse,
} from '../../../nodes/shared/mcp/protocol';

type Answer = (
	message: Record<string, any>,
	headers: Record<string, string>,
) => Partial<McpHttpResponse> & { result?: unknown; error?: unknown };

function fakeHttp(answer: Answer) {
	const sent: Array<{ message: Record<string, any>; headers: Record<string, string> }> = [];
	const http = async (request: McpHttpRequest): Promise<McpHttpResponse> => {
		const message = JSON.parse(request.body);
		sent.push({ message, headers: request.headers });
		const reply = answer(message, request.headers);
		if (message.id === undefined) return { status: 202, headers: {}, body: '' };
		const body =
			reply.body ??
			JSON.stringify({
				jsonrpc: '2.0',
				id: message.id,
				...(reply.error ? { error: reply.error } : { result: reply.result }),
			});
		return {
			status: reply.status ?? 200,
			headers: reply.headers ?? { 'content-type': 'application/json' },
			body,
		};
	};
	return { http, sent };
}

describe('MCP client, handshake revisions', () => {
	it('initializes once, confirms with a notification, then sends the negotiated version header', async () => {
		const { http, sent } = fakeHttp((message) =>
			message.method === 'initialize'
				? {
						result: { protocolVersion: '2025-06-18', capabilities: {} },
						headers: { 'content-type': 'application/json', 'mcp-session-id': 'S1' },
					}
				: { result: { tools: [] } },
		);
		const client = new McpClient(http, '2025-11-25');
		await client.request('tools/list');
		await client.request('tools/list');
		expect(sent.map((entry) => entry.message.method)).toEqual([
			'initialize',
			'notifications/initialized',
			'tools/list',
			'tools/list',
		]);
		expect(sent[0].message.params).toMatchObject({
			protocolVersion: '2025-11-25',
			clientInfo: { name: 'n8n-nodes-cloud-storage' },
		});
		expect(sent[0].headers['mcp-protocol-version']).toBeUndefined();
		expect(sent[2].headers).toMatchObject({
			'mcp-protocol-version': '2025-06-18',
			'mcp-session-id': 'S1',
			accept: 'application/json, text/event-stream',
		});
		expect(sent[2].headers['mcp-method']).toBeUndefined();
		expect(sent[1].message.id).toBeUndefined();
	});

	it('refuses a server that answers with a revision it does not speak', async () => {
		const { http } = fakeHttp(() => ({ result: { protocolVersion: '2030-01-01' } }));
		await expect(new McpClient(http, '2025-06-18').request('tools/list')).rejects.toThrow(
			/offered protocol version "2030-01-01"/,
		);
	});

	it('reads a JSON-RPC answer sent as an event stream', async () => {
		const { http } = fakeHttp((message) =>
			message.method === 'initialize'
				? { result: { protocolVersion: '2025-03-26' } }
				: {
						headers: { 'content-type': 'text/event-stream' },
						body: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { ok: true } })}\n\n`,
					},
		);
		expect(await new McpClient(http, '2025-03-26').request('ping')).toEqual({ ok: true });
	});
});

describe('MCP client, 2026-07-28', () => {
	it('sends no handshake; every request carries _meta and the Mcp-Method / Mcp-Name headers', async () => {
		const { http, sent } = fakeHttp(() => ({ result: { content: [], resultType: 'complete' } }));
		const client = new McpClient(http, '2026-07-28');
		await client.request('tools/call', { name: 'storage_get_doc', arguments: { uri: 'docs://x' } });
		await client.request('resources/read', { uri: 'docs://x' });
		await client.discover();
		expect(sent.map((entry) => entry.message.method)).toEqual([
			'tools/call',
			'resources/read',
			'server/discover',
		]);
		expect(sent[0].headers).toMatchObject({
			'mcp-protocol-version': '2026-07-28',
			'mcp-method': 'tools/call',
			'mcp-name': 'storage_get_doc',
		});
		expect(sent[1].headers['mcp-name']).toBe('docs://x');
		expect(sent[2].headers['mcp-name']).toBeUndefined();
		expect(sent[0].message.params._meta).toEqual({
			'io.modelcontextprotocol/protocolVersion': '2026-07-28',
			'io.modelcontextprotocol/clientCapabilities': {},
			'io.modelcontextprotocol/clientInfo': {
				name: 'n8n-nodes-cloud-storage',
				version: expect.any(String),
			},
		});
	});

	it('refuses a result that is not complete', async () => {
		const { http } = fakeHttp(() => ({ result: { resultType: 'input_required' } }));
		await expect(
			new McpClient(http, '2026-07-28').request('tools/call', { name: 'x' }),
		).rejects.toThrow(/result type "input_required"/);
	});
});

describe('MCP client, limits and errors', () => {
	it('refuses an unknown protocol version without sending anything', () => {
		expect(
			() => new McpClient(async () => ({ status: 200, headers: {}, body: '' }), '2024-01-01'),
		).toThrow(/Supported: 2026-07-28, 2025-11-25/);
	});

	it('refuses a body over 1 MB before sending', async () => {
		const { http, sent } = fakeHttp(() => ({ result: {} }));
		const client = new McpClient(http, '2026-07-28');
		const error = await client
			.request('tools/call', { name: 'x', arguments: { blob: 'a'.repeat(MAX_BODY_BYTES) } })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(McpError);
		expect((error as McpError).kind).toBe('too-large');
		expect(sent).toEqual([]);
	});

	it('raises JSON-RPC errors with their code', async () => {
		const { http } = fakeHttp(() => ({ error: { code: -32602, message: 'Unknown tool: nope' } }));
		const error = (await new McpClient(http, '2026-07-28')
			.request('tools/call', { name: 'nope' })
			.catch((e: unknown) => e)) as McpError;
		expect(error).toMatchObject({ kind: 'rpc', code: -32602, message: 'Unknown tool: nope' });
	});

	it('follows nextCursor through every page', async () => {
		const { http } = fakeHttp((message) =>
			message.params.cursor === undefined
				? { result: { tools: [{ name: 'a' }], nextCursor: 'p2' } }
				: { result: { tools: [{ name: 'b' }] } },
		);
		const tools = await listAll(new McpClient(http, '2026-07-28'), 'tools/list', 'tools');
		expect(tools.map((tool) => tool.name)).toEqual(['a', 'b']);
	});
});

describe('rate limits', () => {
	const limited = (message: string, headers: Record<string, string> = {}) => ({
		status: 429,
		headers,
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32029, message } }),
	});

	it('reads the retry time from Retry-After, else from the JSON-RPC error message', () => {
		expect(rateLimitWaitMs(limited('Rate limit exceeded; retry after 40 seconds'))).toBe(40_000);
		expect(rateLimitWaitMs(limited('slow down', { 'retry-after': '12' }))).toBe(12_000);
		expect(rateLimitWaitMs(limited('Too many requests'))).toBeUndefined();
	});

	it('waits the named time once and resends; fails at once past the maximum; backs off a while without a time', async () => {
		const slept: number[] = [];
		const answers = [limited('retry after 40 seconds'), { status: 200, headers: {}, body: '{}' }];
		const http = waitingOutRateLimits(async () => answers.shift()!, {
			maxWaitMs: 60_000,
			sleep: async (ms) => void slept.push(ms),
		});
		expect((await http({ body: '', headers: {} })).status).toBe(200);
		expect(slept).toEqual([40_000]);
		const tooLong = waitingOutRateLimits(async () => limited('retry after 61 seconds'), {
			maxWaitMs: 60_000,
			sleep: async () => undefined,
		});
		await expect(tooLong({ body: '', headers: {} })).rejects.toMatchObject({
			kind: 'rate-limit',
			message: expect.stringContaining('retry after 61 s'),
		});
		const unnamed = waitingOutRateLimits(async () => limited('Too many requests'), {
			maxWaitMs: 60_000,
			sleep: async () => undefined,
		});
		await expect(unnamed({ body: '', headers: {} })).rejects.toMatchObject({
			kind: 'rate-limit',
			message: expect.stringContaining('named no retry time'),
		});
	});
});
