import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as file from './actions/file/File.resource';
import * as folder from './actions/folder/Folder.resource';
import { router } from './actions/router';
import { searchFolders } from './methods/listSearch';

export class CloudStorage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage',
		name: 'cloudStorage',
		icon: { light: 'file:../../icons/cloudStorage.svg', dark: 'file:../../icons/cloudStorage.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Upload, download, list and manage files and folders in the cloud storage service',
		defaults: { name: 'Cloud Storage' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'cloudStorageTokenApi', required: true, displayOptions: { show: { authentication: ['tokenApi'] } } },
			{ name: 'cloudStoragePasswordApi', required: true, displayOptions: { show: { authentication: ['passwordApi'] } } },
		],
		properties: [
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{ name: 'Access Token', value: 'tokenApi' },
					{ name: 'Password', value: 'passwordApi' },
				],
				default: 'tokenApi',
			},
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'File', value: 'file' },
					{ name: 'Folder', value: 'folder' },
				],
				default: 'file',
			},
			...file.description,
			...folder.description,
		],
	};

	methods = { listSearch: { searchFolders } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
