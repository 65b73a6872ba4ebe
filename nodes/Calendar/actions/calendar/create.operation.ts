import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { randomUUID } from 'node:crypto';

import { createCollection } from '../../../shared/dav/collections';
import { discoverHome } from '../../../shared/dav/discovery';
import { DavError } from '../../../shared/dav/errors';
import { eventClient } from '../common';
import { successOutcome } from '../../../shared/dav-node/client';
import { notAppliedError, notAppliedOption } from '../../../shared/dav-node/not-applied';
import { calendarItem, calendarPropertyFields, calendarProps } from './fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'displayName',
		type: 'string',
		default: '',
		required: true,
		description: 'Display name of the new calendar',
	},
	{
		displayName: 'Component Types',
		name: 'components',
		type: 'multiOptions',
		options: [
			{ name: 'Events (VEVENT)', value: 'VEVENT' },
			{ name: 'Tasks (VTODO)', value: 'VTODO' },
			{ name: 'Journal (VJOURNAL)', value: 'VJOURNAL' },
		],
		default: ['VEVENT'],
		description: 'What the calendar may hold',
	},
	calendarPropertyFields('additionalFields'),
	notAppliedOption,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['calendar'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const displayName = (this.getNodeParameter('displayName', itemIndex, '') as string).trim();
	if (!displayName)
		throw new NodeOperationError(this.getNode(), 'The calendar needs a name', { itemIndex });
	const components = this.getNodeParameter('components', itemIndex, ['VEVENT']) as string[];
	const client = await eventClient(this, itemIndex);
	const props = calendarProps(this, itemIndex, displayName, 'additionalFields');
	const home = await discoverHome(client, 'calendar');
	// The collection's name in the URL is generated; the display name is what users see.
	const url = new URL(`${randomUUID()}/`, home.endsWith('/') ? home : `${home}/`).href;
	const { collection, notApplied } = await createCollection(
		client,
		'calendar',
		url,
		props,
		components.length ? components : ['VEVENT'],
	);
	if (
		notApplied.length > 0 &&
		this.getNodeParameter('options.ifNotApplied', itemIndex, 'output') === 'error'
	)
		throw new DavError(...notAppliedError('calendar', collection.url, notApplied));
	return [{ json: { ...calendarItem(collection), notApplied, outcome: successOutcome(client) } }];
}
