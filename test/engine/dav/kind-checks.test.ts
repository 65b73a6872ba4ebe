/**
 * A delete, an object update or a collection update reads its target's resourcetype (PROPFIND Depth 0)
 * before it writes and refuses anything but the kind it names: a home, a principal, a collection of the
 * other kind, an object.
 * Nothing is written (no DELETE, PUT or PROPPATCH is mocked, so one sent would fail the test). And DAV errors
 * name what the URL is: an event stored into an address book, a credential pointing at a server that is
 * not DAV.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { offlineWithNock } from '../../unit/offline';
import { kindIs, type MockedKind } from './resource-kinds';
import { byUrl, DAV, run } from './run-node';

const ms = (inner: string) =>
	`<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="urn:ietf:params:xml:ns:carddav">${inner}</D:multistatus>`;
const one = (href: string, props: string) =>
	`<D:response><D:href>${href}</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;

/** The discovery a refusal of a home or principal asks to name it: Radicale's layout, /alice/ is all three. */
function accountLayout() {
	nock(DAV)
		.intercept('/', 'PROPFIND')
		.reply(
			207,
			ms(one('/', '<D:current-user-principal><D:href>/alice/</D:href></D:current-user-principal>')),
		);
	nock(DAV)
		.intercept('/alice/', 'PROPFIND')
		.reply(
			207,
			ms(
				one(
					'/alice/',
					'<C:calendar-home-set><D:href>/alice/</D:href></C:calendar-home-set><A:addressbook-home-set><D:href>/alice/</D:href></A:addressbook-home-set>',
				),
			),
		);
}

const TARGETS: Array<{ name: string; path: string; kind: MockedKind }> = [
	{ name: 'the home (and principal)', path: '/alice/', kind: 'principal' },
	{ name: 'a plain collection', path: '/alice/folder/', kind: 'collection' },
	{ name: 'a calendar', path: '/alice/work/', kind: 'calendar' },
	{ name: 'an address book', path: '/alice/book/', kind: 'addressbook' },
	{ name: 'an event', path: '/alice/work/e1.ics', kind: 'object' },
];

const OPERATIONS: Array<{
	title: string;
	node: 'cloudStorageCalendar' | 'cloudStorageContacts';
	wants: MockedKind;
	parameters: (url: string) => IDataObject;
	refusal: RegExp;
}> = [
	{
		title: 'Delete Calendar',
		node: 'cloudStorageCalendar',
		wants: 'calendar',
		parameters: (url) => ({ resource: 'calendar', operation: 'delete', calendar: byUrl(url) }),
		refusal: /^Delete Calendar refused: \S+ is .+, not a calendar$/,
	},
	{
		title: 'Update Calendar',
		node: 'cloudStorageCalendar',
		wants: 'calendar',
		parameters: (url) => ({
			resource: 'calendar',
			operation: 'update',
			calendar: byUrl(url),
			displayName: 'Renamed',
		}),
		refusal: /^Update Calendar refused: \S+ is .+, not a calendar$/,
	},
	{
		title: 'Delete Address Book',
		node: 'cloudStorageContacts',
		wants: 'addressbook',
		parameters: (url) => ({
			resource: 'addressBook',
			operation: 'delete',
			addressBook: byUrl(url),
		}),
		refusal: /^Delete Address Book refused: \S+ is .+, not an address book$/,
	},
	{
		title: 'Update Address Book',
		node: 'cloudStorageContacts',
		wants: 'addressbook',
		parameters: (url) => ({
			resource: 'addressBook',
			operation: 'update',
			addressBook: byUrl(url),
			displayName: 'Renamed',
		}),
		refusal: /^Update Address Book refused: \S+ is .+, not an address book$/,
	},
	{
		title: 'Delete Event',
		node: 'cloudStorageCalendar',
		wants: 'object',
		parameters: (url) => ({ resource: 'event', operation: 'delete', eventUrl: url }),
		refusal: /^Delete Event refused: \S+ is .+, not a single object/,
	},
	{
		title: 'Delete Contact',
		node: 'cloudStorageContacts',
		wants: 'object',
		parameters: (url) => ({ resource: 'contact', operation: 'delete', contactUrl: url }),
		refusal: /^Delete Contact refused: \S+ is .+, not a single object/,
	},
	{
		title: 'Update Event',
		node: 'cloudStorageCalendar',
		wants: 'object',
		parameters: (url) => ({
			resource: 'event',
			operation: 'update',
			eventUrl: url,
			updateFields: { summary: 'Renamed' },
		}),
		refusal: /^Update Event refused: \S+ is .+, not a single object/,
	},
	{
		title: 'Update Contact',
		node: 'cloudStorageContacts',
		wants: 'object',
		parameters: (url) => ({
			resource: 'contact',
			operation: 'update',
			contactUrl: url,
			updateFields: { title: 'Renamed' },
		}),
		refusal: /^Update Contact refused: \S+ is .+, not a single object/,
	},
];

