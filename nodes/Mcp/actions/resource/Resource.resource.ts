import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as read from './read.operation';

export const operations = { read };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['resource'] } },
		options: optionsFor(operations, [
			{
				name: 'Read',
				value: 'read',
				description: 'Read a documentation resource (docs://) or a private resource of the account by URI',
				action: 'Read a resource',
			},
		]),
		default: 'read',
	},
	...read.description,
];
