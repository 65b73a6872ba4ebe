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
			'Folders separated by /. Missing ones are created in one call; existing ones are reused. Returns the last folder.',
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

/** The script answers folder ids, not hashes, so the leaf is found by name, one level at a time. */
async function findLeaf(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	start: string,
	segments: string[],
	itemIndex: number,
) {
	let current = start;
	for (const segment of segments) {
		const { body } = await v2<IDataObject[]>(
			ctx,
			account,
			'get_folder_content',
			{ folder_hash: current },
			{ itemIndex },
		);
		const match = (Array.isArray(body) ? body : []).find(
			(item) => item.type === 'folder' && item.name === segment,
		);
		if (!match) {
			throw new NodeApiError(
				ctx.getNode(),
				{ message: 'path folder missing' },
				{
					itemIndex,
					message: `The folder "${segment}" was not found after creating the path`,
					description:
						'The service may have normalized the name. List the parent folder to see what was created.',
				},
			);
		}
		current = String(match.hash);
	}
	return current;
}

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
	// Creating a path is idempotent (existing folders are reused), so an uncertain call may safely run again.
	const { body } = await v1<PathAnswer>(this, account, 'api/get_ids_and_keys_from_paths.php', {
		// As documented: the parent and its add key in the query, the paths in the form body.
		qs: { upload_hash: parent.hash, ...(parent.addKey ? { add_key: parent.addKey } : {}) },
		form: { Directories: [path] },
		itemIndex,
	});
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
	const leaf = await findLeaf(this, account, parent.hash, segments, itemIndex);
	const { body: info } = await v2<IDataObject>(
		this,
		account,
		'get_folder_info',
		{ folder_hash: leaf },
		{ itemIndex },
	);
	return [{ json: { ...withLink(account, info, 'folder'), id: created.id, path } }];
}
