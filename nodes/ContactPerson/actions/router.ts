import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeItems, type OperationMap } from '../../shared/node/router';
import * as contactPerson from './contactPerson/ContactPerson.resource';

/** resource option value → its operations; the node's Resource options are checked against it. */
export const resources = { contactPerson: contactPerson.operations } satisfies OperationMap;

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, resources);
}
