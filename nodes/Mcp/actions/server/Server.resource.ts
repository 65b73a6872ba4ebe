import type { INodeProperties } from 'n8n-workflow';

import * as discover from './discover.operation';

export { discover };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['server'] } },
		options: [
			{
				name: 'Discover',
				value: 'discover',
				description: 'Ask the endpoint for its supported versions and capabilities (server/discover, protocol 2026-07-28)',
				action: 'Discover the server',
			},
		],
		default: 'discover',
	},
	...discover.description,
];
