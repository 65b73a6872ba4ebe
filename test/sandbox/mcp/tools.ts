import fs from 'node:fs';
import { fileRights, folderRights } from '../rights.ts';
import type { Store } from '../store.ts';
import type { Account, StoredFile } from '../types.ts';
import { fileInfo, folderContent, folderInfo } from '../views.ts';
import { docByUri, docUrl, searchDocs } from './docs.ts';
import type { LimitBucket } from './state.ts';

export const MAX_INLINE_BYTES = 26_214_400;

export interface ToolContext {
	store: Store;
	caller: Account | undefined;
	baseUrl: string;
	webUrl: string;
}

export type ToolOutcome =
	| { result: Record<string, unknown> }
	/** JSON-RPC invalid params (-32602). */
	| { invalid: string };

interface ToolDefinition {
	name: string;
	description: string;
	inputSchema: Record<string, unknown>;
	access: 'public' | 'private';
	bucket: LimitBucket;
	run(args: Record<string, unknown>, ctx: ToolContext): ToolOutcome;
}

const stringArg = (description: string) => ({ type: 'string', description });
const intArg = (description: string) => ({ type: 'integer', description });

function structured(data: Record<string, unknown>): ToolOutcome {
	return {
		result: { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data },
	};
}

function toolError(text: string): ToolOutcome {
	return { result: { content: [{ type: 'text', text }], isError: true } };
}

function limitOf(value: unknown, fallback: number, max: number): number | undefined {
	if (value === undefined) return fallback;
	return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max
		? (value as number)
		: undefined;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-yaml|csv))/;

/** `storage_read_file` and `resources/read` of a file share this: text, base64 blob, or metadata plus a URL. */
export function fileContents(
	ctx: ToolContext,
	file: StoredFile,
	maxBytes: number,
): Record<string, unknown>[] {
	const uri = `storage://file/${file.hash}`;
	if (file.size > maxBytes) {
		const info = {
			...fileInfo(ctx.store, file, ctx.caller, false),
			url: `${ctx.webUrl}/f/${file.hash}`,
			inline: false,
		};
		return [{ type: 'text', text: JSON.stringify(info) }];
	}
	const bytes = fs.readFileSync(file.blobPath);
	if (TEXT_TYPES.test(file.mime))
		return [
			{
				type: 'resource',
				resource: { uri, mimeType: file.mime, name: file.name, text: bytes.toString('utf8') },
			},
		];
	return [
		{
			type: 'resource',
			resource: { uri, mimeType: file.mime, name: file.name, blob: bytes.toString('base64') },
		},
	];
}

