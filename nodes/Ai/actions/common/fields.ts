import type { INodeProperties } from 'n8n-workflow';

import { withModelOptions } from '../../../shared/ai/fields';

export { modelFields, thinkField } from '../../../shared/ai/fields';

export const outputFormatFields: INodeProperties[] = [
	{
		displayName: 'Output Format',
		name: 'outputFormat',
		type: 'options',
		options: [
			{ name: 'Text', value: 'text' },
			{ name: 'JSON', value: 'json', description: 'The answer is parsed into an object' },
			{
				name: 'JSON Schema',
				value: 'jsonSchema',
				description: 'The answer follows the given schema and is parsed into an object',
			},
		],
		default: 'text',
	},
	{
		displayName: 'JSON Schema',
		name: 'jsonSchema',
		type: 'json',
		default:
			'{\n  "type": "object",\n  "properties": {\n    "summary": { "type": "string" }\n  },\n  "required": ["summary"]\n}',
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
	options: withModelOptions([
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
			description:
				'Whether to receive the answer as a stream (read line by line as it arrives, for long answers); the node still outputs the complete answer',
		},
	]),
};

export const imagesHint =
	'Comma-separated names of binary fields holding images (PNG, JPEG, GIF, WebP, BMP, TIFF), for models that read images';
