import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account/Account.resource';
import * as encryption from './actions/encryption/Encryption.resource';
import * as file from './actions/file/File.resource';
import * as folder from './actions/folder/Folder.resource';
import { resources, router } from './actions/router';
import { convertingErrors } from '../shared/node/load-options';
import { optionsFor } from '../shared/node/router';
import { storageAuthentication } from '../shared/storage/auth-fields';
import { searchFolders } from '../shared/storage/folder-search';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage',
		name: 'cloudStorage',
		icon: {
			light: 'file:../../icons/cloudStorage.svg',
			dark: 'file:../../icons/cloudStorage.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Upload, download, list, move and share files and folders in the cloud storage service; manage the account and end-to-end-encryption keys',
		defaults: { name: 'Cloud Storage' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Written out (the same as `storageCredentials`) because n8n's lint reads `testedBy` from node files only.
		credentials: [
			{
				name: 'cloudStorageTokenApi',
				required: true,
				testedBy: 'testTokenCredential',
				displayOptions: { show: { authentication: ['tokenApi'] } },
			},
			{
				name: 'cloudStoragePasswordApi',
				required: true,
				testedBy: 'testPasswordCredential',
				displayOptions: { show: { authentication: ['passwordApi'] } },
			},
		],
		properties: [
			{
				...storageAuthentication,
				options: [
					...(storageAuthentication.options ?? []),
					{ name: 'None (Public Links and Upload Keys)', value: 'none' },
				],
			},
			{
				displayName: 'Base URL',
				name: 'baseUrl',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'https://api.example.com',
				description: "The service's API address, for use without a credential",
				displayOptions: { show: { authentication: ['none'] } },
			},
			{
				displayName: 'Web URL',
				name: 'webUrl',
				type: 'string',
				default: '',
				placeholder: 'https://www.example.com',
				description: "The address of the service's web pages, used for links",
				displayOptions: { show: { authentication: ['none'] } },
			},
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: optionsFor(resources, [
					{ name: 'Account', value: 'account' },
					{ name: 'Encryption Key', value: 'encryption' },
					{ name: 'File', value: 'file' },
					{ name: 'Folder', value: 'folder' },
				]),
				default: 'file',
			},
			...account.description,
			...encryption.description,
			...file.description,
			...folder.description,
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
