import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as getFileKey from './getFileKey.operation';
import * as getFolderKey from './getFolderKey.operation';
import * as getShareKey from './getShareKey.operation';
import * as saveFileKey from './saveFileKey.operation';
import * as saveFolderKey from './saveFolderKey.operation';
import * as saveUserKeys from './saveUserKeys.operation';

export const operations = {
	getFileKey,
	getFolderKey,
	getShareKey,
	saveFileKey,
	saveFolderKey,
	saveUserKeys,
};

export const description: INodeProperties[] = [
	{
		displayName:
			'The service stores only public keys and already-wrapped keys. These operations move opaque strings; encrypt and wrap keys on your side.',
		name: 'e2eNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['encryption'] } },
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['encryption'] } },
		options: optionsFor(operations, [
			{
				name: 'Get File Key',
				value: 'getFileKey',
				description: "Get a file's wrapped key and the sender's public keys",
				action: 'Get a file key',
			},
			{
				name: 'Get Folder Key',
				value: 'getFolderKey',
				description: "Get a folder's wrapped key and the sender's public keys",
				action: 'Get a folder key',
			},
			{
				name: 'Get Share Key',
				value: 'getShareKey',
				description: 'Get the key material to share a file or folder with another user',
				action: 'Get a share key',
			},
			{
				name: 'Save File Key',
				value: 'saveFileKey',
				description: "Store a file's wrapped key (marks it encrypted)",
				action: 'Save a file key',
			},
			{
				name: 'Save Folder Key',
				value: 'saveFolderKey',
				description: "Store a folder's wrapped key (marks it encrypted)",
				action: 'Save a folder key',
			},
			{
				name: 'Save User Keys',
				value: 'saveUserKeys',
				description: "Publish the account's four public keys",
				action: 'Save user keys',
			},
		]),
		default: 'getFileKey',
	},
	...getFileKey.description,
	...getFolderKey.description,
	...getShareKey.description,
	...saveFileKey.description,
	...saveFolderKey.description,
	...saveUserKeys.description,
];
