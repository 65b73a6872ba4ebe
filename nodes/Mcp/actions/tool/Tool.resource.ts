import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as call from './call.operation';
import * as getAll from './getAll.operation';

export const operations = { call, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tool'] } },
		options: optionsFor(operations, [
			{
				name: 'Call',
				value: 'call',
				description:
					'Call a tool of the endpoint: read folders, file info and file contents, search files or docs',
				action: 'Call a tool',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List the tools the endpoint offers, with their descriptions and input schemas',
				action: 'List tools',
			},
		]),
		default: 'call',
	},
	...call.description,
	...getAll.description,
];
