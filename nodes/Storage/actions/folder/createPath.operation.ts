import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { accountInfo } from '../../../shared/storage/account-info';
import {
	requireAccount,
	storageAccount,
	v1,
	v2,
	type StorageAccount,
} from '../../../shared/storage/client';
import { isRoot, locate, resolveHash, ROOT } from '../../../shared/storage/locator';
import { folderLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { writeOutcome } from '../../../shared/storage/reconcile';
import { withOutcome } from '../../../shared/errors/outcome';
import { formBody } from '../../../shared/transport';

const properties: INodeProperties[] = [
	folderLocator('parentFolder', {
		displayName: 'Parent Folder',
		default: { mode: 'id', value: ROOT },
	}),
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Invoices/{{ $now.toFormat("yyyy/MM") }}',
		description:
			'Folders separated by /. Missing ones are created in one call; existing ones are reused, also one whose name differs only in letter case (then that folder is returned). Returns the last folder.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['folder'], operation: ['createPath'] } },
	properties,
);

interface PathAnswer {
	Success?: boolean;
	Directories?: Record<string, { id?: number; add_key?: string }>;
	Error?: string;
}

function pathSegments(ctx: IExecuteFunctions, itemIndex: number): string[] {
	const raw = String(ctx.getNodeParameter('path', itemIndex, '') ?? '');
	const segments = raw
		.split('/')
		.map((segment) => segment.trim())
		.filter(Boolean);
	if (segments.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'The path is empty', {
			itemIndex,
			description: 'Enter folders separated by /, e.g. Invoices/2026/11.',
		});
	}
	if (segments.some((segment) => segment === '.' || segment === '..')) {
		throw new NodeOperationError(ctx.getNode(), `"${raw}" contains . or ..`, {
			itemIndex,
			description: 'Use plain folder names.',
		});
	}
	return segments;
}

async function parentKeys(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	hash: string,
	root: boolean,
	itemIndex: number,
) {
	if (root) {
		const me = await accountInfo(ctx, account, itemIndex);
		return { hash: String(me.root_upload_hash), addKey: me.root_add_key as string | undefined };
	}
	const { body } = await v2<IDataObject>(
		ctx,
		account,
		'get_folder_info',
		{ folder_hash: hash },
		{ itemIndex },
	);
	return { hash, addKey: body.add_files_key as string | undefined };
}

/**
 * The folder in `children` that a path segment names. The documents do not say how the script matches an
 * existing folder; a service may match one of another letter case and reuse it. The choice: the folder of
 * exactly that name, else the one folder whose name equals it ignoring letter case. Several such folders
 * (and none exact) cannot be told apart: that is an error naming them.
 */
function folderNamed(
	ctx: IExecuteFunctions,
	children: IDataObject[],
	segment: string,
	itemIndex: number,
): IDataObject | undefined {
	const folders = children.filter((item) => item.type === 'folder');
	const exact = folders.find((item) => item.name === segment);
	if (exact) return exact;
	const folded = segment.toLocaleLowerCase();
	const caseless = folders.filter((item) => String(item.name ?? '').toLocaleLowerCase() === folded);
	if (caseless.length > 1) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'path folder ambiguous' },
			{
				itemIndex,
				message: `Several folders match "${segment}" apart from letter case: ${caseless.map((item) => `"${String(item.name)}" (${String(item.hash)})`).join(', ')}`,
				description:
					'The service reused one of them for the path, and the listing does not tell which. Rename all but one, or write the path with the exact letter case.',
			},
		);
	}
	return caseless[0];
}

/**
 * The script answers folder ids, not hashes, so the leaf is found by name, one level at a time. Undefined
 * when a folder of the path is not there.
 */
async function findLeaf(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	start: string,
	segments: string[],
	itemIndex: number,
): Promise<{ hash: string } | { missing: string }> {
	let current = start;
	for (const segment of segments) {
		const { body } = await v2<IDataObject[]>(
			ctx,
			account,
			'get_folder_content',
			{ folder_hash: current },
			{ itemIndex },
		);
		const match = folderNamed(ctx, Array.isArray(body) ? body : [], segment, itemIndex);
		if (!match) return { missing: segment };
		current = String(match.hash);
	}
	return { hash: current };
}

/** A write: its items carry `outcome` (the router's `write`). */
export const write = true;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const located = locate(this, 'parentFolder', 'folder', itemIndex);
	const segments = pathSegments(this, itemIndex);
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const parent = await parentKeys(
		this,
		account,
		isRoot(located) ? '' : await resolveHash(this, account, located, 'folder', itemIndex),
		isRoot(located),
		itemIndex,
	);
	const path = segments.join('/');
	// The script creates folders: a write. After a lost answer the path is looked up; when it is all
	// there it was created (or was there already), else sending it again is safe, as existing folders are reused.
	const response = await v1<PathAnswer>(this, account, 'api/get_ids_and_keys_from_paths.php', {
		// As documented: the parent and its add key in the query, the paths in the form body.
		query: { upload_hash: parent.hash, ...(parent.addKey ? { add_key: parent.addKey } : {}) },
		body: formBody({ Directories: [path] }),
		itemIndex,
		write: {
			reconcile: async () => {
				const found = await findLeaf(this, account, parent.hash, segments, itemIndex);
				return 'hash' in found ? ({ Success: true } satisfies PathAnswer) : undefined;
			},
		},
	});
	const { body } = response;
	if (!body?.Success) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'path refused' },
			{
				itemIndex,
				message: `The service did not create the path${body?.Error ? `: ${body.Error}` : ''}`,
				description: 'Check that this account may add folders to the parent folder.',
			},
		);
	}
	const created = body.Directories?.[path] ?? Object.values(body.Directories ?? {}).pop() ?? {};
	try {
		return await createdLeaf(this, account, parent.hash, segments, itemIndex, {
			...writeOutcome(response),
			id: created.id,
			path,
		});
	} catch (error) {
		// The service said the path was made: whatever fails while it is read back, the write was applied.
		throw withOutcome(
			error as Error,
			response.reconciled ? 'applied-after-lost-answer' : 'applied',
		);
	}
}

async function createdLeaf(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	parentHash: string,
	segments: string[],
	itemIndex: number,
	fields: IDataObject,
): Promise<INodeExecutionData[]> {
	const leaf = await findLeaf(ctx, account, parentHash, segments, itemIndex);
	if ('missing' in leaf) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'path folder missing' },
			{
				itemIndex,
				message: `The folder "${leaf.missing}" was not found after creating the path`,
				description:
					'The service may have normalized the name. List the parent folder to see what was created.',
			},
		);
	}
	const { body: info } = await v2<IDataObject>(
		ctx,
		account,
		'get_folder_info',
		{ folder_hash: leaf.hash },
		{ itemIndex },
	);
	return [{ json: { ...withLink(account, info, 'folder'), ...fields } }];
}
