import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { loadOptions } from '../shared/ai/methods';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import * as text from './actions/text/Text.resource';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageAi implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage AI',
		name: 'cloudStorageAi',
		icon: {
			light: 'file:../../icons/cloudStorageAi.svg',
			dark: 'file:../../icons/cloudStorageAi.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{$parameter["operation"] + ": " + ($parameter["model"] === "custom" ? $parameter["customModel"] : $parameter["model"])}}',
		description:
			"Generate text or chat with the service's hosted models: prompts, system prompts, images, JSON output, reasoning (think) levels and streaming",
		defaults: { name: 'Cloud Storage AI' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'cloudStorageBearerApi', required: true, testedBy: 'testBearerCredential' },
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: optionsFor(resources, [{ name: 'Text', value: 'text' }]),
				default: 'text',
			},
			...text.description,
		],
	};

	methods = {
		credentialTest,
		loadOptions: convertingErrors(loadOptions),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
