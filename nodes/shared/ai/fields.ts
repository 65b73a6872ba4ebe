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
	description: 'How much the model reasons before answering. The reasoning is returned separately as "thinking".',
};
