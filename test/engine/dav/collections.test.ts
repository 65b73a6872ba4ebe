/**
 * Creating and updating calendars against nock'd answers servers really send: a 201 whose
 * mkcalendar-response refuses properties (Xandikos 0.2.8 verbatim, root in a misspelt namespace), a
 * PROPPATCH answered 200 for a property the server then does not keep, a partial PROPPATCH, and a
 * refusal of the whole MKCALENDAR with its per-property body.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow } from '../harness';
import { offlineWithNock } from '../../unit/offline';
import { kindIs } from './resource-kinds';

const DAV = 'https://dav.example.test';
const credentials = {
	cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
};
const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });

async function run(parameters: IDataObject) {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'DAV', type: `${PACKAGE_NAME}.cloudStorageCalendar`, parameters: parameters as never },
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'DAV') },
		{ credentials: credentials as never },
	);
	return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
}

const ms = (inner: string) =>
	`<ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="http://apple.com/ns/ical/" xmlns:ns2="urn:ietf:params:xml:ns:caldav">${inner}</ns0:multistatus>`;
const response = (href: string, ...propstats: Array<[number, string]>) =>
	`<ns0:response><ns0:href>${href}</ns0:href>${propstats.map(([status, props]) => `<ns0:propstat><ns0:status>HTTP/1.1 ${status} X</ns0:status><ns0:prop>${props}</ns0:prop></ns0:propstat>`).join('')}</ns0:response>`;
const HOME = '/user/calendars/';

function discovery() {
	nock(DAV)
		.intercept('/', 'PROPFIND')
		.reply(
			207,
			ms(
				response('/', [
					200,
					'<ns0:current-user-principal><ns0:href>/user/</ns0:href></ns0:current-user-principal>',
				]),
			),
		);
	nock(DAV)
		.intercept('/user/', 'PROPFIND')
		.reply(
			207,
			ms(
				response('/user/', [
					200,
					`<ns2:calendar-home-set><ns0:href>${HOME}</ns0:href></ns2:calendar-home-set>`,
				]),
			),
		);
}
const readBack = (path: string, props: string) =>
	ms(
		response(path, [
			200,
			`<ns0:resourcetype><ns0:collection/><ns2:calendar/></ns0:resourcetype><ns0:displayname>Team</ns0:displayname>${props}`,
		]),
	);

offlineWithNock({ allMocksUsed: true });

it('201 with properties refused in the mkcalendar-response: each is tried once by PROPPATCH; what still is missing is listed', async () => {
	discovery();
	let path = '';
	nock(DAV)
		.intercept(/\/user\/calendars\/[0-9a-f-]+\//, 'MKCALENDAR')
		.reply(201, (uri) => {
			path = uri;
			return (
				'<ns0:mkcalendar-response xmlns:ns0="urn:ietf:params:xml:ns:carldav:" xmlns:ns1="DAV:" xmlns:ns2="http://apple.com/ns/ical/" xmlns:ns3="urn:ietf:params:xml:ns:caldav">' +
				'<ns1:propstat><ns1:status>HTTP/1.1 200 OK</ns1:status><ns1:prop><ns1:displayname /></ns1:prop></ns1:propstat>' +
				'<ns1:propstat><ns1:status>HTTP/1.1 404 Not Found</ns1:status><ns1:prop><ns2:calendar-color /><ns3:calendar-description /><ns3:supported-calendar-component-set /></ns1:prop></ns1:propstat></ns0:mkcalendar-response>'
			);
		});
	const patches: string[] = [];
	nock(DAV)
		.intercept(/\/user\/calendars\//, 'PROPPATCH')
		.times(2)
		.reply(207, (uri, body) => {
			patches.push(String(body));
			return String(body).includes('calendar-color')
				? ms(response(uri, [200, '<ns1:calendar-color />']))
				: ms(response(uri, [409, '<ns2:calendar-description />']));
		});
	nock(DAV)
		.intercept(/\/user\/calendars\//, 'PROPFIND')
		.reply(207, (uri) =>
			readBack(
				uri,
				'<ns1:calendar-color>#FF0000FF</ns1:calendar-color><ns2:supported-calendar-component-set><ns2:comp name="VEVENT"/><ns2:comp name="VTODO"/></ns2:supported-calendar-component-set>',
			),
		);
	const { json, error } = await run({
		resource: 'calendar',
		operation: 'create',
		displayName: 'Team',
		components: ['VEVENT'],
		additionalFields: { color: '#FF0000FF', description: 'Team events' },
	});
	expect(error).toBeUndefined();
	expect(path).toMatch(/^\/user\/calendars\/[0-9a-f-]{36}\/$/);
	expect(patches).toHaveLength(2);
	expect(json[0]).toMatchObject({
		displayName: 'Team',
		color: '#FF0000FF',
		components: ['VEVENT', 'VTODO'],
	});
	expect(json[0].notApplied).toEqual([
		{ property: 'description', requested: 'Team events', status: 409 },
		{ property: 'components', requested: ['VEVENT'], stored: ['VEVENT', 'VTODO'], status: 404 },
	]);
});

it('"Fail" turns what was not applied into an error naming it and the calendar that exists', async () => {
	discovery();
	nock(DAV)
		.intercept(/\/user\/calendars\//, 'MKCALENDAR')
		.reply(201, '');
	nock(DAV)
		.intercept(/\/user\/calendars\//, 'PROPFIND')
		.reply(207, (uri) => readBack(uri, ''));
	const { error } = await run({
		resource: 'calendar',
		operation: 'create',
		displayName: 'Team',
		components: ['VEVENT'],
		additionalFields: { color: '#00FF00FF' },
		options: { ifNotApplied: 'error' },
	});
	expect(error?.message).toBe(
		'The server did not store every property of the calendar: color: asked "#00FF00FF", stored null',
	);
	expect(error?.description).toMatch(
		/^The calendar exists at https:\/\/dav\.example\.test\/user\/calendars\/[0-9a-f-]{36}\/\./,
	);
});

it('a MKCALENDAR refused as a whole (403 with its mkcalendar-response) names the property; nothing was created', async () => {
	discovery();
	nock(DAV)
		.intercept(/\/user\/calendars\//, 'MKCALENDAR')
		.reply(
			403,
			'<?xml version="1.0"?><C:mkcalendar-response xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:propstat><D:prop><D:displayname/></D:prop><D:status>HTTP/1.1 424 Failed Dependency</D:status></D:propstat><D:propstat><D:prop><C:calendar-timezone/></D:prop><D:status>HTTP/1.1 403 Forbidden</D:status></D:propstat></C:mkcalendar-response>',
		);
	const { error } = await run({ resource: 'calendar', operation: 'create', displayName: 'Team' });
	expect(error?.message).toBe(
		'Creating the calendar was refused by the server (403): displayname (424), calendar-timezone (403)',
	);
	expect(error?.description).toMatch(/^Nothing was created\./);
});

describe('update', () => {
	const path = '/user/calendars/team/';
	it('a property answered 200 but not kept (Xandikos calendar-order) is listed as not applied', async () => {
		kindIs(DAV, path, 'calendar');
		nock(DAV)
			.intercept(path, 'PROPPATCH')
			.reply(207, ms(response(path, [200, '<ns0:displayname /><ns1:calendar-order />'])));
		nock(DAV).intercept(path, 'PROPFIND').reply(207, readBack(path, ''));
		const { json, error } = await run({
			resource: 'calendar',
			operation: 'update',
			calendar: byUrl(`${DAV}${path}`),
			displayName: 'Team',
			updateFields: { order: 3 },
		});
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({
			displayName: 'Team',
			notApplied: [{ property: 'order', requested: 3 }],
		});
	});

	it('a partial PROPPATCH (one property 200, one 409) fails naming the refused one and what was applied nonetheless', async () => {
		kindIs(DAV, path, 'calendar');
		nock(DAV)
			.intercept(path, 'PROPPATCH')
			.reply(
				207,
				ms(
					response(
						`http%3A//127.0.0.1%3A1${path}`,
						[200, '<ns1:calendar-color />'],
						[409, '<ns2:calendar-description />'],
					),
				),
			);
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.reply(207, readBack(path, '<ns1:calendar-color>#FF0000FF</ns1:calendar-color>'));
		const { error } = await run({
			resource: 'calendar',
			operation: 'update',
			calendar: byUrl(`${DAV}${path}`),
			displayName: '',
			updateFields: { color: '#FF0000FF', description: 'x' },
		});
		expect(error?.message).toBe(
			'Updating the calendar was refused by the server: calendar-description (409)',
		);
		expect(error?.description).toMatch(/^Applied nonetheless: color\./);
	});
});

describe('address books', () => {
	async function contacts(parameters: IDataObject) {
		const nodes = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				name: 'DAV',
				type: `${PACKAGE_NAME}.cloudStorageContacts`,
				parameters: parameters as never,
			},
		];
		const result = await runWorkflow(
			{ nodes, connections: chain('Start', 'DAV') },
			{ credentials: credentials as never },
		);
		return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
	}
	const BOOKS = '/user/contacts/';

	it('create: an extended MKCOL (RFC 5689) with resourcetype, display name and description; the output is what is read back', async () => {
		nock(DAV)
			.intercept('/', 'PROPFIND')
			.reply(
				207,
				ms(
					response('/', [
						200,
						'<ns0:current-user-principal><ns0:href>/user/</ns0:href></ns0:current-user-principal>',
					]),
				),
			);
		nock(DAV)
			.intercept('/user/', 'PROPFIND')
			.reply(
				207,
				`<ns0:multistatus xmlns:ns0="DAV:" xmlns:ns2="urn:ietf:params:xml:ns:carddav">${response('/user/', [200, `<ns2:addressbook-home-set><ns0:href>${BOOKS}</ns0:href></ns2:addressbook-home-set>`])}</ns0:multistatus>`,
			);
		let sent = '';
		nock(DAV)
			.intercept(/\/user\/contacts\/[0-9a-f-]{36}\//, 'MKCOL')
			.reply(
				201,
				(_uri, body) => (
					(sent = String(body)),
					'<ns0:mkcol-response xmlns:ns0="DAV:"><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop><ns0:resourcetype /><ns0:displayname /></ns0:prop></ns0:propstat></ns0:mkcol-response>'
				),
			);
		nock(DAV)
			.intercept(/\/user\/contacts\/[0-9a-f-]{36}\//, 'PROPFIND')
			.reply(
				207,
				(uri) =>
					`<ns0:multistatus xmlns:ns0="DAV:" xmlns:ns2="urn:ietf:params:xml:ns:carddav">${response(uri, [200, '<ns0:resourcetype><ns0:collection/><ns2:addressbook/></ns0:resourcetype><ns0:displayname>Clients</ns0:displayname><ns2:addressbook-description>Paying</ns2:addressbook-description>'])}</ns0:multistatus>`,
			);
		const { json, error } = await contacts({
			resource: 'addressBook',
			operation: 'create',
			displayName: 'Clients',
			additionalFields: { description: 'Paying' },
		});
		expect(error).toBeUndefined();
		expect(sent).toMatch(
			/<d:mkcol [^>]*><d:set><d:prop><d:resourcetype><d:collection\/><card:addressbook\/><\/d:resourcetype><d:displayname>Clients<\/d:displayname><card:addressbook-description>Paying<\/card:addressbook-description><\/d:prop><\/d:set><\/d:mkcol>/,
		);
		expect(json[0]).toMatchObject({
			displayName: 'Clients',
			description: 'Paying',
			notApplied: [],
		});
		expect(json[0]).not.toHaveProperty('color');
	});

	it('delete: a server that keeps its address books answers 405, and the error says so', async () => {
		kindIs(DAV, '/user/contacts/main/', 'addressbook');
		nock(DAV).delete('/user/contacts/main/').reply(405, 'Method Not Allowed');
		const { error } = await contacts({
			resource: 'addressBook',
			operation: 'delete',
			addressBook: byUrl(`${DAV}/user/contacts/main/`),
		});
		expect(error?.message).toBe('The server does not allow deleting this address book (405)');
		expect(error?.description).toMatch(/^Nothing was deleted\./);
	});
});

describe('Delete Calendar', () => {
	it("deletes one of the account's own calendars", async () => {
		let sent: { method?: string; headers?: Record<string, unknown> } = {};
		kindIs(DAV, `${HOME}work/`, 'calendar');
		nock(DAV)
			.delete(`${HOME}work/`)
			.reply(function () {
				sent = { method: this.req.method, headers: this.req.headers };
				return [204, ''];
			});
		const { error, json } = await run({
			resource: 'calendar',
			operation: 'delete',
			calendar: byUrl(`${DAV}${HOME}work/`),
		});
		expect(error).toBeUndefined();
		expect(sent.method).toBe('DELETE');
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${HOME}work/`,
				shared: false,
				result: 'calendarDeleted',
				outcome: 'applied',
			},
		]);
	});

	it('a member deleting a calendar shared with them (shared-<calendarId>) ends the membership: the output says so', async () => {
		kindIs(DAV, `${HOME}shared-42/`, 'calendar');
		nock(DAV).delete(`${HOME}shared-42/`).reply(204, '');
		const { error, json } = await run({
			resource: 'calendar',
			operation: 'delete',
			calendar: byUrl(`${DAV}${HOME}shared-42/`),
		});
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${HOME}shared-42/`,
				shared: true,
				result: 'membershipRemoved',
				outcome: 'applied',
			},
		]);
	});

	it('a server that keeps its calendars answers 403, and the error says nothing was deleted', async () => {
		kindIs(DAV, `${HOME}fixed/`, 'calendar');
		nock(DAV).delete(`${HOME}fixed/`).reply(403, 'Forbidden');
		const { error } = await run({
			resource: 'calendar',
			operation: 'delete',
			calendar: byUrl(`${DAV}${HOME}fixed/`),
		});
		expect(error?.message).toBe('The server does not allow deleting this calendar (403)');
		expect(error?.description).toMatch(/^Nothing was deleted\./);
	});

	it('the forms say what deleting a shared calendar and an event in a shared calendar do', async () => {
		const { description } = await import(
			'../../../nodes/Calendar/actions/calendar/delete.operation'
		);
		const event = await import('../../../nodes/Calendar/actions/event/delete.operation');
		expect(description.find((property) => property.type === 'notice')?.displayName).toMatch(
			/shared with you .* only ends your membership: the owner's calendar and its events stay/,
		);
		expect(event.description.find((property) => property.type === 'notice')?.displayName).toMatch(
			/removes it for everyone who shares the calendar, the owner included/,
		);
	});
});
