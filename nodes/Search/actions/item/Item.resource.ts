import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as fullSearch from './fullSearch.operation';
import * as search from './search.operation';

export const operations = { fullSearch, search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['item'] } },
		options: optionsFor(operations, [
			{
				name: 'Full Search',
				value: 'fullSearch',
				description:
					'Search with types, sections (shared with me, deleted, one folder), criteria rows or a raw search JSON',
				action: 'Search files and folders with filters',
			},
			{
				name: 'Search',
				value: 'search',
				description:
					'Find files and folders whose names contain the query, in the whole account or one folder',
				action: 'Search files and folders by name',
			},
		]),
		default: 'search',
	},
	...fullSearch.description,
	...search.description,
];
