import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as get from './get.operation';
import * as search from './search.operation';

export const operations = { get, search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['docs'] } },
		options: optionsFor(operations, [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get the complete text of a published document or API description by its docs:// URI',
				action: 'Get a document',
			},
			{
				name: 'Search',
				value: 'search',
				description:
					'Search the public API documentation by keywords; returns titles, URLs, docs:// URIs and snippets',
				action: 'Search the documentation',
			},
		]),
		default: 'search',
	},
	...get.description,
	...search.description,
];
