import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { findEventByUid } from '../../../shared/dav/by-uid';
import { explainingKind } from '../../../shared/dav/resource-kind';
import { collectionLocator, objectUrlField } from '../../../shared/dav-node/locators';
import { calendarUrlParam, eventClient, eventItem, eventUrlParam } from '../common';
import { includeRawOption } from './fields';
import { runParameter } from '../../../shared/node/run-parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Get By',
		name: 'getBy',
		type: 'options',
		options: [
			{ name: 'URL', value: 'url', description: "The event's URL, as listed" },
			{
				name: 'UID',
				value: 'uid',
				description: "The event's iCalendar UID, searched in a calendar",
			},
		],
		default: 'url',
	},
	{ ...objectUrlField('event'), displayOptions: { show: { getBy: ['url'] } } },
	{ ...collectionLocator('calendar'), displayOptions: { show: { getBy: ['uid'] } } },
	{
		displayName: 'UID',
		name: 'uid',
		type: 'string',
		default: '',
		required: true,
		description: 'The iCalendar UID (not the URL: they differ)',
		displayOptions: { show: { getBy: ['uid'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [includeRawOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const includeRaw = runParameter<boolean>(this, 'options.includeRaw', itemIndex, false);
	const client = await eventClient(this, itemIndex);
	if (runParameter(this, 'getBy', itemIndex, 'url') === 'url') {
		const url = eventUrlParam(this, client, itemIndex);
		const object = await explainingKind(
			client,
			url,
			{ operation: 'Get Event', want: 'object', nothing: 'Nothing was read.' },
			() => client.get(url),
		);
		return [{ json: eventItem(object, includeRaw) }];
	}
	const uid = (this.getNodeParameter('uid', itemIndex, '') as string).trim();
	if (!uid) throw new NodeOperationError(this.getNode(), 'No UID given', { itemIndex });
	const calendarUrl = calendarUrlParam(this, client, itemIndex);
	const found = await explainingKind(
		client,
		calendarUrl,
		{ operation: 'Get Event', want: 'calendar', nothing: 'Nothing was read.' },
		() => findEventByUid(client, calendarUrl, uid),
	);
	if (!found) {
		throw new NodeOperationError(this.getNode(), `No event with UID "${uid}" in this calendar`, {
			itemIndex,
			description: 'Check the UID and the calendar; UIDs are not URLs.',
		});
	}
	return [{ json: eventItem(found, includeRaw) }];
}
