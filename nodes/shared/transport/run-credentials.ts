import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

type CredentialReader = {
	getCredentials: (type: string, itemIndex?: number) => Promise<ICredentialDataDecryptedObject>;
};

/**
 * Credentials of one node run, read once. n8n looks a credential up in its database and decrypts it on
 * every `getCredentials` call, which cost more per item than the request itself; a node run cannot switch
 * credentials between items, and n8n's own authenticated request reads them for the first item only.
 * The context object is the key: n8n makes one per node run (per poll, per list search), so nothing
 * outlives the run. A session refreshed by n8n is written into the same object, so later items use it.
 */
const byRun = new WeakMap<object, Map<string, Promise<ICredentialDataDecryptedObject>>>();

export async function runCredentials(
	ctx: CredentialReader,
	type: string,
	itemIndex = 0,
): Promise<ICredentialDataDecryptedObject> {
	const entries = byRun.get(ctx) ?? new Map<string, Promise<ICredentialDataDecryptedObject>>();
	byRun.set(ctx, entries);
	let pending = entries.get(type);
	if (!pending) {
		pending = ctx.getCredentials(type, itemIndex);
		entries.set(type, pending);
		// A failed read (credential missing, database busy) is not remembered: the next item asks again.
		pending.catch(() => entries.delete(type));
	}
	return await pending;
}
