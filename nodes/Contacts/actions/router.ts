import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeItems } from '../../shared/node/router';
import * as addressBook from './addressBook/AddressBook.resource';
import * as contact from './contact/Contact.resource';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, { addressBook, contact });
}
