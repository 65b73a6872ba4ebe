import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ContactFields, PostalAddress, TypedValue } from '../../../shared/dav/vcard';

const typedList = (
	name: string,
	displayName: string,
	valueName: string,
	placeholder: string,
	types: Array<{ name: string; value: string }>,
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	description: `Replaces the contact's ${displayName.toLowerCase()}`,
	options: [
		{
			displayName,
			name: 'entries',
			values: [
				{ displayName: valueName, name: 'value', type: 'string', default: '', placeholder },
				{ displayName: 'Type', name: 'type', type: 'options', options: types, default: 'work' },
			],
		},
	],
});

const LABELS = [
	{ name: 'Work', value: 'work' },
	{ name: 'Home', value: 'home' },
	{ name: 'Other', value: 'other' },
];

const detailFields: INodeProperties[] = [
	{
		displayName: 'Addresses',
		name: 'addresses',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		description: "Replaces the contact's postal addresses",
		options: [
			{
				displayName: 'Address',
				name: 'entries',
				values: [
					{ displayName: 'Street', name: 'street', type: 'string', default: '' },
					{ displayName: 'City', name: 'city', type: 'string', default: '' },
					{ displayName: 'Region', name: 'region', type: 'string', default: '' },
					{ displayName: 'Postal Code', name: 'postalCode', type: 'string', default: '' },
					{ displayName: 'Country', name: 'country', type: 'string', default: '' },
					{ displayName: 'Type', name: 'type', type: 'options', options: LABELS, default: 'work' },
				],
			},
		],
	},
	{
		displayName: 'Birthday',
		name: 'birthday',
		type: 'string',
		default: '',
		placeholder: '1990-05-17',
		description:
			'YYYY-MM-DD, or --MM-DD for a birthday without year (shown the same way when another client stored one)',
	},
	typedList('emails', 'Emails', 'Email', 'name@example.com', LABELS),
	{ displayName: 'Family Name', name: 'familyName', type: 'string', default: '' },
	{ displayName: 'Given Name', name: 'givenName', type: 'string', default: '' },
	{ displayName: 'Job Title', name: 'title', type: 'string', default: '' },
	{ displayName: 'Note', name: 'note', type: 'string', typeOptions: { rows: 3 }, default: '' },
	{ displayName: 'Organization', name: 'organization', type: 'string', default: '' },
	typedList('phones', 'Phones', 'Number', '+49 30 1234567', [
		{ name: 'Cell', value: 'cell' },
		...LABELS,
	]),
];

export function contactFieldCollection(name: 'additionalFields' | 'updateFields'): INodeProperties {
	const options =
		name === 'updateFields'
			? [
					{
						displayName: 'Full Name',
						name: 'fullName',
						type: 'string',
						default: '',
					} as INodeProperties,
					...detailFields,
				]
			: detailFields;
	return {
		displayName: name === 'updateFields' ? 'Update Fields' : 'Additional Fields',
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

function entries<T>(value: unknown): T[] | undefined {
	if (value === undefined) return undefined;
	return ((value as { entries?: T[] }).entries ?? []) as T[];
}

/** Collection values → ContactFields; fields the user did not add stay undefined (left untouched). */
export function contactFieldsFrom(
	_ctx: IExecuteFunctions,
	values: Record<string, unknown>,
): ContactFields {
	const text = (key: string) =>
		values[key] === undefined ? undefined : String(values[key]).trim();
	return {
		fullName: text('fullName'),
		givenName: text('givenName'),
		familyName: text('familyName'),
		organization: text('organization'),
		title: text('title'),
		note: values.note === undefined ? undefined : String(values.note),
		birthday: text('birthday'),
		emails: entries<TypedValue>(values.emails),
		phones: entries<TypedValue>(values.phones),
		addresses: entries<PostalAddress>(values.addresses),
	};
}
