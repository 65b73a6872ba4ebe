import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { requireAccount, v1, type StorageAccount } from '../../../shared/storage/client';
import { writeOutcome } from '../../../shared/storage/reconcile';
import { toNodeError } from '../../../shared/node/node-error';
import { formBody } from '../../../shared/transport';

interface RestoreAnswer {
	success?: boolean;
	Success?: boolean;
	error?: string;
	message?: string;
}

/**
 * Restore is legacy-only and its parameters are not shown in the spec: the hash is sent under both the
 * generic V1 name (`hash`) and the V2 name (`file_hash` / `folder_hash`), which a script ignores if unused.
 */
export async function restore(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	kind: 'file' | 'folder',
	hash: string,
	itemIndex: number,
): Promise<IDataObject> {
	requireAccount(ctx, account, itemIndex);
	const planHint =
		'Restoring deleted items needs a PRO, BUSINESS or ENTERPRISE account; check the plan, and that the item is still in the trash.';
	let body: RestoreAnswer | undefined;
	let status = 200;
	try {
		({ body, status } = await v1<RestoreAnswer>(ctx, account, `api/undelete_${kind}.php`, {
			body: formBody({ hash, [`${kind}_hash`]: hash }),
			itemIndex,
			write: {},
		}));
	} catch (error) {
		// The transport's failures are PackErrors: in n8n's form first, so the fix can be added to its text.
		const known = toNodeError(ctx.getNode(), error, itemIndex);
		const apiError =
			known instanceof NodeApiError
				? known
				: new NodeApiError(ctx.getNode(), error as JsonObject, { itemIndex });
		if (['403', '405'].includes(String(apiError.httpCode)))
			apiError.description = `${planHint} ${apiError.description ?? ''}`.trim();
		throw apiError;
	}
	if (
		body &&
		(body.success === false || body.Success === false || typeof body.error === 'string')
	) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'restore refused' },
			{
				itemIndex,
				message: `The service did not restore the ${kind}${body.error || body.message ? `: ${body.error ?? body.message}` : ''}`,
				description: planHint,
			},
		);
	}
	return writeOutcome({ status });
}
