import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeItems } from '../../shared/node/router';
import * as docs from './docs/Docs.resource';
import * as resource from './resource/Resource.resource';
import * as server from './server/Server.resource';
import * as tool from './tool/Tool.resource';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, { docs, resource, server, tool });
}
