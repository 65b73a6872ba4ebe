import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { cancelOccurrence } from '../../../shared/dav/recurrence';
import { deleteObject, updateObject } from '../../../shared/dav/objects';
import { requireKind } from '../../../shared/dav/resource-kind';
import { successOutcome } from '../../../shared/dav-node/client';
import { inputEtag } from '../../../shared/dav-node/input-etag';
import { deleteOptions, objectUrlField } from '../../../shared/dav-node/locators';
import { eventClient, eventItem, eventUrlParam } from '../common';
import { occurrenceOption } from './fields';

const properties: INodeProperties[] = [
	objectUrlField('event'),
	{
		displayName:
			'Deleting an event in a calendar shared with you (shared-…) removes it for everyone who shares the calendar, the owner included. To drop only your copy of the calendar, delete the calendar instead (that ends your membership).',
		name: 'sharedNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...deleteOptions, occurrenceOption('cancel')],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['event'], operation: ['delete'] } },
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
	const client = await eventClient(this, itemIndex);
	const url = eventUrlParam(this, client, itemIndex);
	const occurrence = (this.getNodeParameter('options.occurrence', itemIndex, '') as string).trim();
	if (occurrence) {
		await requireKind(client, url, {
			operation: 'Delete Event',
			want: 'object',
			nothing: 'Nothing was deleted.',
		});
		// One occurrence is cancelled by changing the series (EXDATE), never by deleting the object.
		const cancelled = await updateObject(
			client,
			url,
			'calendar',
			(data) => cancelOccurrence(data, occurrence),
			{ expectedEtag: options.etag?.trim() || undefined },
		);
		return [
			{
				json: {
					cancelled: true,
					url,
					recurrenceId: occurrence,
					etag: cancelled.etag ?? null,
					outcome: successOutcome(client),
				},
			},
		];
	}
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
				...(deleted.changed ? { changedByOtherClient: eventItem(deleted.changed, false) } : {}),
				outcome: successOutcome(client),
			},
		},
	];
}
