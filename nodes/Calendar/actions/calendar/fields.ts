import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { NotApplied } from '../../../shared/dav/collections';
import type { DavCollection } from '../../../shared/dav/discovery';

import type { CollectionProps } from '../../../shared/dav/requests';

/** Display name, colour, description, order: what a member may change even on a shared calendar. */
export function calendarPropertyFields(name: string): INodeProperties {
	return {
		displayName: name === 'updateFields' ? 'Update Fields' : 'Additional Fields',
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Color', name: 'color', type: 'color', default: '#3A87ADFF', description: 'Calendar colour (stored as Apple calendar-color, which most clients read)' },
			{ displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 2 }, default: '' },
			{ displayName: 'Order', name: 'order', type: 'number', default: 0, description: 'Position among the calendars in clients that sort by it' },
		],
	};
}

export function calendarProps(ctx: IExecuteFunctions, itemIndex: number, displayName: string | undefined, collection: string): CollectionProps {
	const fields = ctx.getNodeParameter(collection, itemIndex, {}) as { color?: string; description?: string; order?: number };
	return {
		displayName: displayName === '' ? undefined : displayName,
		color: fields.color,
		description: fields.description,
		order: fields.order,
	};
}

/** A calendar as output: everything discovered except the internal kind. */
export function calendarItem(calendar: DavCollection): IDataObject {
	const item: IDataObject = { ...calendar };
	delete item.kind;
	return item;
}

/** Servers may create a collection yet refuse some of its properties: shown in the output, or an error. */
export const notAppliedOption: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'If a Property Is Not Applied',
			name: 'ifNotApplied',
			type: 'options',
			options: [
				{ name: 'List It in the Output', value: 'output', description: 'The item\'s notApplied field lists what the server did not store' },
				{ name: 'Fail', value: 'error', description: 'Stop with an error naming what the server did not store (the collection exists)' },
			],
			default: 'output',
			description: 'What to do when the server does not store every property asked for (read back after the change)',
		},
	],
};

/** Message and description of the error for properties a server did not store at creation. */
export function notAppliedError(kind: 'calendar' | 'address book', url: string, notApplied: NotApplied[]): [string, string] {
	const list = notApplied.map((entry) => `${entry.property}${entry.status ? ` (${entry.status})` : ''}: asked ${JSON.stringify(entry.requested)}, stored ${JSON.stringify(entry.stored ?? null)}`).join('; ');
	return [`The server did not store every property of the ${kind}: ${list}`, `The ${kind} exists at ${url}. Change or leave out these properties; the server may not support them.`];
}
