import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { v2, type StorageAccount } from '../../../shared/storage/client';
import { mayHaveBeenApplied, writeOutcome } from '../../../shared/storage/reconcile';

type Kind = 'file' | 'folder';

const info = (
	ctx: IExecuteFunctions,
	account: StorageAccount,
	kind: Kind,
	hash: string,
	itemIndex: number,
) =>
	v2<IDataObject>(
		ctx,
		account,
		`get_${kind}_info`,
		{ [`${kind}_hash`]: hash },
		{
			itemIndex,
			answer: { accept: [403, 405] },
		},
	);

/**
 * delete_file / delete_folder with its outcome proven after a lost answer. The documents answer 405 for a
 * missing item but also for one this account may not see or that is unavailable, so a 405 alone proves
 * nothing. The proof is the parent folder's listing, which this account could read: the item is absent
 * from it. The parent is read before the delete (one info call per delete; 405 there leaves the delete to
 * answer for itself, and then a lost answer cannot be proven; so does a 403). After a lost answer: the item's info
 * still answers (200) — not deleted, sent again; absent from its parent's listing — deleted; anything else
 * — "may have been applied".
 */
export async function deleteProven(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	kind: Kind,
	hash: string,
	itemIndex: number,
): Promise<{ body: IDataObject | undefined; outcome: IDataObject }> {
	const before = await info(ctx, account, kind, hash, itemIndex);
	const parent =
		before.status === 200 && before.body?.parent_folder_hash
			? String(before.body.parent_folder_hash)
			: undefined;
	const check = `Look for ${kind} ${hash}${parent ? ` in folder ${parent}` : ''} (and in the trash) before running this item again; the node did not send the delete twice.`;
	const response = await v2<IDataObject>(
		ctx,
		account,
		`delete_${kind}`,
		{ [`${kind}_hash`]: hash },
		{
			itemIndex,
			write: {
				reconcile: async () => {
					if ((await info(ctx, account, kind, hash, itemIndex)).status === 200) return undefined;
					if (parent === undefined)
						throw mayHaveBeenApplied(
							ctx,
							itemIndex,
							`the answer to deleting ${kind} ${hash} was lost, and the service now answers 405 for it, which also means "no access"; its folder was not known to check`,
							check,
						);
					const { body: listing } = await v2<IDataObject[]>(
						ctx,
						account,
						'get_folder_content',
						{ folder_hash: parent },
						{ itemIndex },
					);
					const listed = (Array.isArray(listing) ? listing : []).some(
						(item) => String(item.hash) === hash,
					);
					if (!listed) return { status: 'ok' };
					throw mayHaveBeenApplied(
						ctx,
						itemIndex,
						`the answer to deleting ${kind} ${hash} was lost; the service answers 405 for it, yet its folder still lists it`,
						`The account may have lost access to it meanwhile. ${check}`,
					);
				},
			},
		},
	);
	return { body: response.body, outcome: writeOutcome(response) };
}
