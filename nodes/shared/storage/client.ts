import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	apiRequest,
	type ApiRequest,
	type ApiResponse,
	type AuthMode,
	formBody,
	type FormFields,
	type RequestBody,
	joinUrl,
	runCredentials,
} from '../transport';
import { runParameter } from '../node/run-parameters';

export type StorageContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export type StorageCredentialType = 'cloudStorageTokenApi' | 'cloudStoragePasswordApi';

export interface StorageAccount {
	/** Undefined for anonymous use: LINK downloads, uploads by upload key, public listings. */
	credentialType?: StorageCredentialType;
	baseUrl: string;
	webUrl: string;
}

const CREDENTIAL_BY_AUTHENTICATION: Record<string, StorageCredentialType> = {
	tokenApi: 'cloudStorageTokenApi',
	passwordApi: 'cloudStoragePasswordApi',
};

export async function storageAccount(ctx: StorageContext, itemIndex = 0): Promise<StorageAccount> {
	const authentication =
		'getInputData' in ctx
			? runParameter<string>(ctx, 'authentication', itemIndex, 'tokenApi')
			: ((ctx as StorageContext).getNodeParameter(
					'authentication',
					itemIndex,
					'tokenApi',
				) as string);
	if (authentication === 'none') {
		const baseUrl = String(ctx.getNodeParameter('baseUrl', itemIndex, '')).trim();
		const webUrl = String(ctx.getNodeParameter('webUrl', itemIndex, '')).trim() || baseUrl;
		if (!baseUrl) {
			throw new NodeOperationError(ctx.getNode(), 'No Base URL given for anonymous use', {
				itemIndex,
				description: "Enter the service's API address, or choose a credential.",
			});
		}
		return { baseUrl, webUrl };
	}
	const credentialType = CREDENTIAL_BY_AUTHENTICATION[authentication] ?? 'cloudStorageTokenApi';
	const credentials = await runCredentials(ctx, credentialType, itemIndex);
	return {
		credentialType,
		baseUrl: String(credentials.baseUrl ?? ''),
		webUrl: String(credentials.webUrl || credentials.baseUrl || ''),
	};
}

/** Operations that act as the account fail before any request when the node is set to anonymous use. */
export function requireAccount(
	ctx: StorageContext,
	account: StorageAccount,
	itemIndex: number,
): StorageCredentialType {
	if (account.credentialType) return account.credentialType;
	throw new NodeOperationError(ctx.getNode(), 'This operation needs a credential', {
		itemIndex,
		description:
			'Set Authentication to Access Token or Password. Without a credential only public links, upload keys and anonymous folders work.',
	});
}

type CallOptions = Omit<ApiRequest, 'api' | 'url' | 'method' | 'credential' | 'body'> & {
	anonymous?: boolean;
};

/** A V2 action: POST {base_url}/api_v2/<action>, form-encoded, JSON answer. */
export async function v2<T = unknown>(
	ctx: StorageContext,
	account: StorageAccount,
	action: string,
	fields: FormFields,
	options: CallOptions = {},
): Promise<ApiResponse<T>> {
	return await v2Body<T>(ctx, account, action, formBody(fields), options);
}

/** A V2 action with a body other than form fields: an upload's multipart (`fileBody`). */
export async function v2Body<T = unknown>(
	ctx: StorageContext,
	account: StorageAccount,
	action: string,
	body: RequestBody,
	options: CallOptions = {},
): Promise<ApiResponse<T>> {
	const { anonymous, ...rest } = options;
	return await apiRequest<T>(ctx, {
		api: 'v2',
		url: joinUrl(account.baseUrl, `api_v2/${action}`),
		method: 'POST',
		credential: anonymous || !account.credentialType ? undefined : { type: account.credentialType },
		body,
		...rest,
	});
}

/** An anonymous call has no credential, so no way to authenticate it (`mode`) either. */
export type V1Options = CallOptions & { method?: 'GET' | 'POST'; body?: RequestBody } & (
		| { anonymous?: false; mode?: AuthMode }
		| { anonymous: true; mode?: never }
	);

/**
 * A legacy script, `{base_url}/<path>` (e.g. `api/get_upload_tree.php`, `save_file.php`). Parameters go in the POST body by default (the scripts read
 * query or form fields alike), which keeps keys out of URLs; a GET sends only non-secret identifiers.
 */
export async function v1<T = unknown>(
	ctx: StorageContext,
	account: StorageAccount,
	path: string,
	options: V1Options = {},
): Promise<ApiResponse<T>> {
	const { anonymous, method = 'POST', mode, ...rest } = options;
	const type = anonymous ? undefined : account.credentialType;
	return await apiRequest<T>(ctx, {
		api: 'v1',
		url: joinUrl(account.baseUrl, path),
		method,
		// A token credential authenticates a GET (which carries no secret) by its session cookie: an expired
		// session must then reach n8n as a 401, for n8n to log in again and repeat the request.
		credential: type
			? {
					type,
					mode:
						mode ?? (method === 'GET' && type === 'cloudStorageTokenApi' ? 'session' : undefined),
				}
			: undefined,
		...rest,
	});
}
