import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { assertSecure, setHeader, takeAuthMode } from '../nodes/shared/auth/request-fields';

export class CloudStorageBearerApi implements ICredentialType {
	name = 'cloudStorageBearerApi';

	displayName = 'Cloud Storage Bearer API';

	icon: Icon = {
		light: 'file:../icons/cloudStorage.svg',
		dark: 'file:../icons/cloudStorage.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-cloud-storage/n8n-nodes-cloud-storage#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'User ID',
			name: 'userId',
			type: 'string',
			default: '',
			required: true,
			description: 'The numeric id of the account',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: "A user access token of type API or ALL from the account's API-key settings",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: "The service's API address; the MCP endpoint is {base_url}/api/mcp",
		},
		{
			displayName: 'AI URL',
			name: 'aiUrl',
			type: 'string',
			default: '',
			placeholder: 'https://ai.example.com',
			description: 'The hosted AI API address ({ai_url})',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		assertSecure(requestOptions);
		takeAuthMode(requestOptions);
		setHeader(
			requestOptions,
			'Authorization',
			`Bearer ${credentials.userId as string}:${credentials.apiToken as string}`,
		);
		return requestOptions;
	}
}
