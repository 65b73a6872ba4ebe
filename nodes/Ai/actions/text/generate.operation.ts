import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { generateBody } from '../../../shared/ai/protocol';
import { callAi } from '../../../shared/ai/transport';
import {
	imagesHint,
	modelFields,
	optionsField,
	outputFormatFields,
	thinkField,
} from '../common/fields';
import { answerValue, commonSettings, imagesFrom, usageOf } from '../common/request';

const properties: INodeProperties[] = [
	...modelFields,
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		placeholder: 'e.g. Summarize this text in one sentence: {{ $json.text }}',
		description: 'What the model should answer or do',
	},
	{
		displayName: 'System Prompt',
		name: 'system',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: 'Instructions that frame every answer (role, tone, rules)',
	},
	{
		displayName: 'Images (Binary Fields)',
		name: 'images',
		type: 'string',
		default: '',
		placeholder: 'e.g. data, photo',
		description: imagesHint,
	},
	thinkField,
	...outputFormatFields,
	optionsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['text'], operation: ['generate'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const prompt = this.getNodeParameter('prompt', itemIndex, '') as string;
	if (!prompt.trim()) {
		throw new NodeOperationError(this.getNode(), 'The prompt is empty', {
			itemIndex,
			description:
				'Enter a prompt, or check that the expression in "Prompt" gives text for this item.',
		});
	}
	const imageFields = this.getNodeParameter('images', itemIndex, '') as string;
	const settings = commonSettings(this, itemIndex);
	const images = await imagesFrom(this, itemIndex, imageFields);
	const system = (this.getNodeParameter('system', itemIndex, '') as string).trim();
	const body = generateBody({ ...settings.input, prompt, system: system || undefined, images });
	const result = await callAi(this, 'api/generate', body, {
		itemIndex,
		timeoutMs: settings.timeoutMs,
	});
	const json: IDataObject = {
		model: result.model || settings.input.model,
		response: answerValue(this, settings, result, itemIndex) as IDataObject,
		...usageOf(result),
	};
	return [{ json }];
}
