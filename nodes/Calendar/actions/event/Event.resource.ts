import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const operations = { create, delete: del, get, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['event'] } },
		options: optionsFor(operations, [
			{
				name: 'Create',
				value: 'create',
				description: 'Create an event from fields or raw iCalendar',
				action: 'Create an event',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete an event (only if unchanged since its ETag was read)',
				action: 'Delete an event',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get an event by URL or UID',
				action: 'Get an event',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get the events in a time range, optionally with recurring series expanded',
				action: 'Get many events',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change some fields of an event, keeping everything else',
				action: 'Update an event',
			},
		]),
		default: 'getAll',
	},
	...create.description,
	...del.description,
	...get.description,
	...getAll.description,
	...update.description,
];
