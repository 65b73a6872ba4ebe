import { bearerOf } from '../ai/bearer.ts';
import { empty, json, type Reply } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import type { Ctx, Route } from '../router.ts';
import { fileRights, folderRights } from '../rights.ts';
import type { Account } from '../types.ts';
import { folderInfo } from '../views.ts';
import { DOCS, docByUri } from '../mcp/docs.ts';
import { mcpOf, type LimitBucket } from '../mcp/state.ts';
import {
	fileContents,
	MAX_INLINE_BYTES,
	TOOLS,
	toolByName,
	type ToolContext,
} from '../mcp/tools.ts';

/**
 * The hosted MCP endpoint, `POST {base_url}/api/mcp`: stateless JSON-RPC 2.0 (no session id; a request
 * without a prior `initialize` is served too), in both modes of the spec. Choices where the spec is
 * silent: a body over 1 MB is 413; protocol-level problems answer with an HTTP status and a JSON-RPC
 * error body; method and tool problems are 200 with a JSON-RPC error; rate limits are 429 with
 * `retry after N seconds` in the message and no Retry-After header; `tools/list` pages by 5. Revisions
 * before 2026-07-28 are "accepted with an initialize handshake": a client (bearer token, else IP) that
 * has not sent `initialize` gets 400 for anything but `initialize` and `ping`.
 */
export const MCP_MAX_BODY_BYTES = 1_000_000;
export const MODERN_VERSION = '2026-07-28';
export const HANDSHAKE_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
export const SUPPORTED_VERSIONS = [...HANDSHAKE_VERSIONS, MODERN_VERSION];
const DEFAULT_INITIALIZE_VERSION = '2025-06-18';
const TOOLS_PAGE = 5;
const META = 'io.modelcontextprotocol/';

const SERVER_INFO = { name: 'cloud-storage-sandbox', version: '1.0.0' };
const CAPABILITIES = {
	tools: { listChanged: false },
	resources: { listChanged: false, subscribe: false },
};

type Id = string | number | null;
type Params = Record<string, unknown>;

function rpcError(id: Id, code: number, message: string, status = 200, data?: unknown): Reply {
	return json(
		{ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } },
		status,
	);
}

