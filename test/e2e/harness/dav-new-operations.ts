/**
 * The address-book and occurrence operations in a real n8n, the same on every DAV server the e2e tests
 * start: Address Book Create, Update and Delete (extended MKCOL), Delete Calendar, one occurrence of a series changed (a
 * RECURRENCE-ID override), one cancelled (EXDATE), "this and following" (the series ends with UNTIL, a new
 * series starts), and Delete after another client changed the event or contact (412): kept without "Delete Even If
 * Changed", deleted with it and the other client's version returned. n8n talks to the server through the
 * proxy, which plays that other client. Every result is checked against the raw objects on the server.
 */
import type { Radicale } from '../../dav/radicale';
import type { DavProxy } from './dav-proxy';
import { describeErrors, itemsOf, type N8nInstance } from './n8n';

const SERIES = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//Other Client//EN',
	'BEGIN:VEVENT',
	'UID:e2e-series',
	'DTSTAMP:20300101T000000Z',
	'DTSTART:20300601T090000Z',
	'DTEND:20300601T100000Z',
	'RRULE:FREQ=DAILY;COUNT=5',
	'SUMMARY:Series',
	'X-OTHER-CLIENT-FLAG:keep-me',
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');
const doomedCard = (name: string) =>
	['BEGIN:VCARD', 'VERSION:3.0', 'UID:e2e-doomed-card', `FN:${name}`, 'END:VCARD', ''].join('\r\n');
const doomed = (summary: string) =>
	SERIES.replace('UID:e2e-series', 'UID:e2e-doomed')
		.replace('RRULE:FREQ=DAILY;COUNT=5\r\n', '')
		.replace('SUMMARY:Series', `SUMMARY:${summary}`);

export interface NewOperationsContext {
	n8n: N8nInstance;
	server: Radicale;
	proxy: DavProxy;
	/** Fields of a DAV credential pointing at the proxy. */
	credentialFields: { username: string; password: string };
	/** Which address-book properties the server refuses on extended MKCOL / PROPPATCH (a known quirk). */
	refusedBookProperties?: string[];
}

