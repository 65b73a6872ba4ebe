import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { convertingErrors } from '../shared/node/load-options';
import { davClient } from '../shared/dav-node/client';
import { searchCalendars } from '../shared/dav-node/list-search';
import { collectionLocator } from '../shared/dav-node/locators';
import { changeEventsField, collectionParam, pollChanges } from '../shared/dav-node/trigger';
import { runPoll } from '../shared/node/poll';
import { describeCalendarData } from '../shared/dav/event-view';
import { pollStartsWithin } from './starts-within';
import { credentialTest } from '../shared/auth/credential-test';

export class CloudStorageCalendarTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud Storage Calendar Trigger',
		name: 'cloudStorageCalendarTrigger',
		icon: {
			light: 'file:../../icons/cloudStorageCalendar.svg',
			dark: 'file:../../icons/cloudStorageCalendar.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["trigger"] === "startsWithin" ? "Event starts soon" : "Event changes"}}',
		// n8n's node picker shows one entry for an app node and its trigger, with the trigger's description: it
		// speaks for both.
		description:
			'Calendars and events on any CalDAV server: create, read, update and delete them, or start a workflow when events are created, updated or deleted, or shortly before one starts',
		defaults: { name: 'Cloud Storage Calendar Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloudStorageDavApi', required: true, testedBy: 'testDavCredential' }],
		properties: [
			collectionLocator('calendar'),
			{
				displayName: 'Trigger',
				name: 'trigger',
				type: 'options',
				options: [
					{
						name: 'Event Changes',
						value: 'changes',
						description:
							'Events created, updated or deleted (sync-collection, or ETag comparison where the server lacks it)',
					},
					{
						name: 'Event Starts Soon',
						value: 'startsWithin',
						description:
							'An event or an occurrence of a recurring series starts within the next minutes',
					},
				],
				default: 'changes',
			},
			{ ...changeEventsField('event'), displayOptions: { show: { trigger: ['changes'] } } },
			{
				displayName: 'Minutes Before Start',
				name: 'minutes',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 15,
				description:
					'Fire for events starting within this many minutes; each occurrence fires once',
				displayOptions: { show: { trigger: ['startsWithin'] } },
			},
		],
	};

	methods = {
		credentialTest,
		listSearch: convertingErrors({ searchCalendars }),
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await runPoll(this, async () => {
			const client = await davClient(this, undefined, 'event');
			const url = collectionParam(this, client, 'calendar', 'calendar');
			if (this.getNodeParameter('trigger', 'changes') === 'startsWithin')
				return await pollStartsWithin(this, client, url);
			return await pollChanges(this, client, 'calendar', url, (object) => ({
				url: object.url,
				etag: object.etag ?? null,
				...describeCalendarData(object.data),
			}));
		});
	}
}
