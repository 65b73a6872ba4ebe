import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { searchFolders } from '../shared/storage/folder-search';
import * as item from './actions/item/Item.resource';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import { storageAuthentication, storageCredentials } from '../shared/storage/auth-fields';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageSearch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage Search',
		name: 'cloudStorageSearch',
		icon: {
			light: 'file:../../icons/cloudStorageSearch.svg',
			dark: 'file:../../icons/cloudStorageSearch.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{$parameter["operation"] === "fullSearch" ? "Full search" : "Search: " + $parameter["query"]}}',
		description:
			'Find files and folders in the cloud storage service by name, type, section or criteria; one item per result with its path, size, date and link',
		defaults: { name: 'Cloud Storage Search' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: storageCredentials,
		properties: [
			storageAuthentication,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: optionsFor(resources, [{ name: 'File and Folder', value: 'item' }]),
				default: 'item',
			},
			...item.description,
			requestOptionsField,
		],
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors({ searchFolders }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
