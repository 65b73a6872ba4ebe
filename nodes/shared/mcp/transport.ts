import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../transport/request';
import { joinUrl } from '../transport/urls';
import { McpClient, type McpHttp } from './protocol';
import { runCredentials } from '../transport/run-credentials';

export const BEARER_CREDENTIAL = 'cloudStorageBearerApi';

export interface McpEndpoint {
	url: string;
	/** Undefined for the public tools and documentation, which need no credential. */
	credentialType?: string;
}

/** `{base_url}/api/mcp`; a base URL with a query string is refused, since the endpoint rejects query parameters. */
export async function mcpEndpoint(ctx: IExecuteFunctions, itemIndex: number): Promise<McpEndpoint> {
	const authentication = ctx.getNodeParameter('authentication', itemIndex, 'bearerApi') as string;
	let base: string;
	let credentialType: string | undefined;
	if (authentication === 'none') {
		base = String(ctx.getNodeParameter('baseUrl', itemIndex, '')).trim();
		if (!base) {
			throw new NodeOperationError(ctx.getNode(), 'No Base URL given for the public MCP tools', {
				itemIndex,
				description: 'Enter the service\'s API address (the MCP endpoint is {base_url}/api/mcp), or choose the Bearer credential.',
			});
		}
	} else {
		const credentials = await runCredentials(ctx, BEARER_CREDENTIAL, itemIndex);
		base = String(credentials.baseUrl ?? '').trim();
		credentialType = BEARER_CREDENTIAL;
	}
	if (/[?#]/.test(base)) {
		throw new NodeOperationError(ctx.getNode(), 'The Base URL must not contain a query string or fragment', {
			itemIndex,
			description: 'The MCP endpoint rejects query-string parameters, and credentials never go into a URL. Remove everything from "?" on.',
		});
	}
	return { url: joinUrl(base, 'api/mcp'), credentialType };
}

/** `current.itemIndex` follows the item being processed, so errors name the right item. */
function httpFor(ctx: IExecuteFunctions, endpoint: McpEndpoint, current: { itemIndex: number }): McpHttp {
	return async ({ body, headers }) => {
		const response = await apiRequest<string>(ctx, {
			api: 'mcp',
			url: endpoint.url,
			method: 'POST',
			credentialType: endpoint.credentialType,
			body,
			headers,
			responseType: 'text',
			retryStatuses: [503],
			itemIndex: current.itemIndex,
		});
		return { status: response.status, headers: response.headers, body: response.body ?? '' };
	};
}

const clients = new WeakMap<IExecuteFunctions, Map<string, { client: McpClient; current: { itemIndex: number } }>>();

/**
 * The client for this node run: one handshake serves every item that uses the same endpoint,
 * credential and version.
 */
export function mcpClient(ctx: IExecuteFunctions, endpoint: McpEndpoint, version: string, itemIndex: number): McpClient {
	let byKey = clients.get(ctx);
	if (!byKey) clients.set(ctx, (byKey = new Map()));
	const key = `${endpoint.url} ${endpoint.credentialType ?? 'public'} ${version}`;
	let entry = byKey.get(key);
	if (!entry) {
		const current = { itemIndex };
		entry = { client: new McpClient(httpFor(ctx, endpoint, current), version), current };
		byKey.set(key, entry);
	}
	entry.current.itemIndex = itemIndex;
	return entry.client;
}
