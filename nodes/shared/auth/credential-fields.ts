import type { INodeProperties } from 'n8n-workflow';

export const serviceUrlProperties: INodeProperties[] = [
	{
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://api.example.com',
		description:
			"The service's API address ({base_url}). HTTPS is required; plain http is accepted only for localhost.",
	},
	{
		displayName: 'Web URL',
		name: 'webUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://www.example.com',
		description:
			"The address of the service's web pages ({web_url}): used for public links and for search",
	},
];

/** Filled and refreshed by n8n through preAuthentication; never shown or logged. */
export const sessionIdProperty: INodeProperties = {
	displayName: 'Session ID',
	name: 'sessionId',
	type: 'hidden',
	typeOptions: { expirable: true, password: true },
	default: '',
};
