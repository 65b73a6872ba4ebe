import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { createObject } from '../../../shared/dav/objects';
import { createContactData, normaliseRawVcard } from '../../../shared/dav/vcard';
import { explainingKind } from '../../../shared/dav/resource-kind';
import { successOutcome } from '../../../shared/dav-node/client';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { addressBookUrlParam, contactClient, contactItem, includeRawOption } from '../common';
import { contactFieldCollection, contactFieldsFrom } from './fields';

const properties: INodeProperties[] = [
	collectionLocator('addressbook'),
	{
		displayName: 'Input',
		name: 'input',
		type: 'options',
		options: [
			{
				name: 'Fields',
				value: 'fields',
				description: 'Build the contact from name, e-mails, phones and details',
			},
			{
				name: 'Raw VCard',
				value: 'raw',
				description: 'Store a vCard as given (a UID is added if missing)',
			},
		],
		default: 'fields',
	},
	{
		displayName: 'Full Name',
		name: 'fullName',
		type: 'string',
		default: '',
		required: true,
		description: 'The name shown for the contact (vCard FN)',
		displayOptions: { show: { input: ['fields'] } },
	},
	{
		...contactFieldCollection('additionalFields'),
		displayOptions: { show: { input: ['fields'] } },
	},
	{
		displayName: 'VCard',
		name: 'vCard',
		type: 'string',
		typeOptions: { rows: 8 },
		default: '',
		required: true,
		placeholder: 'BEGIN:VCARD…END:VCARD',
		displayOptions: { show: { input: ['raw'] } },
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

const CREATE_CHECK = {
	operation: 'Create Contact',
	want: 'addressbook',
	nothing: 'Nothing was stored.',
} as const;

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const input = this.getNodeParameter('input', itemIndex, 'fields') as string;
	const includeRaw = this.getNodeParameter('options.includeRaw', itemIndex, false) as boolean;
	let build: (uid: string) => { data: string; uid: string };
	if (input === 'raw') {
		const raw = this.getNodeParameter('vCard', itemIndex, '') as string;
		if (!raw.trim())
			throw new NodeOperationError(this.getNode(), 'No vCard text given', { itemIndex });
		normaliseRawVcard(raw, 'probe');
		build = (uid) => normaliseRawVcard(raw, uid);
	} else {
		const fields = contactFieldsFrom(this, {
			...(this.getNodeParameter('additionalFields', itemIndex, {}) as Record<string, unknown>),
			fullName: this.getNodeParameter('fullName', itemIndex, '') as string,
		});
		createContactData(fields, 'probe');
		build = (uid) => ({ data: createContactData(fields, uid), uid });
	}
	const client = await contactClient(this, itemIndex);
	const addressBookUrl = addressBookUrlParam(this, client, itemIndex);
	const created = await explainingKind(client, addressBookUrl, CREATE_CHECK, () =>
		createObject(client, addressBookUrl, 'addressbook', build),
	);
	return [
		{
			json: {
				...contactItem(created, includeRaw),
				addressBookUrl,
				outcome: successOutcome(client, created),
			},
		},
	];
}
