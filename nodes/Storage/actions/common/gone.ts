import type { IExecuteFunctions } from 'n8n-workflow';

import { v2, type StorageAccount } from '../../../shared/storage/client';

/** Whether an item no longer exists: its info action answers 405, the service's status for missing items. */
export async function isGone(
	ctx: IExecuteFunctions,
	account: StorageAccount,
	infoAction: 'get_file_info' | 'get_folder_info',
	fields: Record<string, string>,
	itemIndex: number,
): Promise<boolean> {
	const { status } = await v2(ctx, account, infoAction, fields, {
		itemIndex,
		acceptStatuses: [405],
	});
	return status === 405;
}
