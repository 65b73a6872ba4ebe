import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	McpError,
	textOf,
	toolResult,
	type JsonObject,
	type McpClient,
} from '../../../shared/mcp/protocol';
import { mcpClient, mcpEndpoint } from '../../../shared/mcp/transport';

/** Runs `work` with this run's client; the router words what it throws (McpError describes itself). */
export async function withClient<T>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	work: (client: McpClient) => Promise<T>,
): Promise<T> {
	const endpoint = await mcpEndpoint(ctx, itemIndex);
	const version = ctx.getNodeParameter('protocolVersion', itemIndex, '2026-07-28') as string;
	return await work(mcpClient(ctx, endpoint, version, itemIndex));
}

/** `tools/call`, with a result flagged `isError` raised as the tool's own failure. */
export async function callTool(client: McpClient, name: string, args: JsonObject) {
	const result = toolResult(await client.request('tools/call', { name, arguments: args }));
	if (result.isError) {
		throw new McpError(
			`The tool ${name} failed: ${textOf(result.content).slice(0, 300) || 'no reason given'}`,
			'tool',
		);
	}
	return result;
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