export async function runNewOperations(context: NewOperationsContext): Promise<void> {
	const { n8n, server, proxy } = context;
	const calendar = await server.mkcalendar('occurrences', { displayName: 'Occurrences' });
	const calendarPath = new URL(calendar).pathname;
	const seriesPath = `${calendarPath}series.ics`;
	const doomedPath = `${calendarPath}doomed.ics`;
	await server.send('PUT', new URL(seriesPath, server.url).href, {
		body: SERIES,
		headers: { 'content-type': 'text/calendar' },
	});
	await server.send('PUT', new URL(doomedPath, server.url).href, {
		body: doomed('Doomed'),
		headers: { 'content-type': 'text/calendar' },
	});
	const doomedCalendarPath = new URL(await server.mkcalendar('doomed-calendar')).pathname;
	const cardPath = `${new URL(await server.mkaddressbook('doomed-book')).pathname}doomed.vcf`;
	await server.send('PUT', new URL(cardPath, server.url).href, {
		body: doomedCard('Doomed'),
		headers: { 'content-type': 'text/vcard' },
	});
	proxy.otherClient.set(cardPath, {
		writes: [doomedCard('Changed by another client 1'), doomedCard('Changed by another client 2')],
		etags: [],
	});
	proxy.otherClient.set(doomedPath, {
		writes: [doomed('Changed by another client 1'), doomed('Changed by another client 2')],
		etags: [],
	});

	const viaProxy = await n8n.client.createCredential(
		'cloudStorageDavApi',
		`DAV via proxy (new operations ${Date.now()})`,
		{ davUrl: proxy.url, ...context.credentialFields },
	);
	const credentials = { cloudStorageDavApi: { id: viaProxy.id, name: viaProxy.name } };
	const seriesUrl = new URL(seriesPath, proxy.url).href;
	const doomedUrl = new URL(doomedPath, proxy.url).href;
	const calendarUrl = new URL(calendarPath, proxy.url).href;
	const doomedCalendarUrl = new URL(doomedCalendarPath, proxy.url).href;
	const cardUrl = new URL(cardPath, proxy.url).href;
	let position = 0;
	const node = (
		name: string,
		type: 'cloudStorageCalendar' | 'cloudStorageContacts',
		parameters: Record<string, unknown>,
		extra: Record<string, unknown> = {},
	) => ({
		id: `d4a7c0de-0000-4000-8000-0000000001${String(++position).padStart(2, '0')}`,
		name,
		type: `n8n-nodes-cloud-storage.${type}`,
		typeVersion: 1,
		position: [position * 220, 0],
		parameters,
		credentials,
		...extra,
	});
	const bookRef = {
		__rl: true,
		mode: 'url',
		value: "={{ $('Create Address Book').first().json.url }}",
	};
	const nodes = [
		{
			id: 'd4a7c0de-0000-4000-8000-000000000100',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		node('Create Address Book', 'cloudStorageContacts', {
			resource: 'addressBook',
			operation: 'create',
			displayName: 'E2E book',
			additionalFields: { description: 'made by n8n' },
		}),
		node('Update Address Book', 'cloudStorageContacts', {
			resource: 'addressBook',
			operation: 'update',
			addressBook: bookRef,
			displayName: 'E2E book (renamed)',
		}),
		node(
			'List Address Books',
			'cloudStorageContacts',
			{
				resource: 'addressBook',
				operation: 'getAll',
				returnAll: true,
			},
			{ executeOnce: true },
		),
		node(
			'Delete Address Book',
			'cloudStorageContacts',
			{ resource: 'addressBook', operation: 'delete', addressBook: bookRef },
			{ executeOnce: true },
		),
		node(
			'Delete Calendar',
			'cloudStorageCalendar',
			{
				resource: 'calendar',
				operation: 'delete',
				calendar: { __rl: true, mode: 'url', value: doomedCalendarUrl },
			},
			{ executeOnce: true },
		),
		node('Change One Occurrence', 'cloudStorageCalendar', {
			resource: 'event',
			operation: 'update',
			eventUrl: seriesUrl,
			updateFields: { location: 'Room 9' },
			options: { occurrence: '2030-06-02T09:00:00.000Z' },
		}),
		node('Cancel One Occurrence', 'cloudStorageCalendar', {
			resource: 'event',
			operation: 'delete',
			eventUrl: seriesUrl,
			options: { occurrence: '2030-06-03T09:00:00.000Z' },
		}),
		node('Change This and Following', 'cloudStorageCalendar', {
			resource: 'event',
			operation: 'update',
			eventUrl: seriesUrl,
			updateFields: { summary: 'Series (later)' },
			options: { occurrence: '2030-06-04T09:00:00.000Z', scope: 'following' },
		}),
		node(
			'Delete Changed Event',
			'cloudStorageCalendar',
			{ resource: 'event', operation: 'delete', eventUrl: doomedUrl },
			{ onError: 'continueRegularOutput' },
		),
		node('Delete Even If Changed', 'cloudStorageCalendar', {
			resource: 'event',
			operation: 'delete',
			eventUrl: doomedUrl,
			options: { deleteIfChanged: true },
		}),
		node(
			'Delete Changed Contact',
			'cloudStorageContacts',
			{ resource: 'contact', operation: 'delete', contactUrl: cardUrl },
			{ onError: 'continueRegularOutput' },
		),
		node('Delete Contact Even If Changed', 'cloudStorageContacts', {
			resource: 'contact',
			operation: 'delete',
			contactUrl: cardUrl,
			options: { deleteIfChanged: true },
		}),
		node('Get Occurrences', 'cloudStorageCalendar', {
			resource: 'event',
			operation: 'getAll',
			calendar: { __rl: true, mode: 'url', value: calendarUrl },
			timeMin: '2030-05-31T00:00:00Z',
			timeMax: '2030-06-10T00:00:00Z',
			expand: true,
			returnAll: true,
		}),
	];
	const connections = Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((from, index) => [
				from.name,
				{ main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	const imported = await n8n.client.importWorkflow({
		name: 'E2E: DAV address books, occurrences, delete after a conflict',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	});
	const execution = await n8n.client.runWorkflow(imported.id);
	expect(describeErrors(execution)).toBe('');
	expect(execution.status).toBe('success');
	const json = (name: string) => itemsOf(execution, name).map((item) => item.json);
	const raw = async (url: string) =>
		server.send('GET', new URL(new URL(url).pathname, server.url).href);

	// Address books: created with its properties (or the refused ones named), renamed, listed, deleted.
	const refused = context.refusedBookProperties ?? [];
	const book = json('Create Address Book')[0];
	expect(book).toMatchObject({ displayName: 'E2E book', notApplied: refused });
	if (refused.length === 0) expect(book.description).toBe('made by n8n');
	expect(json('Update Address Book')[0]).toMatchObject({
		url: book.url,
		displayName: 'E2E book (renamed)',
		notApplied: [],
	});
	expect(json('List Address Books')).toEqual(
		expect.arrayContaining([
			expect.objectContaining({ url: book.url, displayName: 'E2E book (renamed)' }),
		]),
	);
	expect(json('Delete Address Book')).toEqual([
		{ deleted: true, url: book.url, outcome: 'applied' },
	]);
	expect((await raw(String(book.url))).status).toBe(404);
	expect(json('Delete Calendar')).toEqual([
		{
			deleted: true,
			url: doomedCalendarUrl,
			shared: false,
			result: 'calendarDeleted',
			outcome: 'applied',
		},
	]);
	// Radicale answers 404; Xandikos a 207 whose only response is an inner 404.
	const goneCalendar = await server.send('PROPFIND', new URL(doomedCalendarPath, server.url).href, {
		headers: { Depth: '0' },
	});
	expect(goneCalendar.status === 404 || /<[^>]*status>HTTP\/1\.1 404/.test(goneCalendar.body)).toBe(
		true,
	);

	// Occurrences: one changed (the item is that occurrence), one cancelled, the series split before the fourth.
	expect(json('Change One Occurrence')[0]).toMatchObject({
		url: seriesUrl,
		recurrenceId: '2030-06-02T09:00:00.000Z',
		location: 'Room 9',
	});
	expect(json('Cancel One Occurrence')[0]).toMatchObject({
		cancelled: true,
		url: seriesUrl,
		recurrenceId: '2030-06-03T09:00:00.000Z',
	});
	const split = json('Change This and Following')[0] as Record<string, any>;
	expect(split).toMatchObject({ url: seriesUrl, summary: 'Series' });
	expect(split.following).toMatchObject({ summary: 'Series (later)', recurring: true });
	expect(split.following.url).not.toBe(seriesUrl);
	const series = (await raw(seriesUrl)).body.replace(/\r\n[ \t]/g, '');
	expect(series).toMatch(/^RECURRENCE-ID:20300602T090000Z\r?$/m);
	expect(series).toMatch(/^LOCATION:Room 9\r?$/m);
	expect(series).toMatch(/^EXDATE:20300603T090000Z\r?$/m);
	expect(series).toMatch(/^RRULE:FREQ=DAILY;UNTIL=2030060[34]/m);
	expect(series).toContain('X-OTHER-CLIENT-FLAG:keep-me');
	const following = (await raw(split.following.url)).body;
	expect(following).toContain('SUMMARY:Series (later)');
	expect(following).toContain('DTSTART:20300604T090000Z');
	expect(following).not.toContain('UID:e2e-series\r\n');
	expect(
		json('Get Occurrences').map((item) => [item.start, item.summary, item.location ?? null]),
	).toEqual([
		['2030-06-01T09:00:00.000Z', 'Series', null],
		['2030-06-02T09:00:00.000Z', 'Series', 'Room 9'],
		['2030-06-04T09:00:00.000Z', 'Series (later)', null],
		['2030-06-05T09:00:00.000Z', 'Series (later)', null],
	]);

	// Delete after a 412: kept and the other client's ETag named; with the opt-in deleted, its version shown.
	const [etagAfterFirst] = proxy.otherClient.get(doomedPath)!.etags;
	expect(json('Delete Changed Event')).toEqual([
		{
			error: 'The event was changed by another client since it was read (412); it was not deleted',
			description: expect.stringContaining(`Its current ETag is ${etagAfterFirst}.`),
		},
	]);
	const afterEvenIfChanged = json('Delete Even If Changed')[0] as Record<string, any>;
	expect(afterEvenIfChanged).toMatchObject({ deleted: true, url: doomedUrl });
	expect(afterEvenIfChanged.changedByOtherClient).toMatchObject({
		summary: 'Changed by another client 2',
	});
	expect((await raw(doomedUrl)).status).toBe(404);
	const [cardEtagAfterFirst] = proxy.otherClient.get(cardPath)!.etags;
	expect(json('Delete Changed Contact')).toEqual([
		{
			error:
				'The contact was changed by another client since it was read (412); it was not deleted',
			description: expect.stringContaining(`Its current ETag is ${cardEtagAfterFirst}.`),
		},
	]);
	const cardDeleted = json('Delete Contact Even If Changed')[0] as Record<string, any>;
	expect(cardDeleted).toMatchObject({ deleted: true, url: cardUrl });
	expect(cardDeleted.changedByOtherClient).toMatchObject({
		fullName: 'Changed by another client 2',
	});
	expect((await raw(cardUrl)).status).toBe(404);
	// n8n's DELETEs: refused once without the opt-in (not repeated); refused, then accepted, with it.
	for (const path of [doomedPath, cardPath]) {
		const deletes = proxy.log
			.filter((entry) => entry.method === 'DELETE' && entry.path === path)
			.map((entry) => entry.status);
		expect(deletes.slice(0, 2)).toEqual([412, 412]);
		expect(deletes).toHaveLength(3);
		expect(deletes[2]).toBeLessThan(300);
	}
}
