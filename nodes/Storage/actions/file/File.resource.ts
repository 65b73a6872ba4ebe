import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as del from './delete.operation';
import * as download from './download.operation';
import * as findByName from './findByName.operation';
import * as get from './get.operation';
import * as getKeys from './getKeys.operation';
import * as move from './move.operation';
import * as rename from './rename.operation';
import * as replace from './replace.operation';
import * as restore from './restore.operation';
import * as upload from './upload.operation';

export const operations = {
	delete: del,
	download,
	findByName,
	get,
	getKeys,
	move,
	rename,
	replace,
	restore,
	upload,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		options: optionsFor(operations, [
			{ name: 'Delete', value: 'delete', description: 'Delete a file', action: 'Delete a file' },
			{
				name: 'Download',
				value: 'download',
				description: 'Download a file into a binary field',
				action: 'Download a file',
			},
			{
				name: 'Find by Name',
				value: 'findByName',
				description: 'Find a file by its exact name in a folder',
				action: 'Find a file by name',
			},
			{ name: 'Get', value: 'get', description: "Get a file's details", action: 'Get a file' },
			{
				name: 'Get Keys',
				value: 'getKeys',
				description: "Get a file's edit keys",
				action: 'Get file keys',
			},
			{
				name: 'Move',
				value: 'move',
				description: 'Move a file to another folder of the same account',
				action: 'Move a file',
			},
			{ name: 'Rename', value: 'rename', description: 'Rename a file', action: 'Rename a file' },
			{
				name: 'Replace Content',
				value: 'replace',
				description: 'Upload new content for a file, keeping its hash and link',
				action: 'Replace the content of a file',
			},
			{
				name: 'Restore',
				value: 'restore',
				description: 'Restore a deleted file (PRO, BUSINESS, ENTERPRISE)',
				action: 'Restore a file',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a file from a binary field',
				action: 'Upload a file',
			},
		]),
		default: 'upload',
	},
	...del.description,
	...download.description,
	...findByName.description,
	...get.description,
	...getKeys.description,
	...move.description,
	...rename.description,
	...replace.description,
	...restore.description,
	...upload.description,
];
