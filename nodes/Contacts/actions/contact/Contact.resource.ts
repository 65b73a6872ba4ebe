import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as search from './search.operation';
import * as update from './update.operation';

export const operations = { create, delete: del, get, getAll, search, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: optionsFor(operations, [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a contact from fields or a raw vCard',
				action: 'Create a contact',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a contact (only if unchanged since its ETag was read)',
				action: 'Delete a contact',
			},
			{ name: 'Get', value: 'get', description: 'Get a contact by URL', action: 'Get a contact' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get the contacts of an address book',
				action: 'Get many contacts',
			},
			{
				name: 'Search',
				value: 'search',
				description: 'Find contacts whose name contains a text',
				action: 'Search contacts',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change some fields of a contact, keeping everything else',
				action: 'Update a contact',
			},
		]),
		default: 'getAll',
	},
	...create.description,
	...del.description,
	...get.description,
	...getAll.description,
	...search.description,
	...update.description,
];
