import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { DavCollection } from '../../../shared/dav/discovery';
import type { CollectionProps } from '../../../shared/dav/requests';

export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
};

export function bookProps(
	ctx: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	collection: string,
): CollectionProps {
	const fields = ctx.getNodeParameter(collection, itemIndex, {}) as { description?: string };
	return {
		displayName: displayName === '' ? undefined : displayName,
		description: fields.description,
	};
}

/** An address book as output: calendar-only properties and the internal kind mean nothing here. */
export function bookItem(book: DavCollection): IDataObject {
	const item: IDataObject = { ...book };
	for (const key of ['kind', 'components', 'color', 'order']) delete item[key];
	return item;
}
