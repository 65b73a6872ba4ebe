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
import { storageCredentials } from '../shared/storage/auth-fields';
import { pollSignatures } from './poll';
import { properties } from './properties';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageESignatureTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage E-Signature Trigger',
		name: 'cloudStorageESignatureTrigger',
		icon: {
			light: 'file:../../icons/cloudStorageESignature.svg',
			dark: 'file:../../icons/cloudStorageESignature.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["watch"] === "files" ? "listed files" : "folder"}}',
		// n8n's node picker shows one entry for an app node and its trigger, with the trigger's description: it
		// speaks for both.
		description:
			'Electronic signatures on files in the cloud storage service: list them, e-mail signing requests, build a signing page, or start a workflow when someone signs a watched file (each signature once)',
		defaults: { name: 'Cloud Storage E-Signature Trigger' },
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
		return await runPoll(this, async () => await pollSignatures(this));
	}
}
