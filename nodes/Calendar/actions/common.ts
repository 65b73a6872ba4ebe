import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DavClient } from '../../shared/dav/client';
import { describeCalendarData, describeComponent } from '../../shared/dav/event-view';
import { occurrenceComponent } from '../../shared/dav/recurrence';
import { davClient, davUrl } from '../../shared/dav-node/client';
import type { WriteOutcome } from '../../shared/errors/outcome';

export async function eventClient(ctx: IExecuteFunctions, itemIndex: number): Promise<DavClient> {
	return await davClient(ctx, itemIndex, 'event');
}

export function calendarUrlParam(
	ctx: IExecuteFunctions,
	client: DavClient,
	itemIndex: number,
	name = 'calendar',
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as string;
	return davUrl(ctx, client, value, itemIndex, 'calendar');
}

export function eventUrlParam(
	ctx: IExecuteFunctions,
	client: DavClient,
	itemIndex: number,
): string {
	return davUrl(
		ctx,
		client,
		ctx.getNodeParameter('eventUrl', itemIndex, '') as string,
		itemIndex,
		'event',
	);
}

/** An event item: where it lives, its ETag exactly as the server sent it, and its fields. */
export function eventItem(
	object: { url: string; etag?: string; data: string; outcome?: WriteOutcome },
	includeRaw: boolean,
): IDataObject {
	return {
		url: object.url,
		etag: object.etag ?? null,
		// A write's item says how its outcome was known (README, "How requests behave").
		...(object.outcome ? { outcome: object.outcome } : {}),
		...(describeCalendarData(object.data) as IDataObject),
		...(includeRaw ? { iCalendar: object.data } : {}),
	};
}

/** The occurrence an operation changed (its override), with the object's place and ETag. */
export function occurrenceItem(
	object: { url: string; etag?: string; data: string; outcome?: WriteOutcome },
	recurrenceId: string,
	includeRaw: boolean,
): IDataObject {
	const override = occurrenceComponent(object.data, recurrenceId);
	if (!override) return eventItem(object, includeRaw);
	return {
		url: object.url,
		etag: object.etag ?? null,
		...(object.outcome ? { outcome: object.outcome } : {}),
		...(describeComponent(override) as IDataObject),
		recurring: true,
		...(includeRaw ? { iCalendar: object.data } : {}),
	};
}
