import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	listAll,
	McpError,
	textOf,
	toolResult,
	type JsonObject,
	type McpClient,
} from '../../../shared/mcp/protocol';
import { mcpClient, mcpEndpoint } from '../../../shared/mcp/transport';
import { PackError } from '../../../shared/errors/pack-error';
import { displayUrl } from '../../../shared/transport';

const ADDRESS_FIX =
	"Check the Base URL (of the credential, or of the node without one): it must be the service's API address (for example https://api.example.com; the node adds /api/mcp), not a web page, a share link or another interface's address.";

/**
 * An answer that is no JSON-RPC at all (a web page, another server), or a 404 or 405 to the node's POST, says
 * the Base URL is not the service's API address, not that a tool, its arguments or the method were wrong.
 */
function notAnEndpoint(error: unknown, url: string): unknown {
	const status = (error as { httpCode?: unknown } | null)?.httpCode;
	if (status === 404 || status === 405)
		return new PackError(
			`Nothing at ${displayUrl(url)} answers as the service's MCP endpoint (${status})`,
			{ httpCode: status, description: ADDRESS_FIX },
		);
	if (
		!(error instanceof McpError) ||
		error.kind !== 'protocol' ||
		!/not JSON-RPC/.test(error.message)
	)
		return error;
	return new PackError(`${error.message}: ${displayUrl(url)} is not the service's MCP endpoint`, {
		description: ADDRESS_FIX,
	});
}

/** Runs `work` with this run's client; the router words what it throws (McpError describes itself). */
export async function withClient<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	work: (client: McpClient) => Promise<T>,
): Promise<T> {
	const endpoint = await mcpEndpoint(ctx, itemIndex);
	const version = ctx.getNodeParameter('protocolVersion', itemIndex, '2026-07-28') as string;
	return await work(mcpClient(ctx, endpoint, version, itemIndex)).catch((error: unknown) => {
		throw notAnEndpoint(error, endpoint.url);
	});
}

/**
 * `tools/call`, with a result flagged `isError` raised as the tool's own failure. When the endpoint refuses
 * the call with a JSON-RPC error, the tool list says whether the name is the cause: the documents give
 * neither the codes nor the texts of those errors, so the error alone cannot tell an unknown tool from bad
 * arguments.
 */
export async function callTool(client: McpClient, name: string, args: JsonObject) {
	const outcome = await client.request('tools/call', { name, arguments: args }).then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
	if ('error' in outcome) throw await refusalOf(client, name, outcome.error);
	const result = toolResult(outcome.answer);
	if (result.isError) {
		throw new McpError(
			`The tool ${name} failed: ${textOf(result.content).slice(0, 300) || 'no reason given'}`,
			'tool',
		);
	}
	return result;
}

/** An unknown-tool error when the refused name is not among the endpoint's tools, else the error itself. */
async function refusalOf(client: McpClient, name: string, error: unknown): Promise<unknown> {
	if (!(error instanceof McpError) || error.kind !== 'rpc') return error;
	const offered = await toolNames(client);
	if (!offered || offered.includes(name)) return error;
	return new McpError(
		`The MCP endpoint has no tool named "${name}"`,
		'unknown-tool',
		error.code,
		offered,
	);
}

/** The names `tools/list` answers, or undefined when the list cannot be read (the original error then stands). */
async function toolNames(client: McpClient): Promise<string[] | undefined> {
	try {
		return (await listAll(client, 'tools/list', 'tools')).map((tool) => String(tool.name));
	} catch {
		return undefined;
	}
}

/**
 * Structured content when the tool sent it; else embedded text resources (a text file read: uri, mimeType,
 * text); else the text parts, parsed when they are JSON.
 */
export function valueOf(result: { structuredContent?: unknown; content: JsonObject[] }): unknown {
	if (result.structuredContent !== undefined) return result.structuredContent;
	const text = textOf(result.content);
	const resources = result.content
		.filter(
			(part) => part.type === 'resource' && typeof (part.resource as JsonObject)?.text === 'string',
		)
		.map((part) => part.resource as JsonObject);
	if (resources.length && !text) return resources.length === 1 ? resources[0] : { resources };
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** File bytes in a tool or resource result (base64 blobs, images) become n8n binary data. */
export async function binariesOf(
	ctx: IExecuteFunctions,
	parts: JsonObject[],
	propertyName: string,
): Promise<{ binary: IBinaryKeyData; rest: IDataObject[] }> {
	const binary: IBinaryKeyData = {};
	const rest: IDataObject[] = [];
	for (const part of parts) {
		const resource = (part.type === 'resource' ? part.resource : part) as JsonObject;
		const base64 =
			typeof resource?.blob === 'string'
				? resource.blob
				: part.type === 'image'
					? part.data
					: undefined;
		if (typeof base64 !== 'string') {
			rest.push(part as IDataObject);
			continue;
		}
		const key = Object.keys(binary).length
			? `${propertyName}_${Object.keys(binary).length}`
			: propertyName;
		const uri = typeof resource.uri === 'string' ? resource.uri : '';
		const fileName = (resource.name as string | undefined) ?? (uri.split('/').pop() || 'file');
		const mimeType = String(resource.mimeType ?? 'application/octet-stream');
		binary[key] = await ctx.helpers.prepareBinaryData(
			Buffer.from(base64, 'base64'),
			fileName,
			mimeType,
		);
		rest.push({ type: 'binary', binaryProperty: key, uri, mimeType });
	}
	return { binary, rest };
}
