// The pack's service credentials for a sandbox account, built in one place so each test names only what
// differs (another name, a wrong token) instead of repeating the fields of every credential type.
import type { CredentialRef, N8nClient } from '../../../scripts/lib/n8n-client.ts';
import { DEMO_ACCOUNT } from '../../sandbox/server';

export interface SandboxAddress {
	baseUrl: string;
	webUrl: string;
}

export interface SandboxAccount {
	id: number;
	username: string;
	password: string;
	token: string;
}

const DEFAULT_NAMES = {
	cloudStorageTokenApi: 'Cloud Storage (access token)',
	cloudStoragePasswordApi: 'Cloud Storage (password)',
	cloudStorageBearerApi: 'Cloud Storage (bearer)',
} as const;

export type ServiceCredentialType = keyof typeof DEFAULT_NAMES;

/** The fields of a credential type for the account on the sandbox; the sandbox serves the AI API too. */
export function serviceCredentialData(
	type: ServiceCredentialType,
	sandbox: SandboxAddress,
	account: SandboxAccount = DEMO_ACCOUNT,
): Record<string, string> {
	const service = { baseUrl: sandbox.baseUrl, webUrl: sandbox.webUrl, user: account.username };
	if (type === 'cloudStorageTokenApi') return { ...service, accessToken: account.token };
	if (type === 'cloudStoragePasswordApi') return { ...service, password: account.password };
	return {
		userId: String(account.id),
		apiToken: account.token,
		baseUrl: sandbox.baseUrl,
		aiUrl: sandbox.baseUrl,
	};
}

/** One credential for the demo account (or `account`); `data` replaces single fields. */
export async function createServiceCredential(
	client: N8nClient,
	type: ServiceCredentialType,
	sandbox: SandboxAddress,
	options: { name?: string; account?: SandboxAccount; data?: Record<string, string> } = {},
): Promise<CredentialRef> {
	const data = { ...serviceCredentialData(type, sandbox, options.account), ...options.data };
	return await client.createCredential(type, options.name ?? DEFAULT_NAMES[type], data);
}

/** Several credentials keyed by type, the shape `importWorkflow`'s `credentials` option takes. */
export async function createServiceCredentials<T extends ServiceCredentialType>(
	client: N8nClient,
	sandbox: SandboxAddress,
	types: readonly T[],
): Promise<Record<T, CredentialRef>> {
	const credentials = {} as Record<T, CredentialRef>;
	for (const type of types)
		credentials[type] = await createServiceCredential(client, type, sandbox);
	return credentials;
}
