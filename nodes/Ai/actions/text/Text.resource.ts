import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as chat from './chat.operation';
import * as generate from './generate.operation';

export const operations = { chat, generate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['text'] } },
		options: optionsFor(operations, [
			{
				name: 'Chat',
				value: 'chat',
				description:
					'Answer the last message of a conversation (system, user and assistant messages)',
				action: 'Chat with a model',
			},
			{
				name: 'Generate',
				value: 'generate',
				description:
					'Generate an answer to one prompt, optionally with images and a JSON output format',
				action: 'Generate text from a prompt',
			},
		]),
		default: 'generate',
	},
	...chat.description,
	...generate.description,
];
