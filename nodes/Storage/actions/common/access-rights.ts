import type { INodeProperties } from 'n8n-workflow';

export const accessRightsOption: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Include Access Rights',
			name: 'accessRights',
			type: 'boolean',
			default: false,
			description: 'Whether to add what this account may do with each item (view, delete, add, edit, download)',
		},
	],
};