export const TOOLS: readonly ToolDefinition[] = [
	{
		name: 'storage_get_root_folder',
		description: "The authenticated user's root folder.",
		inputSchema: { type: 'object', properties: {} },
		access: 'private',
		bucket: 'listing',
		run: (_args, ctx) =>
			structured(folderInfo(ctx.store, ctx.store.rootOf(ctx.caller!), ctx.caller, false)),
	},
	{
		name: 'storage_list_folder',
		description:
			'Folders and files of a folder. offset addresses the raw sequence; a page may be short after access filtering.',
		inputSchema: {
			type: 'object',
			properties: {
				folder_hash: stringArg('Folder hash'),
				limit: intArg('Max items (1-200)'),
				offset: intArg('Raw offset'),
			},
			required: ['folder_hash'],
		},
		access: 'private',
		bucket: 'listing',
		run(args, ctx) {
			const folder = ctx.store.folder(String(args.folder_hash ?? ''));
			const limit = limitOf(args.limit, 50, 200);
			const offset =
				args.offset === undefined
					? 0
					: Number.isInteger(args.offset) && (args.offset as number) >= 0
						? (args.offset as number)
						: -1;
			if (limit === undefined || offset < 0)
				return { invalid: 'limit must be 1-200 and offset a non-negative integer' };
			if (!folder || !folderRights(folder, ctx.caller).allow_view)
				return toolError('Folder not found or not accessible');
			const raw = [...ctx.store.subfolders(folder.id), ...ctx.store.filesIn(folder.id)];
			const page = raw.slice(offset, offset + limit);
			const visible = new Set(page.map((item) => item.hash));
			const items = folderContent(ctx.store, folder, ctx.caller, false).filter((item) =>
				visible.has(item.hash),
			);
			const next = offset + limit < raw.length ? offset + limit : null;
			return structured({ items, offset, limit, next_offset: next });
		},
	},
	{
		name: 'storage_get_folder_info',
		description: 'Details of a folder.',
		inputSchema: {
			type: 'object',
			properties: { folder_hash: stringArg('Folder hash') },
			required: ['folder_hash'],
		},
		access: 'private',
		bucket: 'listing',
		run(args, ctx) {
			const folder = ctx.store.folder(String(args.folder_hash ?? ''));
			if (!folder || !folderRights(folder, ctx.caller).allow_view)
				return toolError('Folder not found or not accessible');
			return structured(folderInfo(ctx.store, folder, ctx.caller, false));
		},
	},
	{
		name: 'storage_get_file_info',
		description: 'Details of a file.',
		inputSchema: {
			type: 'object',
			properties: { file_hash: stringArg('File hash') },
			required: ['file_hash'],
		},
		access: 'private',
		bucket: 'listing',
		run(args, ctx) {
			const file = ctx.store.file(String(args.file_hash ?? ''));
			if (!file || !fileRights(ctx.store, file, ctx.caller).allow_view)
				return toolError('File not found or not accessible');
			return structured(fileInfo(ctx.store, file, ctx.caller, false));
		},
	},
	{
		name: 'storage_read_file',
		description:
			"A file's content: UTF-8 text, base64 for binary files up to max_bytes, else metadata and a URL.",
		inputSchema: {
			type: 'object',
			properties: {
				file_hash: stringArg('File hash'),
				max_bytes: intArg('Inline limit, default and maximum 26214400'),
			},
			required: ['file_hash'],
		},
		access: 'private',
		bucket: 'read',
		run(args, ctx) {
			const maxBytes = limitOf(args.max_bytes, MAX_INLINE_BYTES, MAX_INLINE_BYTES);
			if (maxBytes === undefined) return { invalid: `max_bytes must be 1-${MAX_INLINE_BYTES}` };
			const file = ctx.store.file(String(args.file_hash ?? ''));
			if (!file || !fileRights(ctx.store, file, ctx.caller).allow_view)
				return toolError('File not found or not accessible');
			if (!fileRights(ctx.store, file, ctx.caller).allow_download)
				return toolError('No download rights on this file');
			return { result: { content: fileContents(ctx, file, maxBytes) } };
		},
	},
	{
		name: 'storage_search_files',
		description: "Search the user's files by name.",
		inputSchema: {
			type: 'object',
			properties: { query: stringArg('Search words'), limit: intArg('Max results (1-100)') },
			required: ['query'],
		},
		access: 'private',
		bucket: 'search',
		run(args, ctx) {
			const query = String(args.query ?? '')
				.trim()
				.toLowerCase();
			const limit = limitOf(args.limit, 20, 100);
			if (!query || limit === undefined)
				return { invalid: 'query is required; limit must be 1-100' };
			const files = [...ctx.store.files.values()]
				.filter(
					(file) =>
						!file.deleted &&
						file.ownerId === ctx.caller!.id &&
						file.name.toLowerCase().includes(query),
				)
				.slice(0, limit)
				.map((file) => fileInfo(ctx.store, file, ctx.caller, false));
			return structured({ results: files });
		},
	},
	{
		name: 'storage_search_docs',
		description: 'Keyword search over the public API documentation.',
		inputSchema: {
			type: 'object',
			properties: { query: stringArg('Keywords'), limit: intArg('Max results (1-50)') },
			required: ['query'],
		},
		access: 'public',
		bucket: 'docs',
		run(args, ctx) {
			const query = String(args.query ?? '').trim();
			const limit = limitOf(args.limit, 10, 50);
			if (!query || limit === undefined)
				return { invalid: 'query is required; limit must be 1-50' };
			const results = searchDocs(query, limit).map((doc) => ({
				url: docUrl(ctx.baseUrl, doc),
				uri: `docs://${doc.id}`,
				title: doc.title,
				snippet: doc.text.slice(0, 120),
			}));
			return structured({ results });
		},
	},
	{
		name: 'storage_get_doc',
		description: 'A complete published document by its docs:// URI.',
		inputSchema: {
			type: 'object',
			properties: { uri: stringArg('docs://<document>') },
			required: ['uri'],
		},
		access: 'public',
		bucket: 'docs',
		run(args, ctx) {
			const doc = docByUri(args.uri);
			if (!doc) return toolError(`No published document ${String(args.uri)}`);
			return structured({
				uri: `docs://${doc.id}`,
				url: docUrl(ctx.baseUrl, doc),
				title: doc.title,
				text: doc.text,
			});
		},
	},
];

export function toolByName(name: unknown): ToolDefinition | undefined {
	return TOOLS.find((tool) => tool.name === name);
}
