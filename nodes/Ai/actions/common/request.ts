import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { parseSchema, parseStops, sniffImage } from '../../../shared/ai/input';
import type { ThinkLevel } from '../../../shared/ai/models';
import type { AiResult, CommonInput } from '../../../shared/ai/protocol';

export interface CommonSettings {
	input: CommonInput;
	outputFormat: 'text' | 'json' | 'jsonSchema';
	timeoutMs: number;
}

function modelId(ctx: IExecuteFunctions, itemIndex: number): string {
	const chosen = ctx.getNodeParameter('model', itemIndex) as string;
	const id = (
		chosen === 'custom' ? (ctx.getNodeParameter('customModel', itemIndex, '') as string) : chosen
	).trim();
	if (!id) {
		throw new NodeOperationError(ctx.getNode(), 'No model id given', {
			itemIndex,
			description: 'Choose a model, or enter the id of the model offered to the account.',
		});
	}
	return id;
}

/** The parameters generate and chat share, checked before any request. */
export function commonSettings(ctx: IExecuteFunctions, itemIndex: number): CommonSettings {
	const model = modelId(ctx, itemIndex);
	const think = ctx.getNodeParameter('think', itemIndex, 'low') as ThinkLevel;
	const outputFormat = ctx.getNodeParameter(
		'outputFormat',
		itemIndex,
		'text',
	) as CommonSettings['outputFormat'];
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	let format: CommonInput['format'];
	if (outputFormat === 'json') format = 'json';
	if (outputFormat === 'jsonSchema')
		format = parseSchema(ctx.getNodeParameter('jsonSchema', itemIndex));
	const num = (name: string) =>
		typeof options[name] === 'number' ? (options[name] as number) : undefined;
	return {
		outputFormat,
		timeoutMs: (num('timeout') ?? 300) * 1000,
		input: {
			model,
			think,
			format,
			keepAlive:
				typeof options.keepAlive === 'string' && options.keepAlive.trim()
					? options.keepAlive.trim()
					: undefined,
			stream: options.stream === true,
			options: {
				temperature: num('temperature'),
				topP: num('topP'),
				topK: num('topK'),
				maxTokens: num('maxTokens'),
				contextSize: num('contextSize'),
				seed: num('seed'),
				stop: parseStops(options.stop as string | undefined),
			},
		},
	};
}

/** Images from binary fields as base64; anything that is not an image fails here, before the request. */
export async function imagesFrom(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fieldList: string,
): Promise<string[]> {
	const fields = fieldList
		.split(',')
		.map((field) => field.trim())
		.filter(Boolean);
	const images: string[] = [];
	for (const field of fields) {
		const item = ctx.getInputData()[itemIndex];
		if (!item?.binary?.[field]) {
			const available = Object.keys(item?.binary ?? {});
			throw new NodeOperationError(ctx.getNode(), `No binary field "${field}" on the input item`, {
				itemIndex,
				description: available.length
					? `The item has binary fields: ${available.join(', ')}.`
					: 'The input item carries no binary data. Add a node before this one that reads or downloads the image.',
			});
		}
		const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, field);
		if (!sniffImage(buffer.subarray(0, 16))) {
			const declared = item.binary[field].mimeType ?? 'unknown type';
			throw new NodeOperationError(
				ctx.getNode(),
				`The binary field "${field}" is not an image (${declared})`,
				{
					itemIndex,
					description:
						'Models read PNG, JPEG, GIF, WebP, BMP or TIFF images. Convert the file, or pick another binary field.',
				},
			);
		}
		images.push(buffer.toString('base64'));
	}
	return images;
}

/** Parses the answer when JSON was asked for; a model that ignored the format is an error, not a string. */
export function answerValue(
	ctx: IExecuteFunctions,
	settings: CommonSettings,
	result: AiResult,
	itemIndex: number,
): unknown {
	if (settings.outputFormat === 'text') return result.text;
	try {
		return JSON.parse(result.text);
	} catch {
		const message = "The model's answer is not valid JSON";
		const description = `It began: ${JSON.stringify(result.text.slice(0, 120))}. Try again, raise Max Tokens (the answer may be cut off), or use Output Format "Text".`;
		throw new NodeApiError(
			ctx.getNode(),
			{ message, description },
			{ message, description, itemIndex },
		);
	}
}

export function usageOf(result: AiResult): IDataObject {
	return {
		thinking: result.thinking,
		doneReason: result.doneReason,
		usage: {
			promptTokens: result.promptTokens,
			completionTokens: result.completionTokens,
			totalTokens: result.promptTokens + result.completionTokens,
		},
		durations: result.durations,
	};
}
