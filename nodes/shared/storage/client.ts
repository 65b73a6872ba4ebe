import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import type { FormFields } from '../transport/body';
import { apiRequest, type ApiRequestOptions, type ApiResponse } from '../transport/request';
import { joinUrl } from '../transport/urls';

export type StorageContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface StorageAccount {
	credentialType: 'cloudStorageTokenApi' | 'cloudStoragePasswordApi';
	baseUrl: string;
	webUrl: string;
}

const CREDENTIAL_BY_AUTHENTICATION = {
	tokenApi: 'cloudStorageTokenApi',
	passwordApi: 'cloudStoragePasswordApi',
} as const;

export async function storageAccount(ctx: StorageContext): Promise<StorageAccount> {
	const authentication = (ctx.getNodeParameter('authentication', 0, 'tokenApi') as string) ?? 'tokenApi';
	const credentialType = CREDENTIAL_BY_AUTHENTICATION[authentication as keyof typeof CREDENTIAL_BY_AUTHENTICATION] ?? 'cloudStorageTokenApi';
	const credentials = await ctx.getCredentials(credentialType);
	return {
		credentialType,
		baseUrl: String(credentials.baseUrl ?? ''),
		webUrl: String(credentials.webUrl || credentials.baseUrl || ''),
	};
}

type CallOptions = Omit<ApiRequestOptions, 'api' | 'url' | 'credentialType' | 'form'>;

/** A V2 action: POST {base_url}/api_v2/<action>, form-encoded, JSON answer. */
export async function v2<T = unknown>(
	ctx: StorageContext,
	account: StorageAccount,
	action: string,
	fields: FormFields,
	options: CallOptions = {},
): Promise<ApiResponse<T>> {
	return await apiRequest<T>(ctx, {
		api: 'v2',
		url: joinUrl(account.baseUrl, `api_v2/${action}`),
		method: 'POST',
		credentialType: account.credentialType,
		form: fields,
		...options,
	});
}

/** A legacy script: {base_url}/api/<script>.php. */
export async function v1<T = unknown>(
	ctx: StorageContext,
	account: StorageAccount,
	script: string,
	options: CallOptions & { form?: FormFields } = {},
): Promise<ApiResponse<T>> {
	return await apiRequest<T>(ctx, {
		api: 'v1',
		url: joinUrl(account.baseUrl, `api/${script}`),
		method: 'POST',
		credentialType: account.credentialType,
		...options,
	});
}
