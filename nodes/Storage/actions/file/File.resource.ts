import type { INodeProperties } from 'n8n-workflow';

import * as del from './delete.operation';
import * as download from './download.operation';
import * as get from './get.operation';
import * as upload from './upload.operation';

export { del as delete, download, get, upload };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['file'] } },
		options: [
			{ name: 'Delete', value: 'delete', description: 'Delete a file', action: 'Delete a file' },
			{ name: 'Download', value: 'download', description: 'Download a file into a binary field', action: 'Download a file' },
			{ name: 'Get', value: 'get', description: 'Get a file\'s details', action: 'Get a file' },
			{ name: 'Upload', value: 'upload', description: 'Upload a file from a binary field', action: 'Upload a file' },
		],
		default: 'upload',
	},
	...del.description,
	...download.description,
	...get.description,
	...upload.description,
];
