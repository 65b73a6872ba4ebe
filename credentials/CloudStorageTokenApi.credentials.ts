import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import {
	addBodyFields,
	assertSecure,
	setHeader,
	takeAuthMode,
} from '../nodes/shared/auth/request-fields';
import { obtainSession } from '../nodes/shared/auth/session';
import { serviceUrlProperties, sessionIdProperty } from '../nodes/shared/auth/credential-fields';

export class CloudStorageTokenApi implements ICredentialType {
	name = 'cloudStorageTokenApi';

	displayName = 'Cloud Storage Token API';

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
			displayName: 'User Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'A token created in the account settings (API keys). Recommended for automation: no second factor is asked, and the document-management API accepts only tokens.',
		},
		sessionIdProperty,
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return await obtainSession(
			this,
			credentials.baseUrl as string,
			(request) =>
				addBodyFields(request, {
					user: credentials.user as string,
					user_access_token: credentials.accessToken as string,
				}),
			credentials,
		);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		assertSecure(requestOptions);
		const mode = takeAuthMode(requestOptions);
		// GET requests cannot carry body fields, and secrets never go into a query string: use the session.
		if (mode === 'session' || (requestOptions.method ?? 'GET') === 'GET') {
			setHeader(requestOptions, 'Cookie', `PHPSESSID=${credentials.sessionId as string}`);
		} else {
			addBodyFields(requestOptions, {
				user: credentials.user as string,
				user_access_token: credentials.accessToken as string,
			});
		}
		return requestOptions;
	}
}
