import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireAccount, storageAccount, v1 } from '../../../shared/storage/client';
import { folderLink } from '../../../shared/storage/links';
import { formBody } from '../../../shared/transport';

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['get'] } },
	[] as INodeProperties[],
);

/** Fields of UserData that are secrets of the login itself and never leave the node. */
const SECRET_FIELDS = ['user_access_token', 'SessionID', 'PHPSESSID', 'pass', 'password'];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const account = await storageAccount(this, itemIndex);
	requireAccount(this, account, itemIndex);
	const { body } = await v1<{ UserData?: IDataObject }>(
		this,
		account,
		'api/authenticate_user.php',
		{ body: formBody({}), itemIndex },
	);
	const user: IDataObject = { ...(body?.UserData ?? {}) };
	for (const field of SECRET_FIELDS) delete user[field];
	if (user.root_upload_hash)
		user.root_link = folderLink(account.webUrl, String(user.root_upload_hash));
	return [{ json: user }];
}
