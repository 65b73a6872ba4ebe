import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { CloudStorageBearerApi } from '../../../credentials/CloudStorageBearerApi.credentials';
import { CloudStorageDavApi } from '../../../credentials/CloudStorageDavApi.credentials';
import { CloudStoragePasswordApi } from '../../../credentials/CloudStoragePasswordApi.credentials';
import { CloudStorageTokenApi } from '../../../credentials/CloudStorageTokenApi.credentials';

type Authenticate = (
	credentials: ICredentialDataDecryptedObject,
	request: IHttpRequestOptions,
) => Promise<IHttpRequestOptions>;

// Built on first use: the credentials import the transport's face, which imports this module, so a credential
// loaded first would otherwise meet its own class still undefined here.
let byType: Map<string, Authenticate> | undefined;

function authenticators(): Map<string, Authenticate> {
	if (byType) return byType;
	const credentials = [
		new CloudStorageTokenApi(),
		new CloudStoragePasswordApi(),
		new CloudStorageBearerApi(),
		new CloudStorageDavApi(),
	];
	byType = new Map<string, Authenticate>(
		credentials.map((credential) => [credential.name, credential.authenticate.bind(credential)]),
	);
	return byType;
}

/**
 * The `authenticate` function of one of the pack's credential types, for requests the transport sends itself:
 * it adds what n8n's helper would add (body fields or headers), never URL parameters. Undefined for any other
 * type, whose requests stay with n8n's helper.
 */
export function authenticatorOf(credentialType: string): Authenticate | undefined {
	return authenticators().get(credentialType);
}
