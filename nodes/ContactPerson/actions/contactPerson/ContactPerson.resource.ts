import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getFields from './getFields.operation';
import * as update from './update.operation';

export const operations = { create, get, getAll, getFields, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contactPerson'] } },
		options: optionsFor(operations, [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a contact person',
				action: 'Create a contact person',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a contact person with all fields',
				action: 'Get a contact person',
			},
			{
				name: 'Get Fields',
				value: 'getFields',
				description: 'List the contact-person fields this organisation declares',
				action: 'Get contact person fields',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List contact persons, newest first, optionally filtered by company or group',
				action: 'Get many contact persons',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change some fields of a contact person',
				action: 'Update a contact person',
			},
		]),
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...getFields.description,
	...update.description,
];
