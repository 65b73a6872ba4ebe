/**
 * Every Calendar/Contacts delete, object update and collection update given a URL of another kind, against
 * real Radicale and Xandikos: the calendar home, the principal, a collection of the other kind and an object.
 * Each is refused before anything is written, naming what the URL is; afterwards every collection and object
 * is still there with its name and content. (Radicale's principal is also both homes; Xandikos keeps them apart.)
 */
import type { IDataObject } from 'n8n-workflow';

import { byUrl, CALENDAR, CONTACTS, runDavNode } from '../dav/engine';
import { DAV_SERVERS, type DavServer } from '../dav/servers';

const ICS = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//Other client//EN',
	'BEGIN:VEVENT',
	'UID:kind-event',
	'DTSTAMP:20300101T000000Z',
	'DTSTART:20300301T090000Z',
	'DTEND:20300301T100000Z',
	'SUMMARY:Keep me',
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');
const VCF = ['BEGIN:VCARD', 'VERSION:3.0', 'UID:kind-contact', 'FN:Keep Me', 'END:VCARD', ''].join(
	'\r\n',
);

const hrefIn = (body: string, property: string) =>
	new RegExp(`<[^>]*${property}[^>]*>\\s*<[^>]*href[^>]*>([^<]+)<`).exec(body)?.[1];

