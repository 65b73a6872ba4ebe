import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { AiInputError, parseMessages } from '../../../shared/ai/input';
import { chatBody, type ChatMessage, type ChatRole } from '../../../shared/ai/protocol';
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
		displayName: 'Messages From',
		name: 'messagesSource',
		type: 'options',
		options: [
			{ name: 'List Below', value: 'ui', description: 'Write the conversation message by message' },
			{
				name: 'JSON',
				value: 'json',
				description: 'An array of {role, content, images} from an expression',
			},
		],
		default: 'ui',
	},
	{
		displayName: 'Messages',
		name: 'messages',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Message',
		default: { values: [{ role: 'user', content: '' }] },
		displayOptions: { show: { messagesSource: ['ui'] } },
		options: [
			{
				displayName: 'Message',
				name: 'values',
				values: [
					{
						displayName: 'Role',
						name: 'role',
						type: 'options',
						options: [
							{
								name: 'System',
								value: 'system',
								description: 'Instructions for the whole conversation',
							},
							{ name: 'User', value: 'user' },
							{
								name: 'Assistant',
								value: 'assistant',
								description: 'An earlier answer of the model',
							},
						],
						default: 'user',
					},
					{
						displayName: 'Content',
						name: 'content',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
					},
					{
						displayName: 'Images (Binary Fields)',
						name: 'images',
						type: 'string',
						default: '',
						description: imagesHint,
					},
				],
			},
		],
	},
	{
		displayName: 'Messages (JSON)',
		name: 'messagesJson',
		type: 'json',
		default: '[\n  { "role": "user", "content": "Hello" }\n]',
		displayOptions: { show: { messagesSource: ['json'] } },
		description:
			'An array of messages: role (system, user, assistant, tool), content, and optionally images as base64 strings',
	},
	thinkField,
	...outputFormatFields,
	optionsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['text'], operation: ['chat'] } },
	properties,
);

async function messagesOf(ctx: IExecuteFunctions, itemIndex: number): Promise<ChatMessage[]> {
	if (ctx.getNodeParameter('messagesSource', itemIndex, 'ui') === 'json') {
		return parseMessages(ctx.getNodeParameter('messagesJson', itemIndex));
	}
	const rows = ctx.getNodeParameter('messages.values', itemIndex, []) as Array<{
		role: ChatRole;
		content: string;
		images?: string;
	}>;
	const messages: ChatMessage[] = [];
	for (const row of rows) {
		const images = await imagesFrom(ctx, itemIndex, row.images ?? '');
		if (!row.content?.trim() && !images.length) continue;
		messages.push({
			role: row.role,
			content: row.content ?? '',
			...(images.length ? { images } : {}),
		});
	}
	if (!messages.some((message) => message.role === 'user')) {
		throw new AiInputError(
			'The conversation has no user message with content',
			'Add a message with role User and some text.',
		);
	}
	return messages;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const messages = await messagesOf(this, itemIndex);
	const settings = commonSettings(this, itemIndex);
	const body = chatBody({ ...settings.input, messages });
	const result = await callAi(this, 'api/chat', body, { itemIndex, timeoutMs: settings.timeoutMs });
	const content = answerValue(this, settings, result, itemIndex);
	const message: IDataObject = { role: result.role, content: result.text };
	if (result.toolCalls.length) message.tool_calls = result.toolCalls as unknown as IDataObject[];
	const json: IDataObject = {
		model: result.model || settings.input.model,
		message,
		...(settings.outputFormat === 'text' ? {} : { content: content as IDataObject }),
		...usageOf(result),
	};
	return [{ json }];
}
