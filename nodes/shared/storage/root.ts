import type { StorageAccount, StorageContext } from './client';
import { v1 } from './client';

interface UserDataAnswer {
	Success?: boolean;
	UserData?: { root_upload_hash?: string };
}

// One lookup per node run: the ROOT hash does not change while a workflow executes.
const rootHashes = new WeakMap<object, Promise<string>>();

/** ROOT is addressed by its hash in most actions; the authenticator's UserData names it. */
export async function rootFolderHash(ctx: StorageContext, account: StorageAccount, itemIndex?: number): Promise<string> {
	let pending = rootHashes.get(ctx);
	if (!pending) {
		pending = v1<UserDataAnswer>(ctx, account, 'authenticate_user.php', { form: {}, itemIndex }).then(({ body }) => {
			const hash = body?.UserData?.root_upload_hash;
			if (!hash) throw new Error('The service did not tell the ROOT folder of this account');
			return hash;
		});
		rootHashes.set(ctx, pending);
		pending.catch(() => rootHashes.delete(ctx));
	}
	return await pending;
}