offlineWithNock({ allMocksUsed: true });

describe.each(OPERATIONS)('$title', (operation) => {
	it.each(TARGETS.filter((target) => target.kind !== operation.wants))(
		'given $name: refused before any write, naming what the URL is and what to pick',
		async (target) => {
			kindIs(DAV, target.path, target.kind);
			if (target.kind === 'principal' || target.kind === 'collection') accountLayout();
			const { json, error } = await run(
				operation.node,
				operation.parameters(`${DAV}${target.path}`),
			);
			expect(json).toEqual([]);
			expect(error?.message).toMatch(operation.refusal);
			expect(error?.message).toContain(`${DAV}${target.path}`);
			expect(error?.description).toMatch(/^Nothing was (deleted|changed)\. \S/);
		},
	);
});

it('names the home and principal for what they are, and what to pick instead', async () => {
	kindIs(DAV, '/alice/', 'principal');
	accountLayout();
	const { error } = await run('cloudStorageCalendar', {
		resource: 'calendar',
		operation: 'delete',
		calendar: byUrl(`${DAV}/alice/`),
	});
	expect(error?.message).toBe(
		`Delete Calendar refused: ${DAV}/alice/ is the account’s principal, its calendar home and its address book home (it holds the account’s collections), not a calendar`,
	);
	expect(error?.description).toBe(
		'Nothing was deleted. Pick a calendar from the list (Calendar → Get Many shows each calendar’s URL). The node never deletes a home, a principal or a plain collection: that would take every collection inside it.',
	);
});

it('an event URL given to Delete Calendar points at the event operations', async () => {
	kindIs(DAV, '/alice/work/e1.ics', 'object');
	const { error } = await run('cloudStorageCalendar', {
		resource: 'calendar',
		operation: 'delete',
		calendar: byUrl(`${DAV}/alice/work/e1.ics`),
	});
	expect(error?.message).toBe(
		`Delete Calendar refused: ${DAV}/alice/work/e1.ics is a single object (an event or a contact), not a collection, not a calendar`,
	);
	expect(error?.description).toMatch(/To act on this one event, use the Event operations\.$/);
});

it('a calendar given to Delete Calendar is deleted, after the check', async () => {
	kindIs(DAV, '/alice/work/', 'calendar');
	const deleted = nock(DAV).delete('/alice/work/').reply(204, '');
	const { json, error } = await run('cloudStorageCalendar', {
		resource: 'calendar',
		operation: 'delete',
		calendar: byUrl(`${DAV}/alice/work/`),
	});
	expect(error).toBeUndefined();
	expect(deleted.isDone()).toBe(true);
	expect(json[0]).toMatchObject({ deleted: true, outcome: 'applied' });
});

it('Delete Event of a URL with nothing there says the event does not exist; nothing is sent', async () => {
	nock(DAV).intercept('/alice/work/gone.ics', 'PROPFIND').reply(404, '');
	nock(DAV)
		.intercept('/', 'PROPFIND')
		.reply(207, ms(one('/', '<D:resourcetype><D:collection/></D:resourcetype>')));
	const { error } = await run('cloudStorageCalendar', {
		resource: 'event',
		operation: 'delete',
		eventUrl: `${DAV}/alice/work/gone.ics`,
	});
	expect(error?.message).toBe('The event does not exist (404)');
	expect(error?.description).toBe(
		'Nothing was deleted. It was deleted already, or the URL is wrong.',
	);
});

