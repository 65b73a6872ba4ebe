import type { DavClient } from './client';
import { DavPreconditionFailed } from './errors';
import { patchEventData, type EventFields } from './icalendar';
import { followingScope, replaceFromOccurrence, splitSeries } from './recurrence';
import { CONTENT_TYPE, createObject } from './objects';

/**
 * "This and following" on the server: the new series is stored first (so no occurrence is ever missing),
 * then the old one is cut with If-Match. If the cut fails, the new series is deleted again, so that no
 * occurrence exists twice, and the failure is reported. At the first occurrence, or where no earlier one is
 * left, there is nothing to split: the series itself changes (`scope` says which).
 */
export async function splitSeriesObject(
	client: DavClient,
	url: string,
	recurrenceId: string,
	fields: EventFields,
	defaultZone: string,
	expectedEtag?: string,
) {
	const current = await client.get(url);
	if (!current.etag) throw new DavPreconditionFailed(url, undefined, client.objectLabel);
	if (expectedEtag && expectedEtag !== current.etag)
		throw new DavPreconditionFailed(url, current.etag, client.objectLabel);
	const scope = followingScope(current.data, recurrenceId);
	if (scope !== 'split') {
		// Nothing would be left before the occurrence: the change is the whole series' (no empty series).
		const data =
			scope === 'series'
				? patchEventData(current.data, fields, defaultZone)
				: replaceFromOccurrence(current.data, recurrenceId, fields, defaultZone);
		const written = await client.put(url, data, CONTENT_TYPE.calendar, { etag: current.etag });
		return { scope, series: { ...written, data } };
	}
	let original = '';
	const collection = new URL('.', url).href;
	const created = await createObject(client, collection, 'calendar', (uid) => {
		const split = splitSeries(current.data, recurrenceId, fields, uid, defaultZone);
		original = split.original;
		return { data: split.following, uid };
	});
	const cut = await client
		.put(url, original, CONTENT_TYPE.calendar, { etag: current.etag })
		.catch((error: Error) => error);
	if (cut instanceof Error) {
		if (created.etag) await client.delete(created.url, created.etag).catch(() => undefined);
		throw cut;
	}
	return { scope, series: { ...cut, data: original }, following: created };
}
