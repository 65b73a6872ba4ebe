import type { DavClient } from './client';
import { DavPreconditionFailed } from './errors';
import type { EventFields } from './icalendar';
import { splitSeries } from './recurrence';
import { CONTENT_TYPE, createObject } from './objects';

/**
 * "This and following" on the server: the new series is stored first (so no occurrence is ever missing),
 * then the old one is cut with If-Match. If the cut fails, the new series is deleted again, so that no
 * occurrence exists twice, and the failure is reported.
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
	return { series: { ...cut, data: original }, following: created };
}
