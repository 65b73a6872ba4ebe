/**
 * Calendar and address book Create, Update and Delete whose answer is lost, against real Radicale and
 * Xandikos behind a loopback proxy that drops the connection of the next MKCALENDAR, MKCOL, PROPPATCH or
 * DELETE — after the server applied it, or before it reached the server. A Depth-0 PROPFIND of the new or
 * changed collection settles each: applied (`applied-after-lost-answer`), or sent again; never "may have
 * been applied" while the server can be read.
 */
import type { IDataObject } from 'n8n-workflow';

import { byUrl, CALENDAR, CONTACTS, runDavNode } from '../dav/engine';
import { DAV_SERVERS, type DavServer } from '../dav/servers';
import { startForwardingProxy, type ForwardingProxy } from './dav/forwarding-proxy';

describe.each(DAV_SERVERS)('$name', (server) => {
	let dav: DavServer;
	let proxy: ForwardingProxy;
	beforeAll(async () => {
		dav = await server.start();
		proxy = await startForwardingProxy(dav.url);
	});
	afterAll(async () => {
		await proxy?.close();
		await dav?.stop();
	});
	const run = (type: string, parameters: IDataObject) =>
		runDavNode({ ...dav, url: proxy.url }, type, parameters);
	const direct = (url: string) => url.replace(proxy.url, dav.url);
	const displayNameAt = async (url: string) => {
		const read = await dav.send('PROPFIND', direct(url), {
			headers: { Depth: '0' },
			body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:displayname/></D:prop></D:propfind>',
		});
		return read.status === 207 ? /<[^>]*displayname>([^<]*)</.exec(read.body)?.[1] : undefined;
	};

	it('Create Calendar dropped after the server made it: proven by reading the new URL; one calendar', async () => {
		proxy.dropNext('MKCALENDAR', 'after-applied');
		const { json, error } = await run(CALENDAR, {
			resource: 'calendar',
			operation: 'create',
			displayName: 'Lost create',
			components: ['VEVENT'],
		});
		expect(error).toBeUndefined();
		expect(proxy.requests('MKCALENDAR')).toHaveLength(1);
		expect(json[0]).toMatchObject({
			displayName: 'Lost create',
			outcome: 'applied-after-lost-answer',
		});
		expect(await displayNameAt(String(json[0].url))).toBe('Lost create');
	});

	it('Create Address Book dropped before it reached the server: nothing there, sent again to the same URL', async () => {
		proxy.dropNext('MKCOL', 'before-sent');
		const { json, error } = await run(CONTACTS, {
			resource: 'addressBook',
			operation: 'create',
			displayName: 'Lost book',
		});
		expect(error).toBeUndefined();
		expect(proxy.requests('MKCOL')).toHaveLength(2);
		expect(json[0]).toMatchObject({
			displayName: 'Lost book',
			outcome: 'applied-after-lost-answer',
		});
		expect(await displayNameAt(String(json[0].url))).toBe('Lost book');
	});

	it('Update Calendar dropped after the server applied it: the calendar holds the new name; not sent again', async () => {
		const calendar = (await dav.mkcalendar('lost-update', { displayName: 'Before' })).replace(
			dav.url,
			proxy.url,
		);
		proxy.dropNext('PROPPATCH', 'after-applied');
		const { json, error } = await run(CALENDAR, {
			resource: 'calendar',
			operation: 'update',
			calendar: byUrl(calendar),
			displayName: 'After',
		});
		expect(error).toBeUndefined();
		expect(proxy.requests('PROPPATCH')).toHaveLength(1);
		expect(json[0]).toMatchObject({ displayName: 'After', outcome: 'applied-after-lost-answer' });
		expect(await displayNameAt(calendar)).toBe('After');
	});

	it('Delete Calendar dropped after the server deleted it: 404 on the URL; deleted, the lost answer named', async () => {
		const calendar = (await dav.mkcalendar('lost-delete', { displayName: 'Doomed' })).replace(
			dav.url,
			proxy.url,
		);
		proxy.dropNext('DELETE', 'after-applied');
		const { json, error } = await run(CALENDAR, {
			resource: 'calendar',
			operation: 'delete',
			calendar: byUrl(calendar),
		});
		expect(error).toBeUndefined();
		expect(proxy.requests('DELETE')).toHaveLength(1);
		expect(json[0]).toMatchObject({
			deleted: true,
			goneAfterLostAnswer: true,
			outcome: 'applied-after-lost-answer',
		});
		expect(await displayNameAt(calendar)).toBeUndefined();
	});

	it('Delete Address Book dropped before it reached the server: still there, deleted by the repeat', async () => {
		const book = (
			await dav.mkaddressbook('lost-book-delete', { displayName: 'Doomed book' })
		).replace(dav.url, proxy.url);
		proxy.dropNext('DELETE', 'before-sent');
		const { json, error } = await run(CONTACTS, {
			resource: 'addressBook',
			operation: 'delete',
			addressBook: byUrl(book),
		});
		expect(error).toBeUndefined();
		expect(proxy.requests('DELETE')).toHaveLength(2);
		expect(json).toEqual([{ deleted: true, url: book, outcome: 'applied-after-lost-answer' }]);
		expect(await displayNameAt(book)).toBeUndefined();
	});
});
