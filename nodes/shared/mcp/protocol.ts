/**
 * The hosted MCP endpoint's JSON-RPC 2.0 over HTTP POST, in both protocol modes of the spec:
 * - handshake revisions (2025-03-26, 2025-06-18, 2025-11-25): `initialize`, then
 *   `notifications/initialized`, then requests carrying the negotiated `MCP-Protocol-Version`;
 * - the per-request revision 2026-07-28: no handshake; every request carries the version, client
 *   capabilities and client info in `params._meta`, and the `Mcp-Method` / `Mcp-Name` headers.
 * No n8n here: the HTTP function comes from the caller.
 */
import { PackError, type PackErrorSource } from '../errors/pack-error';
import { backoffDelay, DEFAULT_RETRY } from '../transport';

export const MODERN_VERSION = '2026-07-28';
export const HANDSHAKE_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...HANDSHAKE_VERSIONS];

/** The endpoint's documented request body limit (1 MB), checked before anything is sent. */
export const MAX_BODY_BYTES = 1_000_000;

export const CLIENT_INFO = { name: 'n8n-nodes-cloud-storage', version: '0.1.0' };

const META_PREFIX = 'io.modelcontextprotocol/';

export type McpErrorKind =
	| 'rpc'
	| 'protocol'
	| 'too-large'
	| 'version'
	| 'tool'
	| 'unknown-tool'
	| 'rate-limit';

/**
 * Keeps what the endpoint said (message, JSON-RPC code) for this layer's callers, and words it for the user
 * as a PackError: what was refused before sending is bad input, what the endpoint said is a service failure.
 */
export class McpError extends Error implements PackErrorSource {
	constructor(
		message: string,
		readonly kind: McpErrorKind,
		readonly code?: number,
		readonly data?: unknown,
	) {
		super(message);
	}

	toPackError(): PackError {
		if (this.kind === 'version') {
			return new PackError(this.message, {
				kind: 'input',
				description: 'Choose one of the listed protocol versions in the node.',
			});
		}
		if (this.kind === 'too-large') {
			return new PackError(this.message, {
				kind: 'input',
				description: 'Send less data in the tool arguments; the request was not sent.',
			});
		}
		if (this.kind === 'tool')
			return new PackError(this.message, {
				description: 'The tool ran but reported a failure; check its arguments.',
			});
		if (this.kind === 'unknown-tool') {
			const offered = Array.isArray(this.data) ? (this.data as string[]) : [];
			return new PackError(this.message, {
				kind: 'input',
				description:
					'Check the tool name (names are case-sensitive). Tool → Get Many lists the tools the endpoint offers' +
					(offered.length
						? `; it offers: ${offered.slice(0, 30).join(', ')}${offered.length > 30 ? ', …' : ''}.`
						: '.'),
			});
		}
		if (this.kind === 'rate-limit') {
			return new PackError(this.message, {
				httpCode: 429,
				description:
					'The endpoint limits requests in fixed windows per minute and per hour (search and file reads most). Raise "Max Rate-Limit Wait" to wait longer, or run the workflow later.',
			});
		}
		const description =
			this.code === -32601
				? 'The endpoint does not know this method or tool. Use List Tools to see what it offers.'
				: this.code === -32602
					? 'The arguments do not match what the tool expects. Use List Tools to see its input schema.'
					: 'Check the tool name and arguments.';
		return new PackError(`The MCP endpoint reported an error: ${this.message.slice(0, 300)}`, {
			description,
		});
	}
}

export interface McpHttpRequest {
	body: string;
	headers: Record<string, string>;
}

export interface McpHttpResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** Sends one POST to the endpoint; HTTP errors are the caller's to raise (the transport maps them). */
export type McpHttp = (request: McpHttpRequest) => Promise<McpHttpResponse>;

export type JsonObject = Record<string, unknown>;

/** How long a 429 may be waited out, and the clock that waits (a test shortens it; nothing races real time). */
export interface RateLimitPolicy {
	/** The longest total wait per request; a longer retry time fails at once. */
	maxWaitMs: number;
	sleep: (ms: number) => Promise<void>;
}

/** The documented windows are per minute: waiting one out needs up to 60 s. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_S = 60;

/**
 * The retry time a 429 names: a Retry-After header (seconds) if sent, else the seconds in the JSON-RPC
 * error's message (the documents: "a JSON-RPC error message containing the retry time in seconds").
 */
