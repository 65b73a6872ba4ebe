import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as getAll from './getAll.operation';
import * as getTemplates from './getTemplates.operation';
import * as read from './read.operation';

export const operations = { getAll, getTemplates, read };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['resource'] } },
		options: optionsFor(operations, [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the resources the endpoint offers (resources/list)',
				action: 'List resources',
			},
			{
				name: 'Get Templates',
				value: 'getTemplates',
				description:
					'List the private resource templates (resources/templates/list; needs the Bearer token)',
				action: 'List resource templates',
			},
			{
				name: 'Read',
				value: 'read',
				description:
					'Read a documentation resource (docs://) or a private resource of the account by URI',
				action: 'Read a resource',
			},
		]),
		default: 'read',
	},
	...getAll.description,
	...getTemplates.description,
	...read.description,
];
