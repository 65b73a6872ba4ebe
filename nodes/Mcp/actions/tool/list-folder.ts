import type { INodeExecutionData } from 'n8n-workflow';

import { McpError, type JsonObject, type McpClient } from '../../../shared/mcp/protocol';
import { collectByRawOffset } from '../../../shared/transport';
import { callTool, valueOf } from '../common/call';

/** The tool's page size when the arguments give none (its own default is not documented). */
const PAGE_SIZE = 50;

/**
 * The entries of one storage_list_folder answer and how many raw entries it stepped over. The answer's
 * shape is not documented: entries under `items` (or `entries`, or a bare array); the next raw offset
 * from `next_offset` when given (null: the end), else the page size (an empty page then ends the list).
 */
export function listFolderPage(
	value: unknown,
	offset: number,
	limit: number,
): { items: JsonObject[]; consumed: number } {
	const record = (
		value && typeof value === 'object' && !Array.isArray(value) ? value : {}
	) as JsonObject;
	const items = Array.isArray(value)
		? value
		: Array.isArray(record.items)
			? record.items
			: Array.isArray(record.entries)
				? record.entries
				: undefined;
	if (!items) {
		throw new McpError(
			'storage_list_folder answered without a list of entries (looked for "items" and "entries")',
			'protocol',
		);
	}
	if ('next_offset' in record) {
		const next = record.next_offset;
		return {
			items: items as JsonObject[],
			consumed: typeof next === 'number' && next > offset ? next - offset : 0,
		};
	}
	return { items: items as JsonObject[], consumed: items.length === 0 ? 0 : limit };
}

/**
 * Return All for storage_list_folder: `offset` addresses the raw folder/file sequence and a page may
 * come back short after access-right filtering, so pages continue by raw offset, not by count.
 */
export async function listWholeFolder(
	client: McpClient,
	args: JsonObject,
): Promise<INodeExecutionData[]> {
	const limit =
		Number.isInteger(args.limit) && (args.limit as number) > 0 ? (args.limit as number) : PAGE_SIZE;
	const entries = await collectByRawOffset<JsonObject>(
		async (offset, pageSize) =>
			listFolderPage(
				valueOf(
					await callTool(client, 'storage_list_folder', { ...args, limit: pageSize, offset }),
				),
				offset,
				pageSize,
			),
		{ pageSize: limit },
	);
	return entries.map((json) => ({ json: json as never }));
}
