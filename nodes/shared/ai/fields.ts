import type { INodeProperties } from 'n8n-workflow';

import { DOCUMENTED_MODELS } from './models';

/** The option that switches to free entry of a model id. */
export const CUSTOM_MODEL = 'custom';

/** Model picker and think level, shared by the AI node and the Chat Model sub-node. */
export const modelFields: INodeProperties[] = [
	{
		displayName: 'Model Name or ID',
		name: 'model',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getModels' },
		default: CUSTOM_MODEL,
		description:
			'The model that answers. The list is loaded from the service\'s model listing when it offers one; otherwise choose "Enter ID". Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Model ID',
		name: 'customModel',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. family1:12b',
		description: 'The model ID as the AI API names it: family and version, a colon, and the size',
		displayOptions: { show: { model: [CUSTOM_MODEL] } },
	},
	{
		displayName: `The documents describe six models by capability, without their IDs: ${DOCUMENTED_MODELS.join('; ')}. Other models on request. Tools, thinking and images work only with models that have them; the service refuses the others.`,
		name: 'modelsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { model: [CUSTOM_MODEL] } },
	},
];

export const thinkField: INodeProperties = {
	displayName: 'Think',
	name: 'think',
	type: 'options',
	options: [
		{ name: 'Off', value: 'off', description: 'No reasoning; needed for models without thinking' },
		{ name: 'Low', value: 'low', description: 'Short reasoning; recommended for automation' },
		{ name: 'Medium', value: 'medium' },
		{ name: 'High', value: 'high', description: 'Longest reasoning; slowest' },
	],
	default: 'low',
	description:
		'How much the model reasons before answering. The reasoning is returned separately as "thinking".',
};

/**
 * The sampling and loading options the AI node and the Chat Model share, worded once; alphabetical, as n8n
 * lists a collection's options. `withModelOptions` merges a node's own options in that order.
 */
export const modelOptionFields: INodeProperties[] = [
	{
		displayName: 'Context Size',
		name: 'contextSize',
		type: 'number',
		typeOptions: { minValue: 256 },
		default: 8192,
		description:
			'Tokens of context the model keeps: the prompt or conversation, tool results and the answer',
	},
	{
		displayName: 'Keep Alive',
		name: 'keepAlive',
		type: 'string',
		default: '5m',
		description:
			'How long the model stays loaded after the request, e.g. 5m, 1h, or 0 to unload at once',
	},
	{
		displayName: 'Max Tokens',
		name: 'maxTokens',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 1024,
		description: 'The most tokens an answer may have',
	},
	{
		displayName: 'Seed',
		name: 'seed',
		type: 'number',
		default: 0,
		description: 'A fixed seed makes answers repeatable for the same input',
	},
	{
		displayName: 'Temperature',
		name: 'temperature',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
		default: 0.8,
		description: 'Higher is more creative, lower more deterministic',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description: 'How long to wait for the answer to start',
	},
	{
		displayName: 'Top K',
		name: 'topK',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 40,
		description: 'Sample only from the K most likely tokens',
	},
	{
		displayName: 'Top P',
		name: 'topP',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
		default: 0.9,
		description: 'Sample only from the tokens making up this probability mass',
	},
];

/** The shared model options plus a node's own, in alphabetical order. */
export function withModelOptions(own: INodeProperties[]): INodeProperties[] {
	return [...modelOptionFields, ...own].sort((a, b) => a.displayName.localeCompare(b.displayName));
}
