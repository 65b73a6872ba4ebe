import type { INodeProperties } from 'n8n-workflow';

export const returnAllFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: true,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export function nameField(displayName: string, description: string, required = true): INodeProperties {
	return { displayName, name: 'name', type: 'string', default: '', required, description };
}
