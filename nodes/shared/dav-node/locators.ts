import type { INodeProperties } from 'n8n-workflow';

import type { DataKind } from '../dav/requests';

const LABEL: Record<DataKind, { display: string; search: string }> = {
	calendar: { display: 'Calendar', search: 'searchCalendars' },
	addressbook: { display: 'Address Book', search: 'searchAddressBooks' },
};

/** A calendar or address book: picked from the discovered list, or by its URL (never built from a name). */
export function collectionLocator(
	kind: DataKind,
	name = kind === 'calendar' ? 'calendar' : 'addressBook',
): INodeProperties {
	const label = LABEL[kind];
	return {
		displayName: label.display,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: `The ${label.display.toLowerCase()}, as discovered on the server`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${label.display.toLowerCase()}...`,
				typeOptions: { searchListMethod: label.search, searchable: true },
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: 'https://dav.example.com/calendars/alice/work/',
				hint: 'The collection URL (or its path on the DAV server), as Get Many returns it',
			},
		],
	};
}

export function objectUrlField(
	what: 'event' | 'contact',
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: `${what === 'event' ? 'Event' : 'Contact'} URL`,
		name: `${what}Url`,
		type: 'string',
		default: '',
		required: true,
		placeholder: what === 'event' ? 'e.g. {{ $json.url }}' : 'e.g. {{ $json.url }}',
		description: `The ${what}'s URL as a Get Many, Search or Create returned it (its path on the DAV server also works)`,
		...extra,
	};
}

export const etagOptions: INodeProperties[] = [
	{
		displayName: 'Expected ETag',
		name: 'etag',
		type: 'string',
		default: '',
		description:
			'The ETag from when the object was read (the etag field a Get or Get Many returned). If the object has changed on the server since, the operation fails with a conflict instead of overwriting the other change.',
	},
	{
		displayName: 'Re-Apply on Conflict',
		name: 'reapplyOnConflict',
		type: 'boolean',
		default: false,
		description:
			'Whether, when the object changed on the server (412), to read it again, re-apply this change and try once more instead of failing',
	},
];

/** Delete: the ETag precondition, and the explicit opt-in to delete an object another client changed. */
export const deleteOptions: INodeProperties[] = [
	{
		...etagOptions[0],
		description:
			"The ETag from when the object was read. Empty: the input item's etag when its url is this object (as Get, Get Many, Search and the triggers output them); only without either is the version on the server now deleted. If the object has changed since, the delete fails with a conflict instead of removing the other change.",
	},
	{
		displayName: 'Delete Whatever Version Is There',
		name: 'deleteIfChanged',
		type: 'boolean',
		default: false,
		description:
			'Whether to delete the object even when another client changed it after it was read (412). The node reads that version first and returns it as changedByOtherClient.',
	},
];
