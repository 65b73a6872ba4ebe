import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	assertSecure,
	basicAuthorization,
	setHeader,
	takeAuthMode,
} from '../nodes/shared/auth/request-fields';

export class CloudStorageDavApi implements ICredentialType {
	name = 'cloudStorageDavApi';

	displayName = 'Cloud Storage CalDAV/CardDAV API';

	icon: Icon = {
		light: 'file:../icons/cloudStorage.svg',
		dark: 'file:../icons/cloudStorage.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-cloud-storage/n8n-nodes-cloud-storage#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'DAV URL',
			name: 'davUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://dav.example.com/',
			description:
				'Root of the CalDAV/CardDAV server; calendars and address books are discovered from here. Works with any standards-conforming server.',
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Password or Access Token',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The account password, or a user access token in its place',
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
			basicAuthorization(credentials.username as string, credentials.password as string),
		);
		return requestOptions;
	}
}
