import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as addComment from './addComment.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getFields from './getFields.operation';
import * as getUsers from './getUsers.operation';
import * as update from './update.operation';

export const operations = { addComment, create, get, getAll, getFields, getUsers, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['task'] } },
		options: optionsFor(operations, [
			{
				name: 'Add Comment',
				value: 'addComment',
				description: 'Comment on a task, optionally mentioning users',
				action: 'Add a comment to a task',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a task in a project',
				action: 'Create a task',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a task with all its fields, description included',
				action: 'Get a task',
			},
			{
				name: 'Get Fields',
				value: 'getFields',
				description: 'List the task fields this organisation declares',
				action: 'Get task fields',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List tasks, newest first, optionally filtered',
				action: 'Get many tasks',
			},
			{
				name: 'Get Users',
				value: 'getUsers',
				description: 'List the users of a project (who can be responsible or follow its tasks)',
				action: 'Get users of a project',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change some fields of a task',
				action: 'Update a task',
			},
		]),
		default: 'getAll',
	},
	...addComment.description,
	...create.description,
	...get.description,
	...getAll.description,
	...getFields.description,
	...getUsers.description,
	...update.description,
];
