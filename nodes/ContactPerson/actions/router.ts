import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { guardReruns } from '../../shared/node/rerun-guard';
import { routeItems, type OperationMap } from '../../shared/node/router';
import * as contactPerson from './contactPerson/ContactPerson.resource';

/** resource option value → its operations; the node's Resource options are checked against it. */
export const resources = { contactPerson: contactPerson.operations } satisfies OperationMap;

/** Writes are never sent again by n8n's Retry On Fail within one node run (`rerun-guard.ts`). */
const guarded = guardReruns(resources);

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, guarded);
}
