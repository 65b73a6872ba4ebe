import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { deleteCollection } from '../../../shared/dav/collections';
import { successOutcome } from '../../../shared/dav-node/client';
import { collectionLocator } from '../../../shared/dav-node/locators';
import { calendarUrlParam, eventClient } from '../common';

const properties: INodeProperties[] = [
	collectionLocator('calendar'),
	{
		displayName:
			"Deleting one of your own calendars deletes every event in it, for every client of the account. Deleting a calendar shared with you (shared-…) only ends your membership: the owner's calendar and its events stay, and only the owner can add you again (in the web workspace).",
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['calendar'], operation: ['delete'] } },
	properties,
);

/** A member's view of a shared calendar is the collection `shared-<calendarId>` in their own home. */
export function isSharedCollection(url: string): boolean {
	const segments = new URL(url).pathname.split('/').filter(Boolean);
	return /^shared-/.test(decodeURIComponent(segments[segments.length - 1] ?? ''));
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const client = await eventClient(this, itemIndex);
	const url = calendarUrlParam(this, client, itemIndex);
	const shared = isSharedCollection(url);
	const deleted = await deleteCollection(client, 'calendar', url);
	return [
		{
			json: {
				deleted: true,
				url,
				shared,
				// The documents: deleting a member's shared-<calendarId> collection removes the membership.
				result: shared ? 'membershipRemoved' : 'calendarDeleted',
				// Gone when the lost answer was settled: by this delete or another client's, no read can tell.
				...(deleted.goneAfterLostAnswer ? { goneAfterLostAnswer: true } : {}),
				outcome: successOutcome(client),
			},
		},
	];
}
