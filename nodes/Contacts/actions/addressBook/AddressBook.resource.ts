import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as getAll from './getAll.operation';

export const operations = { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['addressBook'] } },
		options: optionsFor(operations, [{ name: 'Get Many', value: 'getAll', description: 'List the account\'s address books', action: 'Get many address books' }]),
		default: 'getAll',
	},
	...getAll.description,
];
