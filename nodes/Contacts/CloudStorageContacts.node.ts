import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { searchAddressBooks } from '../shared/dav-node/list-search';
import * as addressBook from './actions/addressBook/AddressBook.resource';
import * as contact from './actions/contact/Contact.resource';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageContacts implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage Contacts',
		name: 'cloudStorageContacts',
		icon: {
			light: 'file:../../icons/cloudStorageContacts.svg',
			dark: 'file:../../icons/cloudStorageContacts.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, search, read, update and delete contacts on any CardDAV server',
		defaults: { name: 'Cloud Storage Contacts' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloudStorageDavApi', required: true, testedBy: 'testDavCredential' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: optionsFor(resources, [
					{ name: 'Address Book', value: 'addressBook' },
					{ name: 'Contact', value: 'contact' },
				]),
				default: 'contact',
			},
			...addressBook.description,
			...contact.description,
			requestOptionsField,
		],
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors({ searchAddressBooks }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
