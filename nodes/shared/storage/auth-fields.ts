import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/** The storage credentials a node offers, each shown for its choice of the Authentication parameter. */
export const storageCredentials: INodeCredentialDescription[] = [
	{
		name: 'cloudStorageTokenApi',
		required: true,
		testedBy: 'testTokenCredential',
		displayOptions: { show: { authentication: ['tokenApi'] } },
	},
	{
		name: 'cloudStoragePasswordApi',
		required: true,
		testedBy: 'testPasswordCredential',
		displayOptions: { show: { authentication: ['passwordApi'] } },
	},
];

export const storageAuthentication: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'Access Token', value: 'tokenApi' },
		{ name: 'Password', value: 'passwordApi' },
	],
	default: 'tokenApi',
};
