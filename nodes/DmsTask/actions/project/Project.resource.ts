import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getFields from './getFields.operation';

export const operations = { get, getAll, getFields };

/** Read-only in the API: fields, one project, or a filtered list. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['project'] } },
		options: optionsFor(operations, [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a project with all its fields',
				action: 'Get a project',
			},
			{
				name: 'Get Fields',
				value: 'getFields',
				description: 'List the fields this organisation declares for projects',
				action: 'Get project fields',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List projects, newest first, optionally filtered',
				action: 'Get many projects',
			},
		]),
		default: 'getAll',
	},
	...get.description,
	...getAll.description,
	...getFields.description,
];
