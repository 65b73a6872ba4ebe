import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v1 } from '../../../shared/storage/client';

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['getStorageUsage'] } },
	[] as INodeProperties[],
);

interface StorageData {
	success?: boolean;
	message?: string;
	data?: IDataObject;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const { body } = await v1<StorageData>(this, account, 'api/get_storage_data.php', {
		method: 'GET',
		itemIndex,
	});
	if (!body?.success || !body.data) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'storage data refused' },
			{
				itemIndex,
				message: `The service did not return the storage usage${body?.message ? `: ${body.message}` : ''}`,
				description: 'Try again later.',
			},
		);
	}
	return [{ json: body.data }];
}
