import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { searchFolders } from '../shared/storage/folder-search';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import * as signature from './actions/signature/Signature.resource';
import { storageAuthentication, storageCredentials } from '../shared/storage/auth-fields';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageESignature implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage E-Signature',
		name: 'cloudStorageESignature',
		icon: {
			light: 'file:../../icons/cloudStorageESignature.svg',
			dark: 'file:../../icons/cloudStorageESignature.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Have files in the cloud storage service signed electronically: list signatures, e-mail signing requests, or build a signing page',
		defaults: { name: 'Cloud Storage E-Signature' },
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
				options: optionsFor(resources, [{ name: 'Signature', value: 'signature' }]),
				default: 'signature',
			},
			...signature.description,
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