export function rateLimitWaitMs(response: McpHttpResponse): number | undefined {
	const retryAfter = header(response, 'retry-after')?.trim();
	if (retryAfter && /^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
	let text = response.body;
	try {
		const parsed = JSON.parse(response.body) as { error?: { message?: unknown } };
		if (typeof parsed?.error?.message === 'string') text = parsed.error.message;
	} catch {
		// Not JSON: read the seconds from the plain text.
	}
	const match = /(\d+(?:\.\d+)?)\s*(?:s\b|secs?\b|seconds?\b)/i.exec(text);
	return match ? Math.ceil(Number(match[1]) * 1000) : undefined;
}

const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;

/**
 * Waits out a 429 for exactly the time the endpoint names, then sends the request again; a retry time
 * beyond what is left of `maxWaitMs` fails at once, naming it. Never retries inside a named window.
 * A 429 that names no retry time (the documents promise one, so this is tolerance) is retried with the
 * transport's back-off for other 429s (doubling from 0.5 s with jitter, at most 5 attempts), within the
 * same `maxWaitMs`.
 */
export function waitingOutRateLimits(
	http: McpHttp,
	policy: RateLimitPolicy & { random?: () => number },
): McpHttp {
	return async (request) => {
		let waitedMs = 0;
		let unnamed = 0;
		for (let attempt = 1; ; attempt++) {
			const response = await http(request);
			if (response.status !== 429) return response;
			const namedMs = rateLimitWaitMs(response);
			if (namedMs === undefined) {
				unnamed++;
				const delay = backoffDelay(DEFAULT_RETRY, unnamed, undefined, policy.random);
				if (unnamed >= DEFAULT_RETRY.maxAttempts || waitedMs + delay > policy.maxWaitMs) {
					throw new McpError(
						`The MCP endpoint's rate limit was exceeded (429) and it named no retry time; still limited after ${attempt} attempts over ${seconds(waitedMs)}`,
						'rate-limit',
						429,
					);
				}
				await policy.sleep(delay);
				waitedMs += delay;
				continue;
			}
			if (waitedMs + namedMs > policy.maxWaitMs || attempt > 10) {
				const already = waitedMs > 0 ? ` after waiting ${seconds(waitedMs)} already` : '';
				throw new McpError(
					`The MCP endpoint's rate limit was exceeded (429): it asks to retry after ${seconds(namedMs)}${already}, longer than the ${seconds(policy.maxWaitMs)} this node may wait`,
					'rate-limit',
					429,
					{ retryAfterSeconds: Math.ceil(namedMs / 1000) },
				);
			}
			await policy.sleep(namedMs);
			waitedMs += namedMs;
		}
	};
}

export function checkVersion(version: string): void {
	if (!SUPPORTED_VERSIONS.includes(version)) {
		throw new McpError(
			`Unsupported MCP protocol version "${version}". Supported: ${SUPPORTED_VERSIONS.join(', ')}`,
			'version',
		);
	}
}

export function isModern(version: string): boolean {
	return version === MODERN_VERSION;
}

function header(response: McpHttpResponse, name: string): string | undefined {
	const value = response.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/** A JSON body, or the JSON-RPC message inside an event-stream answer (servers may choose either). */
export function parseMessages(response: McpHttpResponse): JsonObject[] {
	const text = response.body.trim();
	if (!text) return [];
	const type = header(response, 'content-type') ?? '';
	const payloads =
		/text\/event-stream/i.test(type) || /^(event|data|id):/m.test(text) ? sseData(text) : [text];
	const messages: JsonObject[] = [];
	for (const payload of payloads) {
		let parsed: unknown;
		try {
			parsed = JSON.parse(payload);
		} catch {
			parsed = undefined;
		}
		if (parsed === undefined)
			throw new McpError(
				'The MCP endpoint answered with something that is not JSON-RPC',
				'protocol',
			);
		for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
			if (message && typeof message === 'object') messages.push(message as JsonObject);
		}
	}
	return messages;
}

function sseData(text: string): string[] {
	return text
		.split(/\r?\n\r?\n/)
		.map((event) =>
			event
				.split(/\r?\n/)
				.filter((line) => line.startsWith('data:'))
				.map((line) => line.slice(5).trimStart())
				.join('\n'),
		)
		.filter((data) => data.trim());
}

export function rpcError(error: unknown): McpError {
	const { code, message, data } = (error ?? {}) as {
		code?: unknown;
		message?: unknown;
		data?: unknown;
	};
	return new McpError(
		typeof message === 'string' && message ? message : 'The MCP endpoint reported an error',
		'rpc',
		typeof code === 'number' ? code : undefined,
		data,
	);
}

/**
 * One connection to the endpoint for the length of a node run: the handshake (when the revision has
 * one) happens once, before the first request, and its negotiated version is reused.
 */
export class McpClient {
	private nextId = 1;
	private negotiated: string | undefined;
	private sessionId: string | undefined;
	private handshake: Promise<void> | undefined;

	constructor(
		private readonly http: McpHttp,
		readonly version: string,
	) {
		checkVersion(version);
		if (isModern(version)) this.negotiated = version;
	}

	/** The version the requests carry: the modern one, or what `initialize` agreed on. */
	get protocolVersion(): string | undefined {
		return this.negotiated;
	}

	async request(method: string, params: JsonObject = {}): Promise<JsonObject> {
		if (!isModern(this.version)) await this.initialize();
		return await this.exchange(method, params);
	}

	async notify(method: string, params?: JsonObject): Promise<void> {
		const message: JsonObject = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
		await this.http(this.prepare(message, method, params));
	}

	/** `server/discover`: the modern revision's replacement for the handshake's server information. */
	async discover(): Promise<JsonObject> {
		if (!isModern(this.version)) {
			throw new McpError('server/discover exists only in protocol version 2026-07-28', 'version');
		}
		return await this.exchange('server/discover', {});
	}

	private async initialize(): Promise<void> {
		this.handshake ??= (async () => {
			const id = this.nextId++;
			const params = { protocolVersion: this.version, capabilities: {}, clientInfo: CLIENT_INFO };
			const response = await this.http(
				this.prepare({ jsonrpc: '2.0', id, method: 'initialize', params }, 'initialize'),
			);
			const result = this.resultOf(response, id);
			const agreed = String(result.protocolVersion ?? '');
			if (!(HANDSHAKE_VERSIONS as readonly string[]).includes(agreed)) {
				throw new McpError(
					`The MCP endpoint offered protocol version "${agreed}", which this node does not speak (asked for ${this.version})`,
					'version',
				);
			}
			this.negotiated = agreed;
			this.sessionId = header(response, 'mcp-session-id');
			await this.notify('notifications/initialized');
		})();
		// A failed handshake is not remembered: the next item tries again.
		const failure = await this.handshake.then(
			() => undefined,
			(error: unknown) => error ?? new Error('The MCP handshake failed'),
		);
		if (failure !== undefined) {
			this.handshake = undefined;
			throw failure;
		}
	}

	private async exchange(method: string, params: JsonObject): Promise<JsonObject> {
		const id = this.nextId++;
		const withMeta = isModern(this.version)
			? { ...params, _meta: { ...(params._meta as JsonObject), ...modernMeta() } }
			: params;
		const message = { jsonrpc: '2.0', id, method, params: withMeta };
		const response = await this.http(this.prepare(message, method, params));
		const result = this.resultOf(response, id);
		if (
			isModern(this.version) &&
			result.resultType !== undefined &&
			result.resultType !== 'complete'
		) {
			throw new McpError(
				`The MCP endpoint answered with result type "${String(result.resultType)}", which needs a follow-up this node cannot give`,
				'protocol',
			);
		}
		return result;
	}

	private prepare(message: JsonObject, method: string, params?: JsonObject): McpHttpRequest {
		const body = JSON.stringify(message);
		const size = Buffer.byteLength(body);
		if (size > MAX_BODY_BYTES) {
			throw new McpError(
				`The MCP request is ${size} bytes, over the endpoint's 1 MB limit (${MAX_BODY_BYTES} bytes)`,
				'too-large',
			);
		}
		const headers: Record<string, string> = {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
		};
		if (this.negotiated) headers['mcp-protocol-version'] = this.negotiated;
		if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
		if (isModern(this.version)) {
			headers['mcp-method'] = method;
			const name = params?.name ?? params?.uri;
			if (
				typeof name === 'string' &&
				(method === 'tools/call' || method.startsWith('resources/read'))
			) {
				headers['mcp-name'] = name;
			}
		}
		return { body, headers };
	}

	private resultOf(response: McpHttpResponse, id: number): JsonObject {
		const messages = parseMessages(response);
		const reply =
			messages.find((message) => message.id === id) ??
			messages.find((message) => 'error' in message);
		if (!reply)
			throw new McpError(
				`The MCP endpoint sent no answer to request ${id} (HTTP ${response.status})`,
				'protocol',
			);
		if (reply.error !== undefined) throw rpcError(reply.error);
		const result = reply.result;
		if (!result || typeof result !== 'object')
			throw new McpError('The MCP endpoint answered without a result', 'protocol');
		return result as JsonObject;
	}
}

function modernMeta(): JsonObject {
	return {
		[`${META_PREFIX}protocolVersion`]: MODERN_VERSION,
		[`${META_PREFIX}clientCapabilities`]: {},
		[`${META_PREFIX}clientInfo`]: CLIENT_INFO,
	};
}

export interface ToolResult {
	content: JsonObject[];
	structuredContent?: unknown;
	isError: boolean;
}

export function toolResult(result: JsonObject): ToolResult {
	return {
		content: Array.isArray(result.content) ? (result.content as JsonObject[]) : [],
		structuredContent: result.structuredContent,
		isError: result.isError === true,
	};
}

/** The text parts of a tool result, joined: what an error result says, or a plain-text answer. */
export function textOf(content: JsonObject[]): string {
	return content
		.filter((part) => part.type === 'text' && typeof part.text === 'string')
		.map((part) => part.text as string)
		.join('\n');
}

/** Every page of a paginated list method (`tools/list`, `resources/list`), following `nextCursor`. */
export async function listAll(
	client: McpClient,
	method: string,
	key: string,
	maxPages = 50,
): Promise<JsonObject[]> {
	const all: JsonObject[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < maxPages; page++) {
		const result = await client.request(method, cursor ? { cursor } : {});
		all.push(...((Array.isArray(result[key]) ? result[key] : []) as JsonObject[]));
		cursor =
			typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
		if (!cursor) break;
	}
	return all;
}
