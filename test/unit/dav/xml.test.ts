// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
import { DavClient } from '../../../nodes/shared/dav/client';
import { hrefKey, parseMultistatus, prop, propText } from '../../../nodes/shared/dav/multistatus';
import { NS } from '../../../nodes/shared/dav/namespaces';
import { calendarQueryBody, syncCollectionBody } from '../../../nodes/shared/dav/requests';
import { parseXml } from '../../../nodes/shared/dav/xml';
import type { DavHttpRequest } from '../../../nodes/shared/dav/http';

describe('multistatus parsing', () => {
	it('matches elements by namespace whatever the prefixes, including default namespaces', () => {
		const body = `<?xml version="1.0"?>
<X:multistatus xmlns:X="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
  <X:response><X:href>/cal/alice%40example.com/work/</X:href>
    <X:propstat><X:prop><displayname xmlns="DAV:">Work &amp; Play</displayname><cal:calendar-description>Täglich</cal:calendar-description></X:prop><X:status>HTTP/1.1 200 OK</X:status></X:propstat>
    <X:propstat><X:prop><X:sync-token/></X:prop><X:status>HTTP/1.1 404 Not Found</X:status></X:propstat>
  </X:response>
</X:multistatus>`;
		const [resource] = parseMultistatus(body, 'https://dav.example/cal/').responses;
		expect(resource.href).toBe('/cal/alice%40example.com/work/');
		expect(resource.url).toBe('https://dav.example/cal/alice%40example.com/work/');
		expect(resource.key).toBe('/cal/alice@example.com/work');
		expect(propText(resource, NS.DAV, 'displayname')).toBe('Work & Play');
		expect(propText(resource, NS.CALDAV, 'calendar-description')).toBe('Täglich');
		// A property under a 404 propstat is absent, not empty.
		expect(prop(resource, NS.DAV, 'sync-token')).toBeUndefined();
		// The same local name in another namespace is a different property.
		expect(propText(resource, NS.CARDDAV, 'calendar-description')).toBeUndefined();
	});

	it('keeps quoted ETags exactly, decodes CDATA calendar data and reports response-level 404s', () => {
		const body = `<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:response><d:href>https://dav.example/c/a.ics</d:href><d:propstat><d:prop><d:getetag>"abc-1"</d:getetag><c:calendar-data><![CDATA[BEGIN:VCALENDAR
END:VCALENDAR]]></c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
<d:response><d:href>/c/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
<d:sync-token>opaque:token/1?x=y</d:sync-token></d:multistatus>`;
		const result = parseMultistatus(body, 'https://dav.example/c/');
		expect(propText(result.responses[0], NS.DAV, 'getetag')).toBe('"abc-1"');
		expect(propText(result.responses[0], NS.CALDAV, 'calendar-data')).toBe(
			'BEGIN:VCALENDAR\nEND:VCALENDAR',
		);
		expect(result.responses[1]).toMatchObject({ status: 404, key: '/c/gone.ics' });
		expect(result.syncToken).toBe('opaque:token/1?x=y');
	});

	it('refuses an entity bomb (DOCTYPE with entities) without expanding it', () => {
		const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><d:multistatus xmlns:d="DAV:"><d:response><d:href>&lol2;</d:href></d:response></d:multistatus>`;
		expect(() => parseXml(bomb)).toThrow(/document type declaration, which is refused/);
	});

	it('refuses oversized XML and non-XML answers', () => {
		expect(() => parseXml(`<d:a xmlns:d="DAV:">${'x'.repeat(200)}</d:a>`, 100)).toThrow(
			/too large/,
		);
		expect(() =>
			parseMultistatus('<html><body>Login</body></html>', 'https://dav.example/'),
		).toThrow(/<html> where a multistatus was expected/);
	});

	it('compares hrefs whatever their encoding and trailing slash', () => {
		expect(hrefKey('https://h/a%40b/c/')).toBe(hrefKey('/a@b/c'));
	});
});

describe('request bodies', () => {
	it('builds a calendar-query with comp-filter and a UTC time-range', () => {
		const body = calendarQueryBody({
			start: new Date('2030-01-01T00:00:00Z'),
			end: new Date('2030-01-02T12:30:00Z'),
		});
		const root = parseXml(body);
		expect(root).toMatchObject({ ns: NS.CALDAV, name: 'calendar-query' });
		expect(body).toContain(
			'<c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="20300101T000000Z" end="20300102T123000Z"/>',
		);
	});

	it('escapes text and sends an empty sync-token for the initial sync', () => {
		expect(syncCollectionBody(undefined)).toContain('<d:sync-token/>');
		expect(syncCollectionBody('a&b<c')).toContain('<d:sync-token>a&amp;b&lt;c</d:sync-token>');
	});
});

describe('DavClient', () => {
	it('treats a 207 answer to PROPPATCH with an inner 403 as a failure naming the property', async () => {
		const http = async (request: DavHttpRequest) => ({
			status: 207,
			headers: {},
			body: `<multistatus xmlns="DAV:"><response><href>${new URL(request.url).pathname}</href><propstat><prop><displayname/></prop><status>HTTP/1.1 403 Forbidden</status></propstat></response></multistatus>`,
		});
		const client = new DavClient(http, 'https://dav.example/');
		await expect(
			client.write('PROPPATCH', 'https://dav.example/c/work/', '<x/>', 'Updating the calendar'),
		).rejects.toThrow(/Updating the calendar was refused by the server \(displayname: 403\)/);
	});

	it('sends the ETag back exactly as received on delete and offers the current one after a 412', async () => {
		const seen: DavHttpRequest[] = [];
		const http = async (request: DavHttpRequest) => {
			seen.push(request);
			if (request.method === 'DELETE') return { status: 412, headers: {}, body: '' };
			return { status: 200, headers: { etag: 'W/"v2"' }, body: 'BEGIN:VCALENDAR' };
		};
		const client = new DavClient(http, 'https://dav.example/', 'event');
		await expect(client.delete('https://dav.example/c/a.ics', '"v1"')).rejects.toMatchObject({
			status: 412,
			currentEtag: 'W/"v2"',
			message: 'The event changed on the server since it was read (412)',
		});
		expect(seen[0].headers['If-Match']).toBe('"v1"');
	});
});
