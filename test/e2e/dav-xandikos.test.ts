/**
 * Every Calendar and Contacts operation in a real n8n against the second, independent server: Xandikos
 * (Debian `xandikos`), from the same exported workflow as dav.test.ts runs against Radicale. Xandikos 0.2.8
 * refuses a calendar's description (PROPPATCH answers 409): the first run shows the node stops there with
 * that named; the second run leaves the description out and checks everything else, including objects
 * another client wrote keeping their unknown properties. The third runs the address-book and occurrence
 * operations and Delete after a 412 (harness/dav-new-operations.ts, the same checks as against Radicale):
 * Xandikos takes an address book's description on extended MKCOL, so nothing is reported as not applied.
 * Last, both triggers (harness/dav-triggers.ts), the same checks as against Radicale. Xandikos answers a
 * sync-token it never issued with 500 where RFC 6578 asks for 403: the trigger starts a full sync all the
 * same and reports each change once. It authenticates nobody, so the credential is sent and ignored
 * (noAuthentication in test/dav/servers.ts).
 */
import { startXandikos, type Xandikos } from '../dav/xandikos';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	startN8n,
	type CredentialRef,
	type N8nInstance,
} from './harness/n8n';
import { FOREIGN_CONTACT, FOREIGN_EVENT } from '../../scripts/lib/demo-setup.ts';
import { closeProxy, davProxy } from './harness/dav-proxy';
import { runNewOperations } from './harness/dav-new-operations';
import { describeDavTriggers } from './harness/dav-triggers';

let xandikos: Xandikos;
let n8n: N8nInstance;
let credential: CredentialRef;
let calendar: string;
let book: string;

beforeAll(async () => {
	xandikos = await startXandikos();
	calendar = await xandikos.mkcalendar('work', { displayName: 'Work' });
	book = await xandikos.mkaddressbook('contacts', { displayName: 'Contacts' });
	n8n = await startN8n({ mode: 'regular' });
	// Xandikos does no authentication of its own; the credential is sent and ignored.
	credential = await n8n.client.createCredential('cloudStorageDavApi', 'DAV', {
		davUrl: xandikos.url,
		username: 'user',
		password: 'unused-by-xandikos',
	});
});
afterAll(async () => {
	await n8n?.stop();
	await xandikos?.stop();
});

function roundTrip(withDescription: boolean) {
	const workflow = loadWorkflow('dav-roundtrip.json');
	for (const node of workflow.nodes) {
		if (String(node.parameters.eventUrl).startsWith('REPLACE_ME'))
			node.parameters.eventUrl = `${calendar}foreign.ics`;
		if (String(node.parameters.contactUrl).startsWith('REPLACE_ME'))
			node.parameters.contactUrl = `${book}foreign.vcf`;
		if (!withDescription && node.name === 'Update Calendar') node.parameters.updateFields = {};
	}
	return workflow;
}

it('stops at Update Calendar with the refused description named (Xandikos 0.2.8: 409)', async () => {
	const imported = await n8n.client.importWorkflow(roundTrip(true), {
		credentials: { cloudStorageDavApi: credential },
	});
	const execution = await n8n.client.runWorkflow(imported.id);
	expect(execution.status).toBe('error');
	expect(describeErrors(execution)).toMatch(
		/Update Calendar.*Updating the calendar was refused by the server: calendar-description \(409\)/s,
	);
});

it('runs every other Calendar and Contacts operation; foreign objects keep unknown properties', async () => {
	await xandikos.send('PUT', `${calendar}foreign.ics`, {
		body: FOREIGN_EVENT,
		headers: { 'content-type': 'text/calendar' },
	});
	await xandikos.send('PUT', `${book}foreign.vcf`, {
		body: FOREIGN_CONTACT,
		headers: { 'content-type': 'text/vcard' },
	});
	const imported = await n8n.client.importWorkflow(roundTrip(false), {
		credentials: { cloudStorageDavApi: credential },
	});
	const execution = await n8n.client.runWorkflow(imported.id);
	expect(describeErrors(execution)).toBe('');
	expect(execution.status).toBe('success');

	const json = (node: string) => itemsOf(execution, node).map((item) => item.json);
	expect(json('List Calendars')).toEqual(
		expect.arrayContaining([expect.objectContaining({ url: calendar, displayName: 'Work' })]),
	);
	expect(json('Update Calendar')[0]).toMatchObject({
		displayName: 'E2E calendar (renamed)',
		color: '#00AA00FF',
	});
	const created = json('Create Event')[0];
	expect(created).toMatchObject({
		summary: 'E2E event – Grüße',
		start: '2030-05-01T07:00:00.000Z',
		timezone: 'Europe/Berlin',
		recurring: true,
		reminders: [15],
	});
	const updated = json('Update Event')[0];
	expect(updated).toMatchObject({
		url: created.url,
		summary: 'E2E event (updated)',
		location: 'Room 1',
	});
	expect(json('Get Event')).toEqual([
		expect.objectContaining({ url: created.url, etag: updated.etag }),
	]);
	expect(json('Get Occurrences').map((item) => item.start)).toEqual([
		'2030-05-01T07:00:00.000Z',
		'2030-05-02T07:00:00.000Z',
		'2030-05-03T07:00:00.000Z',
	]);
	expect(json('Delete Event')).toEqual([
		{ deleted: true, url: created.url, etag: updated.etag, outcome: 'applied' },
	]);
	expect((await xandikos.send('GET', String(created.url))).status).toBe(404);

	expect(json('List Address Books')).toEqual([
		expect.objectContaining({ url: book, displayName: 'Contacts' }),
	]);
	const contact = json('Create Contact')[0];
	expect(contact).toMatchObject({ fullName: 'Zoë Ündercut', organization: 'ACME' });
	// Xandikos answers 500 to every addressbook-query: the node reads the book and matches itself.
	expect(json('Search Contacts').map((item) => item.fullName)).toEqual(['Zoë Ündercut']);
	expect(
		json('Get Contacts')
			.map((item) => item.fullName)
			.sort(),
	).toEqual(['Ada Lovelace', 'Zoë Ündercut']);
	expect(json('Update Contact')[0]).toMatchObject({ title: 'CTO', organization: 'ACME' });
	expect(json('Delete Contact')[0]).toMatchObject({ deleted: true, url: contact.url });

	const event = (await xandikos.send('GET', `${calendar}foreign.ics`)).body;
	expect(event).toContain('SUMMARY:Renamed in n8n');
	expect(event).toContain('X-OTHER-CLIENT-FLAG:keep-me');
	const card = (await xandikos.send('GET', `${book}foreign.vcf`)).body;
	expect(card.toLowerCase()).toContain('org:analytical engines');
	expect(card).toContain('X-OTHER-CLIENT-FIELD:keep-me-too');
});

it('creates, renames and deletes an address book; changes, cancels and splits occurrences; keeps a changed event or contact unless "Delete Even If Changed"', async () => {
	const proxy = await davProxy(xandikos.url);
	try {
		await runNewOperations({
			n8n,
			server: xandikos,
			proxy,
			credentialFields: { username: 'user', password: 'unused-by-xandikos' },
		});
	} finally {
		await closeProxy(proxy);
	}
});

// Xandikos 0.2.8: an unknown sync-token answers 500 (RFC 6578: 403 valid-sync-token).
describeDavTriggers('Xandikos', () => ({
	n8n,
	server: xandikos,
	credentialFields: { username: 'user', password: 'unused-by-xandikos' },
	unknownTokenStatus: 500,
}));
