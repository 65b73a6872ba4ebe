import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { searchCalendars } from '../shared/dav-node/list-search';
import * as calendar from './actions/calendar/Calendar.resource';
import * as event from './actions/event/Event.resource';
import { resources, router } from './actions/router';
import { optionsFor } from '../shared/node/router';
import { requestOptionsField } from '../shared/node/request-options';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageCalendar implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage Calendar',
		name: 'cloudStorageCalendar',
		icon: {
			light: 'file:../../icons/cloudStorageCalendar.svg',
			dark: 'file:../../icons/cloudStorageCalendar.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create, read, update and delete calendars and events on any CalDAV server',
		defaults: { name: 'Cloud Storage Calendar' },
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
					{ name: 'Calendar', value: 'calendar' },
					{ name: 'Event', value: 'event' },
				]),
				default: 'event',
			},
			...calendar.description,
			...event.description,
			requestOptionsField,
		],
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors({ searchCalendars }),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