function header(req: SandboxRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

interface Call {
	id: Id;
	method: string;
	params: Params;
	modern: boolean;
	caller?: Account;
	token?: string;
}

/** Checks that need no JSON: query string, size, protocol header. */
function transportProblem(req: SandboxRequest): Reply | undefined {
	if (req.rawUrl.includes('?')) {
		return rpcError(
			null,
			-32600,
			'Query-string parameters are rejected; send parameters in the JSON body',
			400,
		);
	}
	const type = (header(req, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
	if (type !== 'application/json')
		return rpcError(null, -32600, 'Content-Type must be application/json', 400);
	if ((req.raw?.length ?? 0) > MCP_MAX_BODY_BYTES) {
		return rpcError(
			null,
			-32600,
			`Request body exceeds the 1 MB limit (${MCP_MAX_BODY_BYTES} bytes)`,
			413,
		);
	}
	const version = header(req, 'mcp-protocol-version');
	if (version !== undefined && !SUPPORTED_VERSIONS.includes(version)) {
		return rpcError(
			null,
			-32600,
			`Unsupported MCP-Protocol-Version "${version}"; supported: ${SUPPORTED_VERSIONS.join(', ')}`,
			400,
			{
				supported: SUPPORTED_VERSIONS,
			},
		);
	}
	return undefined;
}

/** The 2026-07-28 rules: headers mirror the body, and the version travels in `_meta` too. */
function modernProblem(
	req: SandboxRequest,
	id: Id,
	method: string,
	params: Params,
): Reply | undefined {
	if (header(req, 'mcp-method') !== method)
		return rpcError(
			id,
			-32600,
			'Mcp-Method header missing or not equal to the JSON-RPC method',
			400,
		);
	const accept = header(req, 'accept') ?? '';
	if (!/application\/json/.test(accept) || !/text\/event-stream/.test(accept)) {
		return rpcError(id, -32600, 'Accept must list application/json and text/event-stream', 400);
	}
	if (method === 'tools/call' || method === 'resources/read') {
		const name = method === 'tools/call' ? params.name : params.uri;
		if (header(req, 'mcp-name') !== name)
			return rpcError(
				id,
				-32600,
				'Mcp-Name header missing or not equal to params.name / params.uri',
				400,
			);
	}
	const meta = (params._meta ?? {}) as Params;
	if (meta[`${META}protocolVersion`] !== MODERN_VERSION) {
		return rpcError(
			id,
			-32600,
			`params._meta["${META}protocolVersion"] must be ${MODERN_VERSION}`,
			400,
		);
	}
	if (method === 'initialize') {
		return rpcError(
			id,
			-32600,
			'Revision 2026-07-28 has no initialize handshake; use server/discover',
			400,
		);
	}
	return undefined;
}

function limited(
	call: Call,
	ctx: Ctx,
	req: SandboxRequest,
	bucket: LimitBucket,
): Reply | undefined {
	const key = bucket === 'docs' ? `ip:${req.ip}` : `token:${call.caller!.id}:${call.token}`;
	const wait = mcpOf(ctx.store).hit(bucket, key, ctx.store.now());
	return wait === undefined
		? undefined
		: rpcError(call.id, -32029, `Rate limit exceeded; retry after ${wait} seconds`, 429);
}

const unauthorized = (id: Id) =>
	rpcError(id, -32001, 'Unauthorized: send Authorization: Bearer <user_id>:<api_token>', 401);

function ok(call: Call, result: Params): Reply {
	return json({
		jsonrpc: '2.0',
		id: call.id,
		result: call.modern ? { ...result, resultType: 'complete' } : result,
	});
}

function toolContext(call: Call, ctx: Ctx): ToolContext {
	return { store: ctx.store, caller: call.caller, baseUrl: ctx.baseUrl, webUrl: ctx.webUrl };
}

function callTool(call: Call, ctx: Ctx, req: SandboxRequest): Reply {
	const tool = toolByName(call.params.name);
	if (!tool) return rpcError(call.id, -32602, `Unknown tool: ${String(call.params.name)}`);
	if (tool.access === 'private' && !call.caller) return unauthorized(call.id);
	const args = call.params.arguments ?? {};
	if (typeof args !== 'object' || Array.isArray(args))
		return rpcError(call.id, -32602, 'arguments must be an object');
	const limit = limited(call, ctx, req, tool.bucket);
	if (limit) return limit;
	const outcome = tool.run(args as Params, toolContext(call, ctx));
	return 'invalid' in outcome
		? rpcError(call.id, -32602, outcome.invalid)
		: ok(call, outcome.result);
}

function readResource(call: Call, ctx: Ctx, req: SandboxRequest): Reply {
	const uri = String(call.params.uri ?? '');
	const notFound = () => rpcError(call.id, -32002, `Resource not found: ${uri.slice(0, 200)}`);
	if (uri.startsWith('docs://')) {
		const doc = docByUri(uri);
		if (!doc) return notFound();
		return (
			limited(call, ctx, req, 'docs') ??
			ok(call, {
				contents: [{ uri, mimeType: 'text/markdown', text: `# ${doc.title}\n\n${doc.text}` }],
			})
		);
	}
	const match = /^storage:\/\/(file|folder)\/([A-Za-z0-9]+)$/.exec(uri);
	if (!match) return notFound();
	if (!call.caller) return unauthorized(call.id);
	const tools = toolContext(call, ctx);
	if (match[1] === 'folder') {
		const folder = ctx.store.folder(match[2]);
		if (!folder || !folderRights(folder, call.caller).allow_view) return notFound();
		const info = folderInfo(ctx.store, folder, call.caller, false);
		return (
			limited(call, ctx, req, 'listing') ??
			ok(call, { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(info) }] })
		);
	}
	const file = ctx.store.file(match[2]);
	if (!file || !fileRights(ctx.store, file, call.caller).allow_download) return notFound();
	const limit = limited(call, ctx, req, 'read');
	if (limit) return limit;
	const contents = fileContents(tools, file, MAX_INLINE_BYTES).map((part) =>
		part.type === 'resource'
			? part.resource
			: { uri, mimeType: 'application/json', text: part.text },
	);
	return ok(call, { contents });
}

function dispatch(call: Call, ctx: Ctx, req: SandboxRequest): Reply {
	switch (call.method) {
		case 'initialize': {
			const asked = String(call.params.protocolVersion ?? '');
			const protocolVersion = HANDSHAKE_VERSIONS.includes(asked)
				? asked
				: DEFAULT_INITIALIZE_VERSION;
			return ok(call, { protocolVersion, capabilities: CAPABILITIES, serverInfo: SERVER_INFO });
		}
		case 'server/discover':
			if (!call.modern)
				return rpcError(call.id, -32601, 'server/discover belongs to revision 2026-07-28');
			return ok(call, {
				supportedVersions: SUPPORTED_VERSIONS,
				capabilities: CAPABILITIES,
				serverInfo: SERVER_INFO,
			});
		case 'ping':
			return ok(call, {});
		case 'tools/list': {
			const start = Number(call.params.cursor ?? 0);
			if (!Number.isInteger(start) || start < 0) return rpcError(call.id, -32602, 'Invalid cursor');
			const page = TOOLS.slice(start, start + TOOLS_PAGE).map(
				({ name, description, inputSchema }) => ({ name, description, inputSchema }),
			);
			const next =
				start + TOOLS_PAGE < TOOLS.length ? { nextCursor: String(start + TOOLS_PAGE) } : {};
			return ok(call, { tools: page, ...next });
		}
		case 'tools/call':
			return callTool(call, ctx, req);
		case 'resources/list':
			return ok(call, {
				resources: DOCS.filter((doc) => doc.published).map((doc) => ({
					uri: `docs://${doc.id}`,
					name: doc.title,
					mimeType: 'text/markdown',
				})),
			});
		case 'resources/templates/list':
			if (!call.caller) return unauthorized(call.id);
			return ok(call, {
				resourceTemplates: [
					{ uriTemplate: 'storage://file/{file_hash}', name: 'File content' },
					{ uriTemplate: 'storage://folder/{folder_hash}', name: 'Folder details' },
				],
			});
		case 'resources/read':
			return readResource(call, ctx, req);
		default:
			return rpcError(call.id, -32601, `Method not found: ${call.method}`);
	}
}

function handle(req: SandboxRequest, ctx: Ctx): Reply {
	const problem = transportProblem(req);
	if (problem) return problem;
	let message: unknown;
	try {
		message = JSON.parse((req.raw ?? Buffer.alloc(0)).toString('utf8'));
	} catch {
		return rpcError(null, -32700, 'Parse error: the body is not JSON', 400);
	}
	if (!message || typeof message !== 'object' || Array.isArray(message)) {
		return rpcError(
			null,
			-32600,
			'Invalid request: one JSON-RPC object per request (no batches)',
			400,
		);
	}
	const { jsonrpc, id, method, params } = message as Params;
	const validId = id === undefined || typeof id === 'string' || typeof id === 'number';
	if (
		jsonrpc !== '2.0' ||
		!validId ||
		(params !== undefined && (typeof params !== 'object' || Array.isArray(params)))
	) {
		return rpcError(
			null,
			-32600,
			'Invalid request: jsonrpc must be "2.0", id a string or number, params an object',
			400,
		);
	}
	// Answers from the client (no method) and notifications are accepted without a body.
	if (typeof method !== 'string' || id === undefined) return empty(202);
	const modern = header(req, 'mcp-protocol-version') === MODERN_VERSION;
	const callParams = (params ?? {}) as Params;
	if (modern) {
		const modernIssue = modernProblem(req, id as Id, method, callParams);
		if (modernIssue) return modernIssue;
	}
	const bearer = bearerOf(req, ctx.store);
	if (bearer.kind === 'failed') return unauthorized(id as Id);
	const call: Call = {
		id: id as Id,
		method,
		params: callParams,
		modern,
		...(bearer.kind === 'ok' ? { caller: bearer.account, token: bearer.token } : {}),
	};
	if (!modern) {
		const client =
			bearer.kind === 'ok' ? `token:${bearer.account.id}:${bearer.token}` : `ip:${req.ip}`;
		const handshakes = mcpOf(ctx.store).initialized;
		if (method === 'initialize') handshakes.add(client);
		else if (method !== 'ping' && !handshakes.has(client)) {
			return rpcError(
				call.id,
				-32600,
				'Send initialize first (revisions before 2026-07-28 need the handshake), or use revision 2026-07-28 with per-request metadata',
				400,
			);
		}
	}
	return dispatch(call, ctx, req);
}

function methodOf(req: SandboxRequest): string | null {
	try {
		const method = (JSON.parse((req.raw ?? Buffer.alloc(0)).toString('utf8')) as Params)?.method;
		return typeof method === 'string' ? method : null;
	} catch {
		return null;
	}
}

export const mcpRoutes: Route[] = [
	{ api: 'mcp', methods: ['POST'], path: '/api/mcp', body: 'raw', action: methodOf, handle },
];
