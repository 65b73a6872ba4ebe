import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { listSearch, loadOptions, resourceMapping } from '../shared/dms/methods';
import * as contactPerson from './actions/contactPerson/ContactPerson.resource';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageContactPerson implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage Contact Person',
		name: 'cloudStorageContactPerson',
		icon: {
			light: 'file:../../icons/cloudStorageContactPerson.svg',
			dark: 'file:../../icons/cloudStorageContactPerson.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"Create, read and update contact persons of the document-management system (external receivers of task notifications), with the organisation's own fields",
		defaults: { name: 'Cloud Storage Contact Person' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// The document-management API accepts only a user access token, never a password or a cookie.
		credentials: [
			{ name: 'cloudStorageTokenApi', required: true, testedBy: 'testTokenCredential' },
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: optionsFor(resources, [{ name: 'Contact Person', value: 'contactPerson' }]),
				default: 'contactPerson',
			},
			...contactPerson.description,
			requestOptionsField,
		],
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors(listSearch),
		loadOptions: convertingErrors(loadOptions),
		resourceMapping: convertingErrors(resourceMapping),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
