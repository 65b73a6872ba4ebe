import type { INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { StorageAccount, StorageContext } from './client';
import { hashFromLink } from './links';
import { rootFolderHash } from './root';

export const ROOT = 'ROOT';

function locatorValue(ctx: StorageContext, name: string, itemIndex: number): INodeParameterResourceLocator {
	const raw = ctx.getNodeParameter(name, itemIndex) as INodeParameterResourceLocator | string;
	if (typeof raw === 'string') return { __rl: true, mode: 'id', value: raw };
	return raw;
}

/**
 * Reads a folder or file locator and returns the hash it names, accepting a hash, a pasted link
 * or (folders) ROOT. Bad input fails here, before any request.
 */
export function locatedHash(ctx: StorageContext, name: string, kind: 'folder' | 'file', itemIndex: number): string {
	const { mode, value } = locatorValue(ctx, name, itemIndex);
	const text = String(value ?? '').trim();
	const label = kind === 'folder' ? 'folder' : 'file';
	if (!text) {
		throw new NodeOperationError(ctx.getNode(), `No ${label} given`, {
			itemIndex,
			description: `Choose the ${label} from the list, paste its link, or enter its hash.`,
		});
	}
	if (kind === 'folder' && text.toUpperCase() === ROOT) return ROOT;
	const fromLink = /^https?:\/\//i.test(text) ? hashFromLink(text, kind) : undefined;
	if (mode === 'url' || /^https?:\/\//i.test(text)) {
		if (fromLink) return fromLink;
		throw new NodeOperationError(ctx.getNode(), `"${text}" is not a ${label} link`, {
			itemIndex,
			description: `A ${label} link looks like https://<web host>/${kind === 'folder' ? 'u' : 'f'}/<hash>.`,
		});
	}
	if (/[\s/?#]/.test(text)) {
		throw new NodeOperationError(ctx.getNode(), `"${text}" is not a ${label} hash`, {
			itemIndex,
			description: 'A hash has no spaces or slashes. Paste the whole link instead if you copied it from the web app.',
		});
	}
	return text;
}

/** Like locatedHash, with ROOT turned into the account's ROOT hash for actions that need a real hash. */
export async function resolvedFolderHash(
	ctx: StorageContext,
	account: StorageAccount,
	name: string,
	itemIndex: number,
): Promise<string> {
	const hash = locatedHash(ctx, name, 'folder', itemIndex);
	return hash === ROOT ? await rootFolderHash(ctx, account, itemIndex) : hash;
}