describe.each(DAV_SERVERS)('$name', (server) => {
	let dav: DavServer;
	const at: Record<string, string> = {};
	beforeAll(async () => {
		dav = await server.start();
		at.calendar = await dav.mkcalendar('kinds', { displayName: 'Kinds calendar' });
		at.book = await dav.mkaddressbook('kinds-book', { displayName: 'Kinds book' });
		at.event = `${at.calendar}kind-event.ics`;
		at.contact = `${at.book}kind-contact.vcf`;
		expect(
			(
				await dav.send('PUT', at.event, {
					body: ICS,
					headers: { 'Content-Type': 'text/calendar; charset=utf-8' },
				})
			).status,
		).toBeLessThan(300);
		expect(
			(
				await dav.send('PUT', at.contact, {
					body: VCF,
					headers: { 'Content-Type': 'text/vcard; charset=utf-8' },
				})
			).status,
		).toBeLessThan(300);
		const propfind = (url: string, props: string) =>
			dav.send('PROPFIND', url, {
				headers: { Depth: '0', 'Content-Type': 'application/xml' },
				body: `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="urn:ietf:params:xml:ns:carddav"><D:prop>${props}</D:prop></D:propfind>`,
			});
		const root = await propfind(dav.url, '<D:current-user-principal/>');
		at.principal = new URL(hrefIn(root.body, 'current-user-principal')!, dav.url).href;
		const homes = await propfind(at.principal, '<C:calendar-home-set/><A:addressbook-home-set/>');
		at.calendarHome = new URL(hrefIn(homes.body, 'calendar-home-set')!, dav.url).href;
		at.bookHome = new URL(hrefIn(homes.body, 'addressbook-home-set')!, dav.url).href;
	});
	afterAll(async () => await dav?.stop());

	async function everythingStillThere() {
		const event = await dav.send('GET', at.event);
		const contact = await dav.send('GET', at.contact);
		expect(event.status).toBe(200);
		expect(contact.status).toBe(200);
		expect(event.body).not.toContain('Renamed by mistake');
		expect(contact.body).not.toContain('Renamed by mistake');
		for (const [url, name] of [
			[at.calendar, 'Kinds calendar'],
			[at.book, 'Kinds book'],
		]) {
			const read = await dav.send('PROPFIND', url, {
				headers: { Depth: '0' },
				body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:displayname/></D:prop></D:propfind>',
			});
			expect(read.status).toBe(207);
			expect(read.body).toContain(name);
		}
		for (const url of [at.principal, at.calendarHome, at.bookHome]) {
			const read = await dav.send('PROPFIND', url, {
				headers: { Depth: '0' },
				body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:displayname/></D:prop></D:propfind>',
			});
			expect(read.status).toBe(207);
			expect(read.body).not.toContain('Renamed by mistake');
		}
	}

	const operations: Array<{
		name: string;
		type: string;
		parameters: (url: string) => IDataObject;
		targets: string[];
		refusal: RegExp;
	}> = [
		{
			name: 'Delete Calendar',
			type: CALENDAR,
			parameters: (url) => ({ resource: 'calendar', operation: 'delete', calendar: byUrl(url) }),
			targets: ['calendarHome', 'principal', 'book', 'event'],
			refusal: /^Delete Calendar refused: .* is .*, not a calendar$/,
		},
		{
			name: 'Update Calendar',
			type: CALENDAR,
			parameters: (url) => ({
				resource: 'calendar',
				operation: 'update',
				calendar: byUrl(url),
				displayName: 'Renamed by mistake',
			}),
			targets: ['calendarHome', 'principal', 'book', 'event'],
			refusal: /^Update Calendar refused: .* is .*, not a calendar$/,
		},
		{
			name: 'Delete Address Book',
			type: CONTACTS,
			parameters: (url) => ({
				resource: 'addressBook',
				operation: 'delete',
				addressBook: byUrl(url),
			}),
			targets: ['bookHome', 'principal', 'calendar', 'contact'],
			refusal: /^Delete Address Book refused: .* is .*, not an address book$/,
		},
		{
			name: 'Update Address Book',
			type: CONTACTS,
			parameters: (url) => ({
				resource: 'addressBook',
				operation: 'update',
				addressBook: byUrl(url),
				displayName: 'Renamed by mistake',
			}),
			targets: ['bookHome', 'principal', 'calendar', 'contact'],
			refusal: /^Update Address Book refused: .* is .*, not an address book$/,
		},
		{
			name: 'Delete Event',
			type: CALENDAR,
			parameters: (url) => ({ resource: 'event', operation: 'delete', eventUrl: url }),
			targets: ['calendar', 'calendarHome', 'principal', 'book'],
			refusal: /^Delete Event refused: .* is .*, not a single object/,
		},
		{
			name: 'Delete Contact',
			type: CONTACTS,
			parameters: (url) => ({ resource: 'contact', operation: 'delete', contactUrl: url }),
			targets: ['book', 'bookHome', 'principal', 'calendar'],
			refusal: /^Delete Contact refused: .* is .*, not a single object/,
		},
		{
			name: 'Update Event',
			type: CALENDAR,
			parameters: (url) => ({
				resource: 'event',
				operation: 'update',
				eventUrl: url,
				updateFields: { summary: 'Renamed by mistake' },
			}),
			targets: ['calendar', 'calendarHome', 'principal', 'book'],
			refusal: /^Update Event refused: .* is .*, not a single object/,
		},
		{
			name: 'Update Contact',
			type: CONTACTS,
			parameters: (url) => ({
				resource: 'contact',
				operation: 'update',
				contactUrl: url,
				updateFields: { title: 'Renamed by mistake' },
			}),
			targets: ['book', 'bookHome', 'principal', 'calendar'],
			refusal: /^Update Contact refused: .* is .*, not a single object/,
		},
	];

	const cases = operations.flatMap((operation) =>
		operation.targets.map((target) => ({ ...operation, target })),
	);
	it.each(cases)(
		'$name given the $target: refused, naming what the URL is; nothing is changed',
		async (operation) => {
			const url = at[operation.target];
			const { json, error } = await runDavNode(dav, operation.type, operation.parameters(url));
			expect(json).toEqual([]);
			expect(error?.message).toMatch(operation.refusal);
			expect(error?.message).toContain(url);
			expect(error?.description).toMatch(/^Nothing was (deleted|changed)\. /);
			await everythingStillThere();
		},
	);

	it('names the home and principal for what they are', async () => {
		const { error } = await runDavNode(dav, CALENDAR, {
			resource: 'calendar',
			operation: 'delete',
			calendar: byUrl(at.calendarHome),
		});
		expect(error?.message).toMatch(
			/ is (the account’s principal, )?its calendar home.* \(it holds the account’s collections\), not a calendar$/,
		);
		expect(error?.description).toMatch(/never deletes a home, a principal or a plain collection/);
		await everythingStillThere();
	});

	it('still deletes a calendar and a contact given their own URLs', async () => {
		const doomed = await dav.mkcalendar('kinds-doomed', { displayName: 'Doomed' });
		const deleted = await runDavNode(dav, CALENDAR, {
			resource: 'calendar',
			operation: 'delete',
			calendar: byUrl(doomed),
		});
		expect(deleted.error).toBeUndefined();
		expect(deleted.json[0]).toMatchObject({ deleted: true, outcome: 'applied' });
		await everythingStillThere();
	});
});
