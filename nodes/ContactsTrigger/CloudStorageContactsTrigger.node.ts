import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { davClient } from '../shared/dav-node/client';
import { searchAddressBooks } from '../shared/dav-node/list-search';
import { collectionLocator } from '../shared/dav-node/locators';
import { changeEventsField, collectionParam, pollChanges } from '../shared/dav-node/trigger';
import { runPoll } from '../shared/node/poll';
import { describeVcard } from '../shared/dav/vcard';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageContactsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage Contacts Trigger',
		name: 'cloudStorageContactsTrigger',
		icon: {
			light: 'file:../../icons/cloudStorageContacts.svg',
			dark: 'file:../../icons/cloudStorageContacts.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Contacts: " + $parameter["events"].join(", ")}}',
		// n8n's node picker shows one entry for an app node and its trigger, with the trigger's description: it
		// speaks for both.
		description:
			'Address books and contacts on any CardDAV server: create, search, read, update and delete them, or start a workflow when contacts are created, updated or deleted',
		defaults: { name: 'Cloud Storage Contacts Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloudStorageDavApi', required: true, testedBy: 'testDavCredential' }],
		properties: [collectionLocator('addressbook'), changeEventsField('contact')],
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors({ searchAddressBooks }),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this, async () => {
			const client = await davClient(this, undefined, 'contact');
			const url = collectionParam(this, client, 'addressBook', 'address book');
			return await pollChanges(this, client, 'addressbook', url, (object) => ({
				url: object.url,
				etag: object.etag ?? null,
				...describeVcard(object.data),
			}));
		});
	}
}
