import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { DavClient } from '../shared/dav/client';
import { expandCalendarData } from '../shared/dav/event-view';
import { eventsInRange } from '../shared/dav/range-query';
import { instantOfWall } from '../shared/dav/timezones';
import { PackError } from '../shared/errors/pack-error';
import { baselineRecorded } from '../shared/node/durable-cursors';
import { eventId } from '../shared/node/event-id';

interface StartsState {
	collection: string;
	/** Occurrence key (url + start) → start in epoch ms, kept until the occurrence is past. */
	notified: Record<string, number>;
}

/** How far a manual test looks ahead for sample occurrences when none starts within the window. */
const SAMPLE_LOOKAHEAD_MS = 366 * 24 * 60 * 60_000;
const SAMPLE_SIZE = 5;

/** Floating times (no zone) may lie this far either side of UTC: the query and expansion look that much wider. */
const FLOATING_SLACK_MS = 14 * 60 * 60_000;

/**
 * An occurrence's start as an instant: UTC text as it is; a floating time (RFC 5545 3.3.5, no zone) as
 * wall-clock time in the workflow's time zone, never in the zone of the process running n8n.
 */
function startInstant(start: string, zone: string): number {
	if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(start))
		return instantOfWall(zone, Date.parse(`${start}Z`));
	return Date.parse(start);
}

/** Occurrences (recurring series expanded) whose start lies in [now, to), earliest first. */
async function occurrencesStarting(
	client: DavClient,
	url: string,
	now: number,
	to: number,
	zone: string,
): Promise<Array<{ item: IDataObject; startMs: number }>> {
	const from = now - FLOATING_SLACK_MS;
	const until = to + FLOATING_SLACK_MS;
	const objects = await eventsInRange(
		client,
		url,
		{ start: new Date(from), end: new Date(until) },
		'Querying upcoming events',
	);
	const due: Array<{ item: IDataObject; startMs: number }> = [];
	for (const object of objects) {
		for (const occurrence of expandCalendarData(object.data, from / 1000, until / 1000)) {
			const startMs = startInstant(String(occurrence.start), zone);
			if (occurrence.allDay || Number.isNaN(startMs) || startMs < now || startMs >= to) continue;
			due.push({
				startMs,
				item: {
					event: 'startsSoon',
					// One announcement per occurrence (the trigger's own key): the event's URL and the occurrence's start.
					eventId: eventId('calendar', 'startsSoon', object.url, String(occurrence.start)),
					url: object.url,
					etag: object.etag ?? null,
					minutesUntilStart: Math.round((startMs - now) / 60_000),
					...(occurrence as IDataObject),
				},
			});
		}
	}
	return due.sort((a, b) => a.startMs - b.startMs);
}

/**
 * "Event starts within N minutes": occurrences (recurring series expanded) starting between now and now + N
 * minutes, each announced once. The first activation records what is already due and emits nothing.
 * A manual test saves nothing and, when nothing is due, shows the next occurrences so fields can be mapped
 * (or says that none starts within a year).
 */
export async function pollStartsWithin(
	ctx: IPollFunctions,
	client: DavClient,
	url: string,
): Promise<INodeExecutionData[][] | null> {
	const minutes = ctx.getNodeParameter('minutes', 15) as number;
	const now = Date.now();
	const to = now + minutes * 60_000;
	const staticData = ctx.getWorkflowStaticData('node') as { starts?: StartsState };
	const zone = ctx.getTimezone();
	const due = await occurrencesStarting(client, url, now, to, zone);
	if (ctx.getMode() === 'manual') {
		const sample =
			due.length > 0
				? due
				: (await occurrencesStarting(client, url, now, now + SAMPLE_LOOKAHEAD_MS, zone)).slice(
						0,
						SAMPLE_SIZE,
					);
		if (sample.length > 0) return [ctx.helpers.returnJsonArray(sample.map((entry) => entry.item))];
		throw new PackError('No event of the calendar starts within the next year', {
			kind: 'input',
			description:
				'"Fetch Test Event" shows the occurrences due now, else the next ones within a year, and there is none. Add an event (or pick another calendar), then fetch a test event again. Activated, the trigger announces events as they come due either way.',
		});
	}

	const keyOf = (item: IDataObject) => `${String(item.url)}|${String(item.start)}`;
	const previous = staticData.starts?.collection === url ? staticData.starts : undefined;
	const notified: Record<string, number> = {};
	for (const [key, start] of Object.entries(previous?.notified ?? {}))
		if (start >= now) notified[key] = start;
	const fresh = due.filter((entry) => notified[keyOf(entry.item)] === undefined);
	for (const entry of due) notified[keyOf(entry.item)] = entry.startMs;
	staticData.starts = { collection: url, notified };
	if (!previous) return baselineRecorded();
	if (fresh.length === 0) return null;
	return [ctx.helpers.returnJsonArray(fresh.map((entry) => entry.item))];
}
