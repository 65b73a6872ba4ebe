import { supplyModel } from '@n8n/ai-node-sdk';
import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { modelFields, modelOptionFields, thinkField } from '../shared/ai/fields';
import { loadOptions } from '../shared/ai/methods';
import type { ThinkLevel } from '../shared/ai/models';
import { callAi, streamLines } from '../shared/ai/transport';
import { toNodeError } from '../shared/node/node-error';
import { CloudStorageChatModel } from './model';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageAiChatModel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage AI Chat Model',
		name: 'cloudStorageAiChatModel',
		icon: {
			light: 'file:../../icons/cloudStorageAi.svg',
			dark: 'file:../../icons/cloudStorageAi.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{$parameter["model"] === "custom" ? $parameter["customModel"] : $parameter["model"]}}',
		description:
			"The service's hosted models as the language model of an AI Agent or chain, with thinking and tool calling",
		defaults: { name: 'Cloud Storage AI Chat Model' },
		codex: {
			categories: ['AI'],
			subcategories: {
				AI: ['Language Models', 'Root Nodes'],
				'Language Models': ['Chat Models (Recommended)'],
			},
			resources: {
				primaryDocumentation: [
					{ url: 'https://github.com/n8n-nodes-cloud-storage/n8n-nodes-cloud-storage#ai' },
				],
			},
		},
		inputs: [],
		outputs: [NodeConnectionTypes.AiLanguageModel],
		outputNames: ['Model'],
		credentials: [
			{ name: 'cloudStorageBearerApi', required: true, testedBy: 'testBearerCredential' },
		],
		properties: [
			...modelFields,
			{ ...thinkField, description: `${thinkField.description} Models without thinking need Off.` },
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: modelOptionFields,
			},
		],
	};

	methods = {
		credentialTest,
		loadOptions: convertingErrors(loadOptions),
	};

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		const chosen = this.getNodeParameter('model', itemIndex) as string;
		const modelId = (
			chosen === 'custom' ? (this.getNodeParameter('customModel', itemIndex, '') as string) : chosen
		).trim();
		if (!modelId) throw new NodeOperationError(this.getNode(), 'No model id given', { itemIndex });
		const think = this.getNodeParameter('think', itemIndex, 'low') as ThinkLevel;
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const num = (name: string) =>
			typeof options[name] === 'number' ? (options[name] as number) : undefined;
		const call = { itemIndex, timeoutMs: (num('timeout') ?? 300) * 1000 };
		const model = new CloudStorageChatModel(
			modelId,
			{
				complete: async (body) => await callAi(this, 'api/chat', body, call),
				lines: (body) => streamLines(this, 'api/chat', body, call),
				// The one place this sub-node turns the protocol's errors into n8n's: the agent sees cause and fix.
				failure: (error) => toNodeError(this.getNode(), error, itemIndex),
			},
			{
				think,
				temperature: num('temperature'),
				topP: num('topP'),
				topK: num('topK'),
				maxTokens: num('maxTokens'),
				contextSize: num('contextSize'),
				seed: num('seed'),
				keepAlive:
					typeof options.keepAlive === 'string' && options.keepAlive
						? options.keepAlive
						: undefined,
			},
		);
		// The SDK is typed against its own copy of n8n-workflow; at run time n8n hands over the same object.
		return supplyModel(this as unknown as Parameters<typeof supplyModel>[0], model);
	}
}
