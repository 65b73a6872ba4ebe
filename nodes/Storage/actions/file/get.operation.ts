import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { storageAccount, v2 } from '../../../shared/storage/client';
import { locatedHash } from '../../../shared/storage/locator';
import { fileLocator } from '../../../shared/storage/locator-fields';
import { withLink } from '../../../shared/storage/outputs';
import { accessRightsOption } from '../common/access-rights';

const properties: INodeProperties[] = [fileLocator(), accessRightsOption];

export const description = updateDisplayOptions({ show: { resource: ['file'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const fileHash = locatedHash(this, 'file', 'file', itemIndex);
	const withRights = this.getNodeParameter('options.accessRights', itemIndex, false) as boolean;
	const account = await storageAccount(this);
	const { body } = await v2<IDataObject>(
		this,
		account,
		'get_file_info',
		{ file_hash: fileHash, get_access_rights: withRights || undefined },
		{ itemIndex },
	);
	return [{ json: withLink(account, body, 'file') }];
}
