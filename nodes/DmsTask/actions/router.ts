import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { guardReruns } from '../../shared/node/rerun-guard';
import { routeItems, type OperationMap } from '../../shared/node/router';
import * as client from './client/Client.resource';
import * as project from './project/Project.resource';
import * as task from './task/Task.resource';

/** resource option value → its operations; the node's Resource options are checked against it. */
export const resources = {
	task: task.operations,
	project: project.operations,
	client: client.operations,
} satisfies OperationMap;

/** Writes are never sent again by n8n's Retry On Fail within one node run (`rerun-guard.ts`). */
const guarded = guardReruns(resources);

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, guarded);
}
