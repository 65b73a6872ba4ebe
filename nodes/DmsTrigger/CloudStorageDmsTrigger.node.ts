import type {
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { runPoll } from '../shared/node/poll';
import { getFields } from '../shared/dms/client';
import { listSearch } from '../shared/dms/methods';
import { pollDms } from './poll';
import { properties } from './properties';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageDmsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage DMS Trigger',
		name: 'cloudStorageDmsTrigger',
		icon: {
			light: 'file:../../icons/cloudStorageDmsTask.svg',
			dark: 'file:../../icons/cloudStorageDmsTask.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["resource"]}}',
		description:
			'Starts the workflow when tasks or contact persons of the document-management system are created or change (status, responsible, any field). Each change is reported exactly once.',
		defaults: { name: 'Cloud Storage DMS Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// The document-management API accepts only a user access token.
		credentials: [
			{ name: 'cloudStorageTokenApi', required: true, testedBy: 'testTokenCredential' },
		],
		properties,
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors(listSearch),
		loadOptions: convertingErrors({
			/** The task register's own status options (get_fields of tasks: no other register is read). */
			async getTaskStatuses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const status = (await getFields(this, 'task')).find(
					(field) => field.name === 'dropdown_status',
				);
				return (status?.options ?? []).map((option) => ({
					name: option.display_name,
					value: option.id,
				}));
			},
			/** The contact-person register's group options (get_fields of contact persons). */
			async getContactGroups(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const groups = (await getFields(this, 'contact_person')).find(
					(field) => field.name === 'multi_dropdown_group',
				);
				return (groups?.options ?? []).map((option) => ({
					name: option.display_name,
					value: option.id,
				}));
			},
		}),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this, async () => await pollDms(this));
	}
}
