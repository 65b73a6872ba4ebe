import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { patchEventData } from '../../../shared/dav/icalendar';
import { updateOccurrence } from '../../../shared/dav/recurrence';
import { updateObject } from '../../../shared/dav/objects';
import { splitSeriesObject } from '../../../shared/dav/series';
import { requireKind } from '../../../shared/dav/resource-kind';
import { successOutcome } from '../../../shared/dav-node/client';
import { etagOptions, objectUrlField } from '../../../shared/dav-node/locators';
import { eventClient, eventItem, eventUrlParam, occurrenceItem } from '../common';
import {
	additionalEventFields,
	eventFieldsFrom,
	includeRawOption,
	occurrenceOption,
	occurrenceScopeOption,
} from './fields';

const properties: INodeProperties[] = [
	objectUrlField('event'),
	additionalEventFields('updateFields'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...etagOptions, includeRawOption, occurrenceOption('change'), occurrenceScopeOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['update'] } },
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
	const fields = eventFieldsFrom(this, itemIndex, updates);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		etag?: string;
		reapplyOnConflict?: boolean;
		includeRaw?: boolean;
		occurrence?: string;
		scope?: string;
	};
	const client = await eventClient(this, itemIndex);
	const url = eventUrlParam(this, client, itemIndex);
	const defaultZone = this.getTimezone();
	const occurrence = options.occurrence?.trim();
	// A PUT to a calendar's or a home's URL would replace what it holds: the target is read first.
	await requireKind(client, url, { operation: 'Update Event', want: 'object' });
	if (occurrence && options.scope === 'following') {
		const { scope, series, following } = await splitSeriesObject(
			client,
			url,
			occurrence,
			fields,
			defaultZone,
			options.etag?.trim() || undefined,
		);
		if (!following)
			return [
				{
					json: {
						...eventItem(series, options.includeRaw ?? false),
						appliedToWholeSeries: true,
						note:
							scope === 'series'
								? 'This is the first occurrence, so "This and Following" changed the whole series.'
								: 'No earlier occurrence is left (the first ones are cancelled), so "This and Following" changed the whole series.',
					},
				},
			];
		return [
			{
				json: {
					...eventItem(series, options.includeRaw ?? false),
					following: eventItem(following, options.includeRaw ?? false),
					outcome: successOutcome(client),
				},
			},
		];
	}
	const updated = await updateObject(
		client,
		url,
		'calendar',
		(data) =>
			occurrence
				? updateOccurrence(data, occurrence, fields, defaultZone)
				: patchEventData(data, fields, defaultZone),
		{
			expectedEtag: options.etag?.trim() || undefined,
			reapplyOnConflict: options.reapplyOnConflict,
		},
	);
	return [
		{
			json: {
				...(occurrence
					? occurrenceItem(updated, occurrence, options.includeRaw ?? false)
					: eventItem(updated, options.includeRaw ?? false)),
				outcome: successOutcome(client, updated),
			},
		},
	];
}
