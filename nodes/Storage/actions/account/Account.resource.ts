import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as createAccessToken from './createAccessToken.operation';
import * as get from './get.operation';
import * as getStorageUsage from './getStorageUsage.operation';

export const operations = { createAccessToken, get, getStorageUsage };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: optionsFor(operations, [
			{
				name: 'Create Access Token',
				value: 'createAccessToken',
				description: 'Create a new user access token (a secret)',
				action: 'Create an access token',
			},
			{
				name: 'Get',
				value: 'get',
				description: "Get the account's data: IDs, ROOT folder, limits",
				action: 'Get the account',
			},
			{
				name: 'Get Storage Usage',
				value: 'getStorageUsage',
				description: 'Get used, free and total storage in MB',
				action: 'Get storage usage',
			},
		]),
		default: 'get',
	},
	...createAccessToken.description,
	...get.description,
	...getStorageUsage.description,
];
