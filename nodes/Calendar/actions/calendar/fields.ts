import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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
			{
				displayName: 'Color',
				name: 'color',
				type: 'color',
				default: '#3A87ADFF',
				description: 'Calendar colour (stored as Apple calendar-color, which most clients read)',
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
			},
			{
				displayName: 'Order',
				name: 'order',
				type: 'number',
				default: 0,
				description: 'Position among the calendars in clients that sort by it',
			},
		],
	};
}

export function calendarProps(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string | undefined,
	collection: string,
): CollectionProps {
	const fields = ctx.getNodeParameter(collection, itemIndex, {}) as {
		color?: string;
		description?: string;
		order?: number;
	};
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
