import type { INodeProperties } from 'n8n-workflow';

import type { NotApplied } from '../dav/collections';

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
				{
					name: 'List It in the Output',
					value: 'output',
					description: "The item's notApplied field lists what the server did not store",
				},
				{
					name: 'Fail',
					value: 'error',
					description:
						'Stop with an error naming what the server did not store (the collection exists)',
				},
			],
			default: 'output',
			description:
				'What to do when the server does not store every property asked for (read back after the change)',
		},
	],
};

/** Message and description of the error for properties a server did not store at creation. */
export function notAppliedError(
	kind: 'calendar' | 'address book',
	url: string,
	notApplied: NotApplied[],
): [string, string] {
	const list = notApplied
		.map(
			(entry) =>
				`${entry.property}${entry.status ? ` (${entry.status})` : ''}: asked ${JSON.stringify(entry.requested)}, stored ${JSON.stringify(entry.stored ?? null)}`,
		)
		.join('; ');
	return [
		`The server did not store every property of the ${kind}: ${list}`,
		`The ${kind} exists at ${url}. Change or leave out these properties; the server may not support them.`,
	];
}
