/**
 * Stands in for n8n's credentials table: one stored credential per credential type.
 *
 * Values are kept in the caller's plain record (so a test can read what n8n would have saved, e.g. a
 * refreshed session token, and a later run sees it) but every read and write goes through n8n-core's
 * `Credentials` encryption, as in n8n, so only JSON-serialisable data survives.
 */
import { Credentials } from 'n8n-core';
import type { ICredentialDataDecryptedObject, INodeCredentialsDetails } from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

export type CredentialRecords = Record<string, ICredentialDataDecryptedObject>;

export class CredentialStore {
	constructor(readonly records: CredentialRecords) {}

	/** The stored credential of this type, as n8n's CredentialsHelper.getCredentials returns it. */
	async get(
		nodeCredentials: INodeCredentialsDetails | undefined,
		type: string,
	): Promise<Credentials> {
		const data = this.records[type];
		if (data === undefined) {
			// Same wording as n8n's CredentialNotFoundError.
			throw new UserError(
				`Credential with ID "${nodeCredentials?.id ?? type}" does not exist for type "${type}".`,
			);
		}
		const credentials = new Credentials({ id: type, name: nodeCredentials?.name ?? type }, type);
		await credentials.setData(data);
		return credentials;
	}

	async save(type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		const credentials = new Credentials({ id: type, name: type }, type);
		await credentials.setData(data);
		const saved = await credentials.getData();
		// Update in place, so a test holding `credentials.someApi` sees what was persisted.
		const record = (this.records[type] ??= {});
		for (const key of Object.keys(record)) delete record[key];
		Object.assign(record, saved);
	}
}
