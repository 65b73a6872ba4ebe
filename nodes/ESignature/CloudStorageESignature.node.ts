import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchFolders } from '../shared/storage/folder-search';
import { router } from './actions/router';
import * as signature from './actions/signature/Signature.resource';

export class CloudStorageESignature implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage E-Signature',
		name: 'cloudStorageESignature',
		icon: { light: 'file:../../icons/cloudStorageESignature.svg', dark: 'file:../../icons/cloudStorageESignature.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Have files in the cloud storage service signed electronically: list signatures, e-mail signing requests, or build a signing page',
		defaults: { name: 'Cloud Storage E-Signature' },
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
				options: [{ name: 'Signature', value: 'signature' }],
				default: 'signature',
			},
			...signature.description,
		],
	};

	methods = { listSearch: { searchFolders } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
