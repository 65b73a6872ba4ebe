import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
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
import { obtainSession } from '../nodes/shared/auth/session';
import { serviceUrlProperties, sessionIdProperty } from '../nodes/shared/auth/credential-fields';

export class CloudStoragePasswordApi implements ICredentialType {
	name = 'cloudStoragePasswordApi';

	displayName = 'Cloud Storage Password API';

	icon: Icon = {
		light: 'file:../icons/cloudStorage.svg',
		dark: 'file:../icons/cloudStorage.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-cloud-storage/n8n-nodes-cloud-storage#credentials';

	properties: INodeProperties[] = [
		...serviceUrlProperties,
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'name@example.com',
			description: 'User name or e-mail address of the account',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"Sent as HTTP Basic authentication over HTTPS, never in a URL. Accounts with two-factor authentication must confirm the e-mailed link from the n8n host's IP address.",
		},
		sessionIdProperty,
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await obtainSession(
			this,
			credentials.baseUrl as string,
			(request) =>
				setHeader(
					request,
					'Authorization',
					basicAuthorization(credentials.user as string, credentials.password as string),
				),
			credentials,
		);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		assertSecure(requestOptions);
		if (takeAuthMode(requestOptions) === 'session') {
			setHeader(requestOptions, 'Cookie', `PHPSESSID=${credentials.sessionId as string}`);
		} else {
			setHeader(
				requestOptions,
				'Authorization',
				basicAuthorization(credentials.user as string, credentials.password as string),
			);
		}
		return requestOptions;
	}
}
