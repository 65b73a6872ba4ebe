import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as list from './list.operation';

export { create, del as delete, get, list };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['folder'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Create a folder', action: 'Create a folder' },
			{ name: 'Delete', value: 'delete', description: 'Delete a folder and everything in it', action: 'Delete a folder' },
			{ name: 'Get', value: 'get', description: 'Get a folder\'s details', action: 'Get a folder' },
			{ name: 'List Content', value: 'list', description: 'List the files and subfolders of a folder', action: 'List folder content' },
		],
		default: 'list',
	},
	...create.description,
	...del.description,
	...get.description,
	...list.description,
];
