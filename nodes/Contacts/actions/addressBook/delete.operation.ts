import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { deleteCollection } from '../../../shared/dav/collections';
import { successOutcome } from '../../../shared/dav-node/client';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { addressBookUrlParam, contactClient } from '../common';

const properties: INodeProperties[] = [
	collectionLocator('addressbook'),
	{
		displayName:
			'Deleting an address book deletes every contact in it, for every client of the account.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['addressBook'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const client = await contactClient(this, itemIndex);
	const url = addressBookUrlParam(this, client, itemIndex);
	const deleted = await deleteCollection(client, 'addressbook', url);
	return [
		{
			json: {
				deleted: true,
				url,
				...(deleted.goneAfterLostAnswer ? { goneAfterLostAnswer: true } : {}),
				outcome: successOutcome(client),
			},
		},
	];
}
