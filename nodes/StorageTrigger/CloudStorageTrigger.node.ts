import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { runPoll } from '../shared/node/poll';
import { searchFolders } from '../shared/storage/folder-search';
import { pollChanges } from './poll';
import { properties } from './properties';
import { storageCredentials } from '../shared/storage/auth-fields';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage Trigger',
		name: 'cloudStorageTrigger',
		icon: {
			light: 'file:../../icons/cloudStorage.svg',
			dark: 'file:../../icons/cloudStorage.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		// n8n's node picker shows one entry for an app node and its trigger, with the trigger's description: it
		// speaks for both.
		description:
			'Files and folders in the cloud storage service: upload, download, list, move and share them, or start a workflow when they are created, updated, moved or deleted (each change once)',
		defaults: { name: 'Cloud Storage Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: storageCredentials,
		properties,
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors({ searchFolders }),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this, async () => await pollChanges(this));
	}
}
