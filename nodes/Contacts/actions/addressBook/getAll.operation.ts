import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { listCollections } from '../../../shared/dav/discovery';
import { contactClient } from '../common';
import { returnAllFields } from '../../../shared/node/list-fields';

const properties: INodeProperties[] = [...returnAllFields()];

export const description = updateDisplayOptions(
	{ show: { resource: ['addressBook'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const client = await contactClient(this, itemIndex);
	const books = await listCollections(client, 'addressbook');
	const returnAll = this.getNodeParameter('returnAll', itemIndex, true) as boolean;
	const limited = returnAll
		? books
		: books.slice(0, this.getNodeParameter('limit', itemIndex, 50) as number);
	return limited.map((book) => {
		// Calendar-only properties and the internal kind mean nothing for an address book.
		const item: IDataObject = { ...book };
		for (const key of ['kind', 'components', 'color', 'order']) delete item[key];
		return { json: item };
	});
}
