import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeItems } from '../../shared/node/router';
import * as account from './account/Account.resource';
import * as encryption from './encryption/Encryption.resource';
import * as file from './file/File.resource';
import * as folder from './folder/Folder.resource';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, { account, encryption, file, folder });
}
