import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { listSearch, loadOptions, resourceMapping } from '../shared/dms/methods';
import * as client from './actions/client/Client.resource';
import * as project from './actions/project/Project.resource';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import * as task from './actions/task/Task.resource';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageDmsTask implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage DMS Task',
		name: 'cloudStorageDmsTask',
		icon: {
			light: 'file:../../icons/cloudStorageDmsTask.svg',
			dark: 'file:../../icons/cloudStorageDmsTask.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"Create, read, update and comment on tasks of the document-management system, with the organisation's own fields; read its projects and clients",
		defaults: { name: 'Cloud Storage DMS Task' },
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
				options: optionsFor(resources, [
					{ name: 'Client', value: 'client' },
					{ name: 'Project', value: 'project' },
					{ name: 'Task', value: 'task' },
				]),
				default: 'task',
			},
			...task.description,
			...project.description,
			...client.description,
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
