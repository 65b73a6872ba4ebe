/**
 * Answers to writes that are not plain success: a 207 whose inner response failed is never "created"
 * (Xandikos 0.2.8 verbatim), and the RFC 4791/6352 precondition elements name the cause and the fix,
 * with the existing object's href when the server gives it.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow } from '../harness';
import { DAV } from '../../unit/dav/poll-context';
import { offlineWithNock } from '../../unit/offline';
import { kindIs } from './resource-kinds';

const credentials = {
	cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
};
const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });
const CAL = '/user/calendars/t/';
const RAW = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//T//EN',
	'BEGIN:VEVENT',
	'UID:same',
	'DTSTAMP:20300101T000000Z',
	'DTSTART:20300101T100000Z',
	'SUMMARY:A',
	'END:VEVENT',
	'END:VCALENDAR',
].join('\r\n');

async function create(parameters: IDataObject = {}) {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'DAV',
			type: `${PACKAGE_NAME}.cloudStorageCalendar`,
			parameters: {
				resource: 'event',
				operation: 'create',
				calendar: byUrl(`${DAV}${CAL}`),
				input: 'raw',
				iCalendar: RAW,
				...parameters,
			} as never,
		},
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'DAV') },
		{ credentials: credentials as never },
	);
	return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
}

offlineWithNock({ allMocksUsed: true });

it('207 with an inner 412 and CALDAV:no-uid-conflict (Xandikos) is a refusal naming the conflict, never "created"', async () => {
	nock(DAV)
		.put(/\/user\/calendars\/t\/.+\.ics/)
		.reply(
			207,
			(uri) =>
				`<ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:caldav"><ns0:response><ns0:href>http%3A//127.0.0.1%3A18768${uri}</ns0:href><ns0:status>HTTP/1.1 412 Precondition Failed</ns0:status><ns0:error><ns1:no-uid-conflict /></ns0:error><ns0:responsedescription>UID already in use.</ns0:responsedescription></ns0:response></ns0:multistatus>`,
		);
	const { json, error } = await create();
	expect(json).toEqual([]);
	expect(error?.message).toBe('An event with the same UID already exists in this collection (412)');
	expect(error?.description).toBe(
		'Nothing was stored. UIDs are unique per collection: update the existing event (Get by UID finds it), or give this one another UID. The server said: "UID already in use."',
	);
});

it('403 with DAV:error naming the existing object (RFC 4791 example): the message gives its href', async () => {
	nock(DAV)
		.put(/\/user\/calendars\/t\/.+\.ics/)
		.reply(
			403,
			'<?xml version="1.0" encoding="utf-8"?><D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:no-uid-conflict><D:href>/user/calendars/t/existing.ics</D:href></C:no-uid-conflict></D:error>',
		);
	const { error } = await create();
	expect(error?.message).toBe(
		'An event with the same UID already exists at /user/calendars/t/existing.ics (403)',
	);
	expect(error?.description).toMatch(
		/^Nothing was stored\. UIDs are unique per collection: update the existing event, or give/,
	);
});

it.each([
	['valid-calendar-data', 403, 'The server refused the iCalendar data as invalid (403)'],
	[
		'supported-calendar-component',
		403,
		'The calendar does not accept this kind of component (403)',
	],
	['max-resource-size', 403, 'The event is larger than the server allows (403)'],
	[
		'valid-calendar-object-resource',
		409,
		"The server refused the object: it breaks CalDAV's rules for one calendar object (409)",
	],
])('DAV:error with C:%s (%i) is explained', async (condition, status, message) => {
	nock(DAV)
		.put(/\/user\/calendars\/t\/.+\.ics/)
		.reply(
			status,
			`<?xml version="1.0"?><D:error xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><C:${condition}/></D:error>`,
		);
	const { error } = await create();
	expect(error?.message).toBe(message);
	expect(error?.description).toMatch(/^Nothing was stored\./);
});

it('a 207 whose inner responses are all 2xx is success; the ETag is read back', async () => {
	nock(DAV)
		.put(/\/user\/calendars\/t\/.+\.ics/)
		.reply(
			207,
			(uri) =>
				`<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>${uri}</D:href><D:status>HTTP/1.1 201 Created</D:status></D:response></D:multistatus>`,
		);
	nock(DAV)
		.get(/\/user\/calendars\/t\/.+\.ics/)
		.reply(200, RAW, { ETag: '"e1"' });
	const { json, error } = await create();
	expect(error).toBeUndefined();
	expect(json[0]).toMatchObject({ uid: 'same', etag: '"e1"' });
});

it('409 without a named condition keeps a plain refusal', async () => {
	nock(DAV)
		.put(/\/user\/calendars\/t\/.+\.ics/)
		.reply(409, 'Conflict');
	const { error } = await create();
	expect(error?.message).toBe('The server refused to store the event (409)');
	expect(error?.description).toBe(
		'Nothing was stored. Check the collection URL: the collection may be missing.',
	);
});

describe('Delete after a 412', () => {
	const url = `${CAL}e.ics`;
	async function remove(options: IDataObject) {
		const nodes = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				name: 'DAV',
				type: `${PACKAGE_NAME}.cloudStorageCalendar`,
				parameters: {
					resource: 'event',
					operation: 'delete',
					eventUrl: `${DAV}${url}`,
					options,
				} as never,
			},
		];
		kindIs(DAV, url, 'object');
		const result = await runWorkflow(
			{ nodes, connections: chain('Start', 'DAV') },
			{ credentials: credentials as never },
		);
		return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
	}
	const changed = RAW.replace('SUMMARY:A', 'SUMMARY:Changed elsewhere');

	it('re-reads and keeps the object: the error names its current ETag; no second DELETE', async () => {
		nock(DAV).delete(url).matchHeader('if-match', '"old"').reply(412, '');
		nock(DAV).get(url).reply(200, changed, { ETag: '"new"' });
		nock(DAV).get(url).reply(200, changed, { ETag: '"new"' });
		const { error } = await remove({ etag: '"old"' });
		expect(error?.message).toBe(
			'The event was changed by another client since it was read (412); it was not deleted',
		);
		expect(error?.description).toMatch(/^Its current ETag is "new"\./);
	});

	it('"Delete Whatever Version Is There" deletes by the fresh ETag and returns what the other client made of it', async () => {
		nock(DAV).delete(url).matchHeader('if-match', '"old"').reply(412, '');
		nock(DAV).get(url).reply(200, changed, { ETag: '"new"' });
		nock(DAV).get(url).reply(200, changed, { ETag: '"new"' });
		nock(DAV).delete(url).matchHeader('if-match', '"new"').reply(204);
		const { json, error } = await remove({ etag: '"old"', deleteIfChanged: true });
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${url}`,
				etag: '"new"',
				changedByOtherClient: expect.objectContaining({
					summary: 'Changed elsewhere',
					etag: '"new"',
				}),
				outcome: 'applied',
			},
		]);
	});

	it('gone meanwhile: says so', async () => {
		nock(DAV).delete(url).reply(412, '');
		nock(DAV).get(url).times(2).reply(404, '');
		const { error } = await remove({ etag: '"old"', deleteIfChanged: true });
		expect(error?.message).toBe('The event was deleted by another client meanwhile');
	});
});

describe('Delete expects the version the input item carries', () => {
	const url = `${CAL}e.ics`;
	async function removeAfter(
		input: IDataObject,
		options: IDataObject = {},
		eventUrl = '={{ $json.url }}',
	) {
		const nodes = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{ name: 'Read', type: 'engine-test.jsonItems', parameters: { items: [input] } as never },
			{
				name: 'DAV',
				type: `${PACKAGE_NAME}.cloudStorageCalendar`,
				parameters: {
					resource: 'event',
					operation: 'delete',
					eventUrl,
					options,
				} as never,
			},
		];
		kindIs(DAV, url, 'object');
		const result = await runWorkflow(
			{ nodes, connections: chain('Start', 'Read', 'DAV') },
			{ credentials: credentials as never },
		);
		return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
	}
	const changed = RAW.replace('SUMMARY:A', 'SUMMARY:Changed elsewhere');

	it('an edit another client made after the workflow read the object is not deleted (no Expected ETag set)', async () => {
		nock(DAV).delete(url).matchHeader('if-match', '"seen"').reply(412, '');
		nock(DAV).get(url).times(2).reply(200, changed, { ETag: '"edited"' });
		const { error } = await removeAfter({ url: `${DAV}${url}`, etag: '"seen"' });
		expect(error?.message).toBe(
			'The event was changed by another client since it was read (412); it was not deleted',
		);
	});

	it('an item whose url names another object lends it no ETag: the current version is read', async () => {
		nock(DAV).get(url).reply(200, RAW, { ETag: '"now"' });
		nock(DAV).delete(url).matchHeader('if-match', '"now"').reply(204);
		const { json, error } = await removeAfter(
			{ url: `${DAV}${CAL}other.ics`, etag: '"other"' },
			{},
			`${DAV}${url}`,
		);
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ deleted: true, etag: '"now"' });
	});
});
