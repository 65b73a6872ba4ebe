import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { deleteObject } from '../../../shared/dav/objects';
import { successOutcome } from '../../../shared/dav-node/client';
import { inputEtag } from '../../../shared/dav-node/input-etag';
import { deleteOptions, objectUrlField } from '../../../shared/dav-node/locators';
import { contactClient, contactItem, contactUrlParam } from '../common';

const properties: INodeProperties[] = [
	objectUrlField('contact'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: deleteOptions,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		etag?: string;
		deleteIfChanged?: boolean;
	};
	const client = await contactClient(this, itemIndex);
	const url = contactUrlParam(this, client, itemIndex);
	const deleted = await deleteObject(client, url, {
		// The version this workflow read (the input item's etag) unless another is named: another client's
		// later edit is then a conflict, never deleted unseen.
		expectedEtag: options.etag?.trim() || inputEtag(this, itemIndex, url),
		deleteIfChanged: options.deleteIfChanged,
	});
	return [
		{
			json: {
				deleted: true,
				url: deleted.url,
				etag: deleted.etag,
				// Gone when the lost answer was settled: by this delete or another client's, no read can tell.
				...(deleted.goneAfterLostAnswer ? { goneAfterLostAnswer: true } : {}),
				...(deleted.changed ? { changedByOtherClient: contactItem(deleted.changed, false) } : {}),
				outcome: successOutcome(client),
			},
		},
	];
}
