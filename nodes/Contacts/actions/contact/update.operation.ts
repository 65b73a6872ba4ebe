import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { updateObject } from '../../../shared/dav/objects';
import { patchContactData } from '../../../shared/dav/vcard';
import { requireKind } from '../../../shared/dav/resource-kind';
import { successOutcome } from '../../../shared/dav-node/client';
import { etagOptions, objectUrlField } from '../../../shared/dav-node/locators';
import { contactClient, contactItem, contactUrlParam, includeRawOption } from '../common';
import { contactFieldCollection, contactFieldsFrom } from './fields';

const properties: INodeProperties[] = [
	objectUrlField('contact'),
	contactFieldCollection('updateFields'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...etagOptions, includeRawOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['update'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const updates = this.getNodeParameter('updateFields', itemIndex, {}) as Record<string, unknown>;
	if (Object.keys(updates).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', {
			itemIndex,
			description: 'Add at least one field under Update Fields.',
		});
	}
	const fields = contactFieldsFrom(this, updates);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		etag?: string;
		reapplyOnConflict?: boolean;
		includeRaw?: boolean;
	};
	const client = await contactClient(this, itemIndex);
	const url = contactUrlParam(this, client, itemIndex);
	// A PUT to an address book's or a home's URL would replace what it holds: the target is read first.
	await requireKind(client, url, { operation: 'Update Contact', want: 'object' });
	const updated = await updateObject(
		client,
		url,
		'addressbook',
		(data) => patchContactData(data, fields),
		{
			expectedEtag: options.etag?.trim() || undefined,
			reapplyOnConflict: options.reapplyOnConflict,
		},
	);
	return [
		{
			json: {
				...contactItem(updated, options.includeRaw ?? false),
				outcome: successOutcome(client, updated),
			},
		},
	];
}
