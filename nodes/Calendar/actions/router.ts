import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeItems } from '../../shared/node/router';
import * as calendar from './calendar/Calendar.resource';
import * as event from './event/Event.resource';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeItems.call(this, { calendar, event });
}
