// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Request shapes of the Calendar and Contacts nodes through n8n's engine with nock: discovery, PUT headers,
 * ETag preconditions, the XML bodies, the 412 paths and errors raised before any request.
 */
import nock from 'nock';

import { offlineWithNock } from '../../unit/offline';
import { kindIs } from './resource-kinds';
import { byUrl, DAV, run } from './run-node';

const BASIC = `Basic ${Buffer.from('alice:dav-secret-1').toString('base64')}`;

const multistatus = (inner: string) =>
	`<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="urn:ietf:params:xml:ns:carddav">${inner}</D:multistatus>`;
const ok = (href: string, props: string) =>
	`<D:response><D:href>${href}</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
const EVENT =
	'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VEVENT\r\nUID:e1\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300101T100000Z\r\nDURATION:PT1H\r\nSUMMARY:Old\r\nX-KEEP:yes\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

offlineWithNock();

it('discovers calendars: current-user-principal, then calendar-home-set, then a Depth 1 listing', async () => {
	const bodies: string[] = [];
	nock(DAV)
		.intercept('/', 'PROPFIND')
		.matchHeader('depth', '0')
		.matchHeader('authorization', BASIC)
		.reply(
			207,
			(_uri, body) => (
				bodies.push(String(body)),
				multistatus(
					ok(
						'/',
						'<D:current-user-principal><D:href>/principals/alice%40example.com/</D:href></D:current-user-principal>',
					),
				)
			),
		);
	nock(DAV)
		.intercept('/principals/alice%40example.com/', 'PROPFIND')
		.matchHeader('depth', '0')
		.reply(
			207,
			(_uri, body) => (
				bodies.push(String(body)),
				multistatus(
					ok(
						'/principals/alice%40example.com/',
						'<C:calendar-home-set><D:href>/calendars/alice%40example.com/</D:href></C:calendar-home-set>',
					),
				)
			),
		);
	nock(DAV)
		.intercept('/calendars/alice%40example.com/', 'PROPFIND')
		.matchHeader('depth', '1')
		.reply(207, (_uri, body) => {
			bodies.push(String(body));
			return multistatus(
				ok('/calendars/alice%40example.com/', '<D:resourcetype><D:collection/></D:resourcetype>') +
					ok(
						'/calendars/alice%40example.com/shared-42/',
						'<D:resourcetype><D:collection/><C:calendar/></D:resourcetype><D:displayname>Team</D:displayname><D:sync-token>tok-1</D:sync-token><C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>',
					),
			);
		});
	const { json, error } = await run('cloudStorageCalendar', {
		resource: 'calendar',
		operation: 'getAll',
	});
	expect(error).toBeUndefined();
	expect(json).toEqual([
		expect.objectContaining({
			url: `${DAV}/calendars/alice%40example.com/shared-42/`,
			id: 'shared-42',
			shared: true,
			displayName: 'Team',
			syncToken: 'tok-1',
			components: ['VEVENT'],
		}),
	]);
	expect(bodies[0]).toContain('<d:current-user-principal/>');
	expect(bodies[1]).toContain('<c:calendar-home-set/>');
	expect(bodies[2]).toMatch(
		/<d:displayname\/>.*<d:sync-token\/>.*<c:supported-calendar-component-set\/>/,
	);
});

it('creates an event with If-None-Match: *, text/calendar and a UID-named object', async () => {
	let sent = '';
	let path = '';
	nock(DAV)
		.put(/\/cal\/work\/[0-9a-f-]+\.ics$/)
		.matchHeader('if-none-match', '*')
		.matchHeader('content-type', 'text/calendar; charset=utf-8')
		.reply(201, (uri, body) => ((path = uri), (sent = String(body)), ''), { ETag: '"new-1"' });
	const { json, error } = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'create',
		calendar: byUrl('/cal/work/'),
		summary: 'Hi',
		start: '2030-01-01T10:00:00Z',
		additionalFields: { timezone: 'UTC' },
	});
	expect(error).toBeUndefined();
	expect(sent).toContain('\r\nDTSTART:20300101T100000Z\r\n');
	expect(sent).toContain(`UID:${path.match(/([0-9a-f-]+)\.ics$/)![1]}`);
	expect(json[0]).toMatchObject({ etag: '"new-1"', summary: 'Hi', url: `${DAV}${path}` });
});

it('updates with If-Match carrying the ETag as read, tolerating a 201 answer without ETag', async () => {
	let sent = '';
	kindIs(DAV, '/cal/work/e1.ics', 'object');
	nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: 'W/"v1"' });
	nock(DAV)
		.put('/cal/work/e1.ics')
		.matchHeader('if-match', 'W/"v1"')
		.reply(201, (_uri, body) => ((sent = String(body)), ''));
	nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v2"' });
	const { json, error } = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'update',
		eventUrl: `${DAV}/cal/work/e1.ics`,
		updateFields: { summary: 'New' },
	});
	expect(error).toBeUndefined();
	expect(sent).toContain('SUMMARY:New');
	expect(sent).toContain('X-KEEP:yes');
	expect(json[0].etag).toBe('"v2"');
});

it('reports a 412 on update with the current ETag and does not retry blindly', async () => {
	kindIs(DAV, '/cal/work/e1.ics', 'object');
	nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
	const put = nock(DAV).put('/cal/work/e1.ics').once().reply(412, '');
	nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v9"' });
	const { error } = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'update',
		eventUrl: '/cal/work/e1.ics',
		updateFields: { summary: 'New' },
	});
	expect(put.isDone()).toBe(true);
	expect(error).toMatchObject({
		message: 'The event changed on the server since it was read (412)',
		httpCode: '412',
	});
	expect(error?.description).toContain('"v9"');
});

describe('update after a lost answer: settled by reading the object, repeated only while the old version is there', () => {
	const dropped = (seen: string[]) =>
		nock(DAV)
			.put('/cal/work/e1.ics', (body) => (seen.push(String(body)), true))
			.matchHeader('if-match', '"v1"')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
	const update = (node: 'cloudStorageCalendar' = 'cloudStorageCalendar') => {
		kindIs(DAV, '/cal/work/e1.ics', 'object');
		return run(node, {
			resource: 'event',
			operation: 'update',
			eventUrl: `${DAV}/cal/work/e1.ics`,
			updateFields: { summary: 'New' },
		});
	};
	// The server stored it with LF endings, its own PRODID and the properties in another order.
	const reserialized = (sent: string) =>
		sent
			.replace('PRODID:-//T//EN', 'PRODID:-//Server//EN')
			.replace(
				/(BEGIN:VEVENT\r\n)([\s\S]*?)(END:VEVENT)/,
				(_all, begin: string, body: string, end: string) =>
					`${begin}${body.trimEnd().split('\r\n').reverse().join('\r\n')}\r\n${end}`,
			)
			.replace(/\r\n/g, '\n');

	it('the object holds what was sent (re-serialized by the server): applied, never sent twice', async () => {
		const seen: string[] = [];
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		dropped(seen);
		nock(DAV)
			.get('/cal/work/e1.ics')
			.reply(200, () => reserialized(seen[0]), { ETag: '"v2"' });
		const { json, error } = await update();
		expect(error).toBeUndefined();
		expect(seen).toHaveLength(1);
		expect(json[0]).toMatchObject({
			etag: '"v2"',
			summary: 'New',
			outcome: 'applied-after-lost-answer',
		});
	});

	it('the object differs: "may have been applied", nothing overwritten, not sent again', async () => {
		const seen: string[] = [];
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		dropped(seen);
		nock(DAV)
			.get('/cal/work/e1.ics')
			.reply(200, EVENT.replace('SUMMARY:Old', 'SUMMARY:Elsewhere'), { ETag: '"v9"' });
		const { error } = await update();
		expect(error?.message).toBe(
			"The write may have been applied: the event update's answer was lost, and the event now differs from what was sent",
		);
		expect(error?.description).toMatch(/current ETag "v9"/);
		expect(seen).toHaveLength(1);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('the old version is still there: the repeat is stored (the first attempt never arrived), done', async () => {
		const seen: string[] = [];
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		dropped(seen);
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		nock(DAV)
			.put('/cal/work/e1.ics')
			.matchHeader('if-match', '"v1"')
			.reply(204, '', { ETag: '"v2"' });
		const { json, error } = await update();
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ etag: '"v2"', outcome: 'applied-after-lost-answer' });
	});

	it('the repeat gets 412 and the object then holds what was sent (the first landed late): applied', async () => {
		const seen: string[] = [];
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		dropped(seen);
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		const repeat = nock(DAV).put('/cal/work/e1.ics').matchHeader('if-match', '"v1"').reply(412, '');
		nock(DAV)
			.get('/cal/work/e1.ics')
			.reply(200, () => reserialized(seen[0]), { ETag: '"v2"' });
		const { json, error } = await update();
		expect(error).toBeUndefined();
		expect(repeat.isDone()).toBe(true);
		expect(json[0]).toMatchObject({ etag: '"v2"', outcome: 'applied-after-lost-answer' });
	});

	it('the repeat gets 412 and the object differs: "may have been applied" (412)', async () => {
		const seen: string[] = [];
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		dropped(seen);
		nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
		nock(DAV).put('/cal/work/e1.ics').matchHeader('if-match', '"v1"').reply(412, '');
		nock(DAV)
			.get('/cal/work/e1.ics')
			.reply(200, EVENT.replace('SUMMARY:Old', 'SUMMARY:Elsewhere'), { ETag: '"v9"' });
		const { error } = await update();
		expect(error?.message).toBe(
			"The write may have been applied: the event update's answer was lost, and the event now differs from what was sent (412)",
		);
		expect(nock.pendingMocks()).toEqual([]);
	});
});

it('deletes with If-Match and accepts 200 with a body', async () => {
	kindIs(DAV, '/cal/work/e1.ics', 'object');
	nock(DAV)
		.delete('/cal/work/e1.ics')
		.matchHeader('if-match', '"v1"')
		.reply(200, '<html>deleted</html>');
	const { json, error } = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'delete',
		eventUrl: '/cal/work/e1.ics',
		options: { etag: '"v1"' },
	});
	expect(error).toBeUndefined();
	expect(json).toEqual([
		{ deleted: true, url: `${DAV}/cal/work/e1.ics`, etag: '"v1"', outcome: 'applied' },
	]);
});

it('retries a 503 on a read and then succeeds', async () => {
	nock(DAV).get('/cal/work/e1.ics').reply(503, '', { 'Retry-After': '0' });
	nock(DAV).get('/cal/work/e1.ics').reply(200, EVENT, { ETag: '"v1"' });
	const { json, error } = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'get',
		getBy: 'url',
		eventUrl: '/cal/work/e1.ics',
	});
	expect(error).toBeUndefined();
	expect(json[0]).toMatchObject({ uid: 'e1', etag: '"v1"' });
});

it('searches contacts with addressbook-query on FN, contains, i;unicode-casemap', async () => {
	let body = '';
	nock(DAV)
		.intercept('/ab/friends/', 'REPORT')
		.matchHeader('depth', '1')
		.reply(
			207,
			(_uri, sent) => (
				(body = String(sent)),
				multistatus(
					ok(
						'/ab/friends/a.vcf',
						'<D:getetag>"c1"</D:getetag><A:address-data>BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\r\nFN:Jürgen\r\nEND:VCARD\r\n</A:address-data>',
					),
				)
			),
		);
	const { json, error } = await run('cloudStorageContacts', {
		resource: 'contact',
		operation: 'search',
		addressBook: byUrl(`${DAV}/ab/friends/`),
		query: 'jür',
	});
	expect(error).toBeUndefined();
	expect(body).toContain(
		'<card:prop-filter name="FN"><card:text-match collation="i;unicode-casemap" match-type="contains">jür</card:text-match></card:prop-filter>',
	);
	expect(json).toEqual([
		expect.objectContaining({ url: `${DAV}/ab/friends/a.vcf`, etag: '"c1"', fullName: 'Jürgen' }),
	]);
});

it('lists contacts by PROPFIND (skipping the collection) and reads them by multiget when advertised', async () => {
	let multigetBody = '';
	nock(DAV)
		.intercept('/ab/friends/', 'PROPFIND')
		.matchHeader('depth', '1')
		.reply(
			207,
			multistatus(
				ok('/ab/friends/', '<D:resourcetype><D:collection/><A:addressbook/></D:resourcetype>') +
					ok('/ab/friends/b%20c.vcf', '<D:getetag>"e"</D:getetag><D:resourcetype/>'),
			),
		);
	nock(DAV)
		.intercept('/ab/friends/', 'PROPFIND')
		.matchHeader('depth', '0')
		.reply(
			207,
			multistatus(
				ok(
					'/ab/friends/',
					'<D:resourcetype><D:collection/><A:addressbook/></D:resourcetype><D:supported-report-set><D:supported-report><D:report><A:addressbook-multiget/></D:report></D:supported-report></D:supported-report-set>',
				),
			),
		);
	nock(DAV)
		.intercept('/ab/friends/', 'REPORT')
		.reply(
			207,
			(_uri, sent) => (
				(multigetBody = String(sent)),
				multistatus(
					ok(
						'/ab/friends/b%20c.vcf',
						'<D:getetag>"e"</D:getetag><A:address-data>BEGIN:VCARD\r\nVERSION:3.0\r\nUID:b\r\nFN:B C\r\nEND:VCARD\r\n</A:address-data>',
					),
				)
			),
		);
	const { json, error } = await run('cloudStorageContacts', {
		resource: 'contact',
		operation: 'getAll',
		addressBook: byUrl('/ab/friends/'),
	});
	expect(error).toBeUndefined();
	expect(multigetBody).toContain('<d:href>/ab/friends/b%20c.vcf</d:href>');
	expect(json).toEqual([expect.objectContaining({ fullName: 'B C', etag: '"e"' })]);
});

it('refuses bad input before any request', async () => {
	const seen: string[] = [];
	nock.emitter.on('no match', (req: { path?: string }) => seen.push(String(req.path)));
	const badStart = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'create',
		calendar: byUrl('/cal/work/'),
		summary: 'x',
		start: 'next tuesday',
	});
	expect(badStart.error?.message).toBe('"next tuesday" is not a valid date or time');
	const badRule = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'create',
		calendar: byUrl('/cal/work/'),
		summary: 'x',
		start: '2030-01-01T00:00:00Z',
		additionalFields: { recurrenceRule: 'EVERY DAY' },
	});
	expect(badRule.error?.message).toMatch(/recurrence rule|FREQ/);
	const noUpdate = await run('cloudStorageContacts', {
		resource: 'contact',
		operation: 'update',
		contactUrl: '/ab/x.vcf',
		updateFields: {},
	});
	expect(noUpdate.error?.message).toBe('Nothing to update');
	expect(seen).toEqual([]);
});
