import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { accountInfo } from '../../../shared/storage/account-info';
import { requireAccount, storageAccount, v2 } from '../../../shared/storage/client';
import { writeOutcome } from '../../../shared/storage/reconcile';

export const userIdField: INodeProperties = {
	displayName: 'User ID',
	name: 'userId',
	type: 'number',
	default: 0,
	description:
		"The account's numeric ID; leave 0 to use the credential's account. The service requires it to match the authenticated user, so any other ID is refused before sending.",
};

export function keyField(
	displayName: string,
	name: string,
	description: string,
	required = true,
): INodeProperties {
	return { displayName, name, type: 'string', default: '', required, description };
}

/** Reads a required opaque string parameter; keys are moved as they are, never inspected. */
export function opaque(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	required = true,
): string | undefined {
	const value = String(ctx.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!value && required) {
		throw new NodeOperationError(ctx.getNode(), `${label} is empty`, {
			itemIndex,
			description: `Enter the ${label.toLowerCase()}.`,
		});
	}
	return value || undefined;
}

/**
 * Sends one encryption-key action as the credential's account. The node never sees plaintext keys: it
 * forwards opaque, already-wrapped strings.
 */
export async function encryptionAction(
	ctx: IExecuteFunctions,
	action: string,
	fields: Record<string, string | boolean | undefined>,
	itemIndex: number,
	write: boolean,
): Promise<IDataObject> {
	const account = await storageAccount(ctx, itemIndex);
	requireAccount(ctx, account, itemIndex);
	const own = Number((await accountInfo(ctx, account, itemIndex)).ID);
	const given = Number(ctx.getNodeParameter('userId', itemIndex, 0) || 0);
	if (given && given !== own) {
		throw new NodeOperationError(
			ctx.getNode(),
			`User ID ${given} is not the credential's account`,
			{
				itemIndex,
				description: `The service only accepts the authenticated user's own id (${own}). Leave User ID at 0 to use it.`,
			},
		);
	}
	const response = await v2<IDataObject>(
		ctx,
		account,
		action,
		{ userID: own, ...fields },
		{ itemIndex, write: write ? {} : undefined },
	);
	return { ...(response.body ?? {}), ...(write ? writeOutcome(response) : {}) };
}
