import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { runPoll } from '../shared/node/poll';
import { searchFolders } from '../shared/storage/folder-search';
import { storageCredentials } from '../shared/storage/auth-fields';
import { pollSignatures } from './poll';
import { properties } from './properties';

export class CloudStorageESignatureTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage E-Signature Trigger',
		name: 'cloudStorageESignatureTrigger',
		icon: { light: 'file:../../icons/cloudStorageESignature.svg', dark: 'file:../../icons/cloudStorageESignature.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["watch"] === "files" ? "listed files" : "folder"}}',
		description: 'Starts the workflow when someone signs a watched file. Each signature is reported exactly once.',
		defaults: { name: 'Cloud Storage E-Signature Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: storageCredentials,
		properties,
	};

	methods = { listSearch: { searchFolders } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this, async () => await pollSignatures(this));
	}
}
