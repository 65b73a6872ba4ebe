import type { INodeProperties } from 'n8n-workflow';

import { optionsFor } from '../../../shared/node/router';
import * as discover from './discover.operation';

export const operations = { discover };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['server'] } },
		options: optionsFor(operations, [
			{
				name: 'Discover',
				value: 'discover',
				description:
					'Ask the endpoint for its supported versions and capabilities (server/discover, protocol 2026-07-28)',
				action: 'Discover the server',
			},
		]),
		default: 'discover',
	},
	...discover.description,
];
