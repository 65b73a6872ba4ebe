import type { INodeProperties } from 'n8n-workflow';

export function nameField(
	displayName: string,
	description: string,
	required = true,
): INodeProperties {
	return { displayName, name: 'name', type: 'string', default: '', required, description };
}
