import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest, joinUrl, rawBody, runCredentials } from '../transport';
import {
	DEFAULT_MAX_RATE_LIMIT_WAIT_S,
	McpClient,
	waitingOutRateLimits,
	type McpHttp,
} from './protocol';

export const BEARER_CREDENTIAL = 'cloudStorageBearerApi' as const;

/** The clock that waits out a 429; tests replace `sleep` so that no test waits in real time. */
export const mcpClock = { sleep: async (ms: number) => await sleep(ms) };

export interface McpEndpoint {
	url: string;
	/** Undefined for the public tools and documentation, which need no credential. */
	credentialType?: typeof BEARER_CREDENTIAL;
}

/** `{base_url}/api/mcp`; a base URL with a query string is refused, since the endpoint rejects query parameters. */
export async function mcpEndpoint(ctx: IExecuteFunctions, itemIndex: number): Promise<McpEndpoint> {
	const authentication = ctx.getNodeParameter('authentication', itemIndex, 'bearerApi') as string;
	let base: string;
	let credentialType: typeof BEARER_CREDENTIAL | undefined;
	if (authentication === 'none') {
		base = String(ctx.getNodeParameter('baseUrl', itemIndex, '')).trim();
		if (!base) {
			throw new NodeOperationError(ctx.getNode(), 'No Base URL given for the public MCP tools', {
				itemIndex,
				description:
					"Enter the service's API address (the MCP endpoint is {base_url}/api/mcp), or choose the Bearer credential.",
			});
		}
	} else {
		const credentials = await runCredentials(ctx, BEARER_CREDENTIAL, itemIndex);
		base = String(credentials.baseUrl ?? '').trim();
		credentialType = BEARER_CREDENTIAL;
	}
	if (/[?#]/.test(base)) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The Base URL must not contain a query string or fragment',
			{
				itemIndex,
				description:
					'The MCP endpoint rejects query-string parameters, and credentials never go into a URL. Remove everything from "?" on.',
			},
		);
	}
	return { url: joinUrl(base, 'api/mcp'), credentialType };
}

/** `current.itemIndex` follows the item being processed, so errors name the right item. */
function httpFor(
	ctx: IExecuteFunctions,
	endpoint: McpEndpoint,
	current: { itemIndex: number },
): McpHttp {
	return async ({ body, headers }) => {
		const response = await apiRequest<string>(ctx, {
			api: 'mcp',
			url: endpoint.url,
			method: 'POST',
			credential: endpoint.credentialType ? { type: endpoint.credentialType } : undefined,
			body: rawBody(body),
			headers,
			// A 429 comes back here: its wait is the endpoint's retry time, handled by waitingOutRateLimits.
			answer: { as: 'text', accept: [429] },
			retry: { statuses: [503] },
			itemIndex: current.itemIndex,
		});
		return { status: response.status, headers: response.headers, body: response.body ?? '' };
	};
}

function maxRateLimitWaitMs(ctx: IExecuteFunctions, itemIndex: number): number {
	const value = Number(
		ctx.getNodeParameter('maxRateLimitWait', itemIndex, DEFAULT_MAX_RATE_LIMIT_WAIT_S),
	);
	if (!Number.isFinite(value) || value < 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Max Rate-Limit Wait must be 0 or more seconds (got "${String(value)}")`,
			{ itemIndex },
		);
	}
	return value * 1000;
}

const clients = new WeakMap<
	IExecuteFunctions,
	Map<string, { client: McpClient; current: { itemIndex: number } }>
>();

/**
 * The client for this node run: one handshake serves every item that uses the same endpoint,
 * credential and version.
 */
export function mcpClient(
	ctx: IExecuteFunctions,
	endpoint: McpEndpoint,
	version: string,
	itemIndex: number,
): McpClient {
	let byKey = clients.get(ctx);
	if (!byKey) clients.set(ctx, (byKey = new Map()));
	const maxWaitMs = maxRateLimitWaitMs(ctx, itemIndex);
	const key = `${endpoint.url} ${endpoint.credentialType ?? 'public'} ${version} ${maxWaitMs}`;
	let entry = byKey.get(key);
	if (!entry) {
		const current = { itemIndex };
		const http = waitingOutRateLimits(httpFor(ctx, endpoint, current), {
			maxWaitMs,
			sleep: async (ms) => await mcpClock.sleep(ms),
		});
		entry = { client: new McpClient(http, version), current };
		byKey.set(key, entry);
	}
	entry.current.itemIndex = itemIndex;
	return entry.client;
}
