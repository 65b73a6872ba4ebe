import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeItems } from '../../shared/node/router';
import * as signature from './signature/Signature.resource';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, { signature });
}
