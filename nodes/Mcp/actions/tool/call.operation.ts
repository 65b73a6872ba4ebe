import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { JsonObject } from '../../../shared/mcp/protocol';
import { binariesOf, callTool, valueOf, withClient } from '../common/call';
import { listWholeFolder } from './list-folder';

/** The endpoint's documented tools; the endpoint is read-only, so none of them changes anything. */
const TOOLS = [
	{
		name: 'Get Root Folder',
		value: 'storage_get_root_folder',
		description: "The account's root folder (private)",
	},
	{
		name: 'List Folder',
		value: 'storage_list_folder',
		description: 'Arguments: folder_hash, limit, offset (private)',
	},
	{
		name: 'Get Folder Info',
		value: 'storage_get_folder_info',
		description: 'Arguments: folder_hash (private)',
	},
	{
		name: 'Get File Info',
		value: 'storage_get_file_info',
		description: 'Arguments: file_hash (private)',
	},
	{
		name: 'Read File',
		value: 'storage_read_file',
		description:
			'Arguments: file_hash, max_bytes (up to 25 MB inline; private, needs download rights)',
	},
	{
		name: 'Search Files',
		value: 'storage_search_files',
		description: 'Arguments: query, limit (private)',
	},
	{
		name: 'Search Docs',
		value: 'storage_search_docs',
		description: 'Arguments: query, limit (public)',
	},
	{
		name: 'Get Doc',
		value: 'storage_get_doc',
		description: 'Arguments: uri, a docs:// URI (public)',
	},
	{ name: 'Other (Enter Name)', value: 'custom', description: 'A tool listed by List Tools' },
];

const properties: INodeProperties[] = [
	{
		displayName: 'Tool',
		name: 'tool',
		type: 'options',
		options: TOOLS,
		default: 'storage_get_root_folder',
		description: "The tool to call; List Tools shows each tool's input schema",
	},
	{
		displayName: 'Tool Name',
		name: 'customTool',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { tool: ['custom'] } },
	},
	{
		displayName: 'Arguments',
		name: 'arguments',
		type: 'json',
		default: '{}',
		description:
			'The tool\'s arguments as a JSON object, e.g. {"folder_hash": "abc123", "limit": 50}',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: { show: { tool: ['storage_list_folder'] } },
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName:
			'Return All lists the whole folder, one item per entry; the node sets the offset argument. Pages continue by raw offset (a page may be short after access filtering without being the last). The answer\'s shape is not documented: entries are read from "items" (or "entries"), the next offset from "next_offset".',
		name: 'listFolderNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { tool: ['storage_list_folder'], returnAll: [true] } },
	},
	{
		displayName: 'Put Files in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description:
			'The binary field for file contents the tool returns (e.g. Read File of a binary file)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['tool'], operation: ['call'] } },
	properties,
);

function argumentsOf(ctx: IExecuteFunctions, itemIndex: number): JsonObject {
	const raw = ctx.getNodeParameter('arguments', itemIndex, '{}');
	let parsed: unknown = raw;
	if (typeof raw === 'string') {
		try {
			parsed = raw.trim() ? JSON.parse(raw) : {};
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The arguments are not valid JSON: ${(error as Error).message}`,
				{
					itemIndex,
					description: 'Give a JSON object, e.g. {"file_hash": "abc123"}.',
				},
			);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(ctx.getNode(), 'The arguments must be a JSON object', {
			itemIndex,
			description:
				'Give a JSON object, e.g. {"file_hash": "abc123"}; use {} for tools without arguments.',
		});
	}
	return parsed as JsonObject;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const chosen = this.getNodeParameter('tool', itemIndex) as string;
	const name = (
		chosen === 'custom' ? (this.getNodeParameter('customTool', itemIndex, '') as string) : chosen
	).trim();
	if (!name) {
		throw new NodeOperationError(this.getNode(), 'No tool name given', {
			itemIndex,
			description: 'Choose a tool or enter its name.',
		});
	}
	const args = argumentsOf(this, itemIndex);
	if (name === 'storage_list_folder' && this.getNodeParameter('returnAll', itemIndex, false)) {
		return await withClient(this, itemIndex, async (client) => await listWholeFolder(client, args));
	}
	const result = await withClient(
		this,
		itemIndex,
		async (client) => await callTool(client, name, args),
	);
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const { binary, rest } = await binariesOf(this, result.content, propertyName);
	const json: IDataObject = {
		tool: name,
		result: valueOf({ ...result, content: rest as JsonObject[] }) as IDataObject,
	};
	if (Object.keys(binary).length) json.files = rest.filter((part) => part.type === 'binary');
	return [{ json, ...(Object.keys(binary).length ? { binary } : {}) }];
}
