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
		displayOptions: { show: { resource: ['addressBook'] } },
		options: optionsFor(operations, [
			{
				name: 'Create',
				value: 'create',
				description: 'Create an address book (extended MKCOL)',
				action: 'Create an address book',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete an address book and every contact in it',
				action: 'Delete an address book',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: "List the account's address books",
				action: 'Get many address books',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Rename an address book or change its description',
				action: 'Update an address book',
			},
		]),
		default: 'getAll',
	},
	...create.description,
	...del.description,
	...getAll.description,
	...update.description,
];
