import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { CloudStorageBearerApi } from '../../../credentials/CloudStorageBearerApi.credentials';
import { CloudStorageDavApi } from '../../../credentials/CloudStorageDavApi.credentials';
import { CloudStoragePasswordApi } from '../../../credentials/CloudStoragePasswordApi.credentials';
import { CloudStorageTokenApi } from '../../../credentials/CloudStorageTokenApi.credentials';

type Authenticate = (
	credentials: ICredentialDataDecryptedObject,
	request: IHttpRequestOptions,
) => Promise<IHttpRequestOptions>;

const credentials = [
	new CloudStorageTokenApi(),
	new CloudStoragePasswordApi(),
	new CloudStorageBearerApi(),
	new CloudStorageDavApi(),
];
const byType = new Map<string, Authenticate>(
	credentials.map((credential) => [credential.name, credential.authenticate.bind(credential)]),
);

/**
 * The `authenticate` function of one of the pack's credential types, for requests the transport sends itself:
 * it adds what n8n's helper would add (body fields or headers), never URL parameters. Undefined for any other
 * type, whose requests stay with n8n's helper.
 */
export function authenticatorOf(credentialType: string): Authenticate | undefined {
	return byType.get(credentialType);
}
