import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ListedEntry, Listing } from './changes';
import { v1, v2, type StorageAccount, type StorageContext } from './client';

/** A node of `api/get_upload_tree.php` (spec, Legacy V1 shapes). */
export interface TreeNode {
	Type?: string;
	ID?: number | string;
	Hash?: string;
	Name?: string;
	ParentID?: number | string;
	CreatedDate?: string;
	ModifiedDate?: string;
	Children?: TreeNode[] | false;
}

interface TreeAnswer {
	error?: string | null;
	data?: TreeNode | null;
}

/** Large accounts give large trees (about 250 bytes per item); the transport's default cap is lower. */
const MAX_TREE_BYTES = 512 * 1024 * 1024;

const refusals = new WeakSet<object>();
const refusal = (error: NodeApiError) => (refusals.add(error), error);

/** Whether an error is the service's refusal of the tree in its answer (`error` set, no `data`). */
export const isTreeRefusal = (error: unknown): boolean =>
	typeof error === 'object' && error !== null && refusals.has(error);

/**
 * The whole tree below a folder in one request: GET with `Hash` and `DeleteKey` in the query, as documented.
 * The edit key is a capability, so the transport never shows the query string in a message or an output.
 */
export async function fetchTree(
	ctx: StorageContext,
	account: StorageAccount,
	folderHash: string,
	editKey: string | undefined,
	itemIndex = 0,
): Promise<TreeNode> {
	const { body } = await v1<TreeAnswer>(ctx, account, 'api/get_upload_tree.php', {
		method: 'GET',
		query: { Hash: folderHash, ...(editKey ? { DeleteKey: editKey } : {}) },
		itemIndex,
		answer: { maxBytes: MAX_TREE_BYTES },
	});
	if (!body?.data || body.error) {
		throw refusal(
			new NodeApiError(
				ctx.getNode(),
				{ message: 'tree refused' },
				{
					itemIndex,
					message: `The service did not return the folder tree${body?.error ? `: ${body.error}` : ''}`,
					description: 'Check that this account may edit the folder (the tree needs its edit key).',
				},
			),
		);
	}
	return body.data;
}

/**
 * Legacy date-times ('YYYY-MM-DD HH:MM:SS') carry no zone; they are read as UTC, as the service's own
 * clients do. Only their order matters to the trigger, which never compares them with n8n's clock.
 */
export function legacySeconds(value: unknown): number {
	const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(String(value ?? ''));
	if (!match) return Number.NaN;
	const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
	return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
}

function children(node: TreeNode): TreeNode[] {
	return Array.isArray(node.Children) ? node.Children : [];
}

/** Every folder and file below the tree's root, each with its parent's hash and its path from the root. */
export function flattenTree(root: TreeNode): Listing {
	const entries: ListedEntry[] = [];
	const walk = (node: TreeNode, path: string) => {
		for (const child of children(node)) {
			const name = String(child.Name ?? '');
			const childPath = path ? `${path}/${name}` : name;
			const type = child.Type === 'file' ? 'file' : 'folder';
			entries.push({
				hash: String(child.Hash ?? ''),
				type,
				name,
				parent: String(node.Hash ?? ''),
				path: childPath,
				created: legacySeconds(child.CreatedDate),
				modified: legacySeconds(child.ModifiedDate),
			});
			if (type === 'folder') walk(child, childPath);
		}
	};
	walk(root, '');
	return {
		root: { hash: String(root.Hash ?? ''), name: root.Name },
		entries: entries.filter((entry) => entry.hash),
	};
}

/** ROOT is the only folder with parent id 0; its tree is the whole account. */
export function isAccountRoot(root: TreeNode): boolean {
	return Number(root.ParentID) === 0;
}

/** The direct children of one folder (V2 `get_folder_content`: integer timestamps and sizes). */
export async function listFolder(
	ctx: StorageContext,
	account: StorageAccount,
	folderHash: string,
	itemIndex = 0,
): Promise<Listing> {
	const { body } = await v2<IDataObject[]>(
		ctx,
		account,
		'get_folder_content',
		{ folder_hash: folderHash },
		{ itemIndex },
	);
	const entries: ListedEntry[] = (Array.isArray(body) ? body : [])
		.filter((item) => item.hash)
		.map((item) => ({
			hash: String(item.hash),
			type: item.type === 'folder' ? 'folder' : 'file',
			name: String(item.name ?? ''),
			parent: folderHash,
			path: String(item.name ?? ''),
			created: Number(item.timestamp_uploaded),
			modified: Number(item.timestamp_last_modified),
			...(item.size !== undefined && item.size !== null ? { size: Number(item.size) } : {}),
		}));
	return { root: { hash: folderHash }, entries };
}
