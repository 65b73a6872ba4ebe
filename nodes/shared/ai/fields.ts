import type { INodeProperties } from 'n8n-workflow';

import { AI_MODELS, DEFAULT_MODEL } from './models';

/** Model and think pickers, shared by the AI node and the Chat Model sub-node. */
export const modelFields: INodeProperties[] = [
	{
		displayName: 'Model',
		name: 'model',
		type: 'options',
		options: [
			...AI_MODELS.map((model) => ({ name: model.name, value: model.id, description: `${model.id}: ${model.description}` })),
			{ name: 'Other (Enter ID)', value: 'custom', description: 'A model offered to the account on request' },
		],
		default: DEFAULT_MODEL,
		description: 'The model that answers. Models without tools or thinking are refused for those features before any request.',
	},
	{
		displayName: 'Model ID',
		name: 'customModel',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. family1:12b',
		description: 'The model ID as the AI API names it: family and version, a colon, and the size',
		displayOptions: { show: { model: ['custom'] } },
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

