import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { DavClient } from '../shared/dav/client';
import { expandCalendarData } from '../shared/dav/event-view';
import type { Multistatus } from '../shared/dav/multistatus';
import { objectsFrom } from '../shared/dav/objects';
import { calendarQueryBody } from '../shared/dav/requests';
import { withDavErrors } from '../shared/dav-node/client';

interface StartsState {
	collection: string;
	/** Occurrence key (url + start) → start in epoch ms, kept until the occurrence is past. */
	notified: Record<string, number>;
}

/**
 * "Event starts within N minutes": occurrences (recurring series expanded) starting between now and now + N
 * minutes, each announced once. The first activation records what is already due and emits nothing.
 */
export async function pollStartsWithin(ctx: IPollFunctions, client: DavClient, url: string): Promise<INodeExecutionData[][] | null> {
	const minutes = ctx.getNodeParameter('minutes', 15) as number;
	const now = Date.now();
	const from = new Date(now);
	const to = new Date(now + minutes * 60_000);
	const staticData = ctx.getWorkflowStaticData('node') as { starts?: StartsState };
	return await withDavErrors(ctx, undefined, async () => {
		const result = (await client.report(url, '1', calendarQueryBody({ start: from, end: to }), 'Querying upcoming events')) as Multistatus;
		const due: IDataObject[] = [];
		for (const object of objectsFrom(result, 'calendar')) {
			for (const occurrence of expandCalendarData(object.data, from.getTime() / 1000, to.getTime() / 1000)) {
				const startMs = Date.parse(String(occurrence.start));
				if (occurrence.allDay || Number.isNaN(startMs) || startMs < now || startMs >= to.getTime()) continue;
				due.push({ event: 'startsSoon', url: object.url, etag: object.etag ?? null, minutesUntilStart: Math.round((startMs - now) / 60_000), ...(occurrence as IDataObject) });
			}
		}
		const keyOf = (item: IDataObject) => `${String(item.url)}|${String(item.start)}`;
		if (ctx.getMode() === 'manual') return due.length > 0 ? [ctx.helpers.returnJsonArray(due)] : null;

		const previous = staticData.starts?.collection === url ? staticData.starts : undefined;
		const notified: Record<string, number> = {};
		for (const [key, start] of Object.entries(previous?.notified ?? {})) if (start >= now) notified[key] = start;
		const fresh = due.filter((item) => notified[keyOf(item)] === undefined);
		for (const item of due) notified[keyOf(item)] = Date.parse(String(item.start));
		staticData.starts = { collection: url, notified };
		if (!previous || fresh.length === 0) return null;
		return [ctx.helpers.returnJsonArray(fresh)];
	});
}
