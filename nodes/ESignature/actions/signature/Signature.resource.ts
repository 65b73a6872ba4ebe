import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as createSigningPage from './createSigningPage.operation';
import * as getAll from './getAll.operation';
import * as request from './request.operation';

export const operations = { createSigningPage, getAll, request };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['signature'] } },
		options: optionsFor(operations, [
			{
				name: 'Create Signing Page',
				value: 'createSigningPage',
				description:
					'Build an HTML page that opens the signing form for a file or folder and reports the result to a webhook',
				action: 'Create a signing page',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List who signed a file and when, optionally between two dates',
				action: 'Get signatures of a file',
			},
			{
				name: 'Request',
				value: 'request',
				description: 'E-mail people a request to sign a file',
				action: 'Request signatures by email',
			},
		]),
		default: 'getAll',
	},
	...createSigningPage.description,
	...getAll.description,
	...request.description,
];
