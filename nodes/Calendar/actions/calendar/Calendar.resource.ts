import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const operations = { create, delete: del, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['calendar'] } },
		options: optionsFor(operations, [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a calendar (MKCALENDAR, where the server allows it)',
				action: 'Create a calendar',
			},
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete a calendar with its events, or leave a calendar shared with you (the owner keeps it)',
				action: 'Delete a calendar',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: "List the account's calendars, shared ones included",
				action: 'Get many calendars',
			},
			{
				name: 'Update',
				value: 'update',
				description: "Change a calendar's name, colour, description or order",
				action: 'Update a calendar',
			},
		]),
		default: 'getAll',
	},
	...create.description,
	...del.description,
	...getAll.description,
	...update.description,
];
