import type { IDataObject } from 'n8n-workflow';

import { requireAccount, v1, type StorageAccount, type StorageContext } from './client';
import { formBody } from '../transport';

export interface UserData extends IDataObject {
	ID?: number | string;
	UserName?: string;
	root_upload_hash?: string;
}

interface AuthenticatorAnswer {
	Success?: boolean;
	Message?: string;
	UserData?: UserData;
}

// One lookup per node run: the account's id and ROOT do not change while a workflow executes.
const lookups = new WeakMap<object, Promise<UserData>>();

/** The account's UserData from the central authenticator (ids, ROOT hash and keys, limits). */
export async function accountInfo(
	ctx: StorageContext,
	account: StorageAccount,
	itemIndex = 0,
): Promise<UserData> {
	requireAccount(ctx, account, itemIndex);
	let pending = lookups.get(ctx);
	if (!pending) {
		pending = v1<AuthenticatorAnswer>(ctx, account, 'api/authenticate_user.php', {
			body: formBody({}),
			itemIndex,
		}).then(({ body }) => {
			if (!body?.UserData) throw new Error('The service did not return the account data');
			return body.UserData;
		});
		lookups.set(ctx, pending);
		pending.catch(() => lookups.delete(ctx));
	}
	return await pending;
}

/** ROOT is addressed by its hash in most actions; the authenticator's UserData names it. */
export async function rootFolderHash(
	ctx: StorageContext,
	account: StorageAccount,
	itemIndex = 0,
): Promise<string> {
	const hash = (await accountInfo(ctx, account, itemIndex)).root_upload_hash;
	if (!hash) throw new Error('The service did not tell the ROOT folder of this account');
	return hash;
}
