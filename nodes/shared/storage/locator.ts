import type { IDataObject, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { accountInfo, rootFolderHash } from './account-info';
import { v2, type StorageAccount, type StorageContext } from './client';
import { parseLink } from './links';
import { runParameter } from '../node/run-parameters';

export const ROOT = 'ROOT';

/** What a locator names, checked before any request: a hash, ROOT, or a path link to walk. */
export type Located = { hash: string } | { root: true } | { user: string; path: string[] };

function locatorValue(
	ctx: StorageContext,
	name: string,
	itemIndex: number,
): INodeParameterResourceLocator {
	const raw = (
		'getInputData' in ctx
			? runParameter(ctx, name, itemIndex)
			: ctx.getNodeParameter(name, itemIndex)
	) as INodeParameterResourceLocator | string;
	if (typeof raw === 'string') return { __rl: true, mode: 'id', value: raw };
	return raw;
}

export function locate(
	ctx: StorageContext,
	name: string,
	kind: 'folder' | 'file',
	itemIndex: number,
): Located {
	const { mode, value } = locatorValue(ctx, name, itemIndex);
	const text = String(value ?? '').trim();
	const fail = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	if (!text)
		throw fail(
			`No ${kind} given`,
			`Choose the ${kind} from the list, paste its link, or enter its hash.`,
		);
	if (kind === 'folder' && text.toUpperCase() === ROOT) return { root: true };
	if (mode === 'url' || /^https?:\/\//i.test(text)) {
		const parsed = parseLink(text, kind);
		if (parsed) return parsed;
		throw fail(
			`"${text}" is not a ${kind} link`,
			`A ${kind} link looks like https://<web host>/${kind === 'folder' ? 'u' : 'f'}/<hash> or https://<web host>/pa/<user>/<path>.`,
		);
	}
	if (/[\s/?#]/.test(text)) {
		throw fail(
			`"${text}" is not a ${kind} hash`,
			'A hash has no spaces or slashes. Paste the whole link instead if you copied it from the web app.',
		);
	}
	return { hash: text };
}

export function isRoot(located: Located): boolean {
	return 'root' in located;
}

/** Follows a /pa/<user>/<path> link from ROOT, one folder listing per level. */
async function walkPath(
	ctx: StorageContext,
	account: StorageAccount,
	located: { user: string; path: string[] },
	kind: 'folder' | 'file',
	itemIndex: number,
): Promise<string> {
	const me = await accountInfo(ctx, account, itemIndex);
	if (String(me.UserName ?? '').toLowerCase() !== located.user.toLowerCase()) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The path link belongs to "${located.user}", not to this account`,
			{
				itemIndex,
				description:
					"Path links can only be resolved for the credential's own account. Paste the item's /u/ or /f/ share link instead.",
			},
		);
	}
	let current = await rootFolderHash(ctx, account, itemIndex);
	for (const [index, segment] of located.path.entries()) {
		const wanted = index === located.path.length - 1 ? kind : 'folder';
		const { body } = await v2<IDataObject[]>(
			ctx,
			account,
			'get_folder_content',
			{ folder_hash: current },
			{ itemIndex },
		);
		const match = (Array.isArray(body) ? body : []).find(
			(item) => item.type === wanted && item.name === segment,
		);
		if (!match) {
			throw new NodeOperationError(
				ctx.getNode(),
				`No ${wanted} "${segment}" at /${located.path.slice(0, index).join('/')}`,
				{
					itemIndex,
					description:
						"The path link does not match the account's folders: it may have been renamed, moved or deleted.",
				},
			);
		}
		current = String(match.hash);
	}
	return current;
}

/** The hash a located folder or file stands for; ROOT becomes the account's ROOT hash. */
export async function resolveHash(
	ctx: StorageContext,
	account: StorageAccount,
	located: Located,
	kind: 'folder' | 'file',
	itemIndex: number,
): Promise<string> {
	if ('hash' in located) return located.hash;
	if ('root' in located) return await rootFolderHash(ctx, account, itemIndex);
	return await walkPath(ctx, account, located, kind, itemIndex);
}

/** Locate and resolve in one step, for operations where ROOT is an ordinary folder. */
export async function folderHashParam(
	ctx: StorageContext,
	account: StorageAccount,
	name: string,
	itemIndex: number,
): Promise<string> {
	return await resolveHash(
		ctx,
		account,
		locate(ctx, name, 'folder', itemIndex),
		'folder',
		itemIndex,
	);
}

export async function fileHashParam(
	ctx: StorageContext,
	account: StorageAccount,
	name: string,
	itemIndex: number,
): Promise<string> {
	return await resolveHash(ctx, account, locate(ctx, name, 'file', itemIndex), 'file', itemIndex);
}