describe('errors name what the URL is (issue 38)', () => {
	const EVENT = {
		resource: 'event',
		operation: 'create',
		calendar: byUrl(`${DAV}/alice/book/`),
		summary: 'Review',
		start: '2031-03-01T09:00:00Z',
	};

	it('an event stored into an address book: "is an address book, not a calendar", not "check the iCalendar data"', async () => {
		nock(DAV)
			.put(/\/alice\/book\/.+\.ics/)
			.reply(400, 'Bad Request');
		kindIs(DAV, '/alice/book/', 'addressbook');
		const { json, error } = await run('cloudStorageCalendar', EVENT);
		expect(json).toEqual([]);
		expect(error?.message).toBe(
			`Create Event failed: ${DAV}/alice/book/ is an address book, not a calendar`,
		);
		expect(error?.description).toBe(
			'Nothing was stored. Pick a calendar from the list (Calendar → Get Many shows each calendar’s URL). Address books are changed in the Contacts node.',
		);
		expect(error?.description).not.toMatch(/iCalendar/);
	});

	it('a 400 to an event stored into a calendar keeps its own message', async () => {
		nock(DAV)
			.put(/\/alice\/work\/.+\.ics/)
			.reply(400, 'Bad Request');
		kindIs(DAV, '/alice/work/', 'calendar');
		const { error } = await run('cloudStorageCalendar', {
			...EVENT,
			calendar: byUrl(`${DAV}/alice/work/`),
		});
		expect(error?.message).toMatch(/\(400\)/);
		expect(error?.message).not.toMatch(/Create Event failed/);
	});

	it('a credential pointing at a server that is not DAV: "not a CalDAV/CardDAV server", not "the object no longer exists"', async () => {
		nock(DAV).intercept('/', 'PROPFIND').reply(404, '<html><body>Not Found</body></html>');
		const { error } = await run('cloudStorageCalendar', {
			resource: 'calendar',
			operation: 'getAll',
		});
		expect(error?.message).toBe(
			`The DAV URL ${DAV}/ is not a CalDAV/CardDAV server: it answered 404 to PROPFIND`,
		);
		expect(error?.description).toMatch(/Check the DAV URL in the credential/);
		expect(error?.description).not.toMatch(/no longer exists/);
	});

	it('an event created on a server that is not DAV: the URL is "not on a CalDAV/CardDAV server"', async () => {
		nock(DAV)
			.put(/\/alice\/book\/.+\.ics/)
			.reply(404, 'Not Found');
		nock(DAV).intercept('/alice/book/', 'PROPFIND').reply(404, 'Not Found');
		nock(DAV).intercept('/', 'PROPFIND').reply(405, 'Method Not Allowed');
		const { error } = await run('cloudStorageCalendar', EVENT);
		expect(error?.message).toBe(
			`Create Event failed: ${DAV}/alice/book/ is not on a CalDAV/CardDAV server: the server answers no WebDAV PROPFIND there or at the credential's DAV URL (404), not a calendar`,
		);
		expect(error?.description).toMatch(/^Nothing was stored\. Check the DAV URL in the credential/);
	});

	it('a contact listed from a calendar URL: "is a calendar, not an address book"', async () => {
		nock(DAV).intercept('/alice/work/', 'PROPFIND').matchHeader('depth', '1').reply(403, '');
		kindIs(DAV, '/alice/work/', 'calendar');
		const { error } = await run('cloudStorageContacts', {
			resource: 'contact',
			operation: 'getAll',
			addressBook: byUrl(`${DAV}/alice/work/`),
		});
		expect(error?.message).toBe(
			`Get Many Contacts failed: ${DAV}/alice/work/ is a calendar, not an address book`,
		);
		expect(error?.description).toMatch(/^Nothing was read\. Pick an address book from the list/);
	});
});

it('a collection this credential may not read (403) is named so, not as "not found"; nothing is deleted', async () => {
	nock(DAV).intercept('/bob/work/', 'PROPFIND').reply(403, '');
	nock(DAV)
		.intercept('/', 'PROPFIND')
		.reply(207, ms(one('/', '<D:resourcetype><D:collection/></D:resourcetype>')));
	const { error } = await run('cloudStorageCalendar', {
		resource: 'calendar',
		operation: 'delete',
		calendar: byUrl(`${DAV}/bob/work/`),
	});
	expect(error?.message).toBe(
		`Delete Calendar refused: ${DAV}/bob/work/ is not readable with this credential (403), not a calendar`,
	);
	expect(error?.description).toMatch(
		/^Nothing was deleted\. Use a credential of the account that owns it/,
	);
});
