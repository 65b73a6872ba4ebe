import type { INodeProperties } from 'n8n-workflow';

export { modelFields, thinkField } from '../../../shared/ai/fields';

export const outputFormatFields: INodeProperties[] = [
	{
		displayName: 'Output Format',
		name: 'outputFormat',
		type: 'options',
		options: [
			{ name: 'Text', value: 'text' },
			{ name: 'JSON', value: 'json', description: 'The answer is parsed into an object' },
			{ name: 'JSON Schema', value: 'jsonSchema', description: 'The answer follows the given schema and is parsed into an object' },
		],
		default: 'text',
	},
	{
		displayName: 'JSON Schema',
		name: 'jsonSchema',
		type: 'json',
		default: '{\n  "type": "object",\n  "properties": {\n    "summary": { "type": "string" }\n  },\n  "required": ["summary"]\n}',
		displayOptions: { show: { outputFormat: ['jsonSchema'] } },
		description: 'The JSON schema the answer must follow',
	},
];

export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Context Size',
			name: 'contextSize',
			type: 'number',
			typeOptions: { minValue: 256 },
			default: 8192,
			description: 'Tokens of context the model keeps (prompt plus answer)',
		},
		{
			displayName: 'Keep Alive',
			name: 'keepAlive',
			type: 'string',
			default: '5m',
			description: 'How long the model stays loaded after the request, e.g. 5m, 1h, or 0 to unload at once',
		},
		{
			displayName: 'Max Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1024,
			description: 'The most tokens the answer may have',
		},
		{
			displayName: 'Seed',
			name: 'seed',
			type: 'number',
			default: 0,
			description: 'A fixed seed makes answers repeatable for the same input',
		},
		{
			displayName: 'Stop Sequences',
			name: 'stop',
			type: 'string',
			default: '',
			placeholder: 'e.g. ###, \\n\\n',
			description: 'Comma-separated texts at which the answer stops',
		},
		{
			displayName: 'Stream Answer',
			name: 'stream',
			type: 'boolean',
			default: false,
			description: 'Whether to receive the answer as a stream (read line by line as it arrives, for long answers); the node still outputs the complete answer',
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
	],
};

export const imagesHint =
	'Comma-separated names of binary fields holding images (PNG, JPEG, GIF, WebP, BMP, TIFF), for models that read images';
