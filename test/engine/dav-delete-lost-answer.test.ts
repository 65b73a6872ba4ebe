/**
 * Calendar Delete whose answer is lost, against real Radicale and Xandikos behind a loopback proxy that
 * drops the connection of the next DELETE: after the server applied it, before it reached the server, or
 * before it reached the server while another client changes the event. The node repeats the DELETE with the
 * same If-Match and reports what the server's answer to the repeat proves, never "may have been applied".
 */
import { CALENDAR, runDavNode } from '../dav/engine';
import { DAV_SERVERS, type DavServer } from '../dav/servers';
import { startForwardingProxy, type ForwardingProxy } from './dav/forwarding-proxy';

const ics = (uid: string, summary: string) =>
	[
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Other client//EN',
		'BEGIN:VEVENT',
		`UID:${uid}`,
		'DTSTAMP:20300101T000000Z',
		'DTSTART:20300301T090000Z',
		'DTEND:20300301T100000Z',
		`SUMMARY:${summary}`,
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n');

describe.each(DAV_SERVERS)('$name', (server) => {
	let dav: DavServer;
	let proxy: ForwardingProxy;
	let work: string;
	beforeAll(async () => {
		dav = await server.start();
		work = await dav.mkcalendar('lost', { displayName: 'Lost answers' });
		proxy = await startForwardingProxy(dav.url);
	});
	afterAll(async () => {
		await proxy?.close();
		await dav?.stop();
	});

	/** An event another client wrote; returns its URL on the server and through the proxy, and its ETag. */
	async function anEvent(uid: string) {
		const direct = `${work}${uid}.ics`;
		const put = await dav.send('PUT', direct, {
			body: ics(uid, 'To delete'),
			headers: { 'Content-Type': 'text/calendar; charset=utf-8', 'If-None-Match': '*' },
		});
		expect(put.status).toBeLessThan(300);
		const read = await dav.send('GET', direct);
		const etag = String(read.headers.etag);
		return { direct, viaProxy: direct.replace(dav.url, proxy.url), etag };
	}
	const remove = (url: string, etag: string) =>
		runDavNode({ ...dav, url: proxy.url }, CALENDAR, {
			resource: 'event',
			operation: 'delete',
			eventUrl: url,
			options: { etag },
		});

	it('dropped after the server deleted it: the repeat finds it gone; deleted, with the lost answer named', async () => {
		const event = await anEvent('lost-after');
		proxy.dropNext('DELETE', 'after-applied');
		const { json, error } = await remove(event.viaProxy, event.etag);
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: event.viaProxy,
				etag: event.etag,
				goneAfterLostAnswer: true,
				outcome: 'applied-after-lost-answer',
			},
		]);
		expect(proxy.requests('DELETE')).toEqual([
			{ method: 'DELETE', ifMatch: event.etag },
			{ method: 'DELETE', ifMatch: event.etag },
		]);
		expect((await dav.send('GET', event.direct)).status).toBe(404);
	});

	it('dropped before it reached the server: the repeat deletes it', async () => {
		const event = await anEvent('lost-before');
		proxy.dropNext('DELETE', 'before-sent');
		const { json, error } = await remove(event.viaProxy, event.etag);
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: event.viaProxy,
				etag: event.etag,
				outcome: 'applied-after-lost-answer',
			},
		]);
		expect((await dav.send('GET', event.direct)).status).toBe(404);
	});

	it('dropped while another client changed the event: a conflict naming its new ETag; the change is kept', async () => {
		const event = await anEvent('lost-changed');
		proxy.dropNext(
			'DELETE',
			'before-sent',
			async () =>
				await dav.send('PUT', event.direct, {
					body: ics('lost-changed', 'Changed elsewhere'),
					headers: { 'Content-Type': 'text/calendar; charset=utf-8', 'If-Match': event.etag },
				}),
		);
		const { error } = await remove(event.viaProxy, event.etag);
		const now = await dav.send('GET', event.direct);
		expect(now.status).toBe(200);
		expect(now.body).toContain('Changed elsewhere');
		expect(error?.message).toBe(
			'The event was changed by another client since it was read (412); it was not deleted',
		);
		expect(error?.description).toContain(`Its current ETag is ${String(now.headers.etag)}.`);
	});
});
