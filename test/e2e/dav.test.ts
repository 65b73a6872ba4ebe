/**
 * The Calendar and Contacts nodes and both triggers in a real n8n against a real Radicale, from exported
 * workflows: every operation in one run (workflows/dav-roundtrip.json), objects written by another client
 * keeping their unknown properties through an update, the credential test, both polling triggers
 * (harness/dav-triggers.ts with workflows/dav-triggers.json) reporting created, updated and deleted
 * objects exactly once, also when the server rejects the sync-token or refuses sync-collection, the 412
 * conflict on Update with and without "Re-Apply on Conflict", and the address-book and occurrence
 * operations and Delete after a 412 (harness/dav-new-operations.ts). The triggers and the new operations
 * run the same against Xandikos (dav-xandikos.test.ts). A small proxy between n8n and the server
 * (harness/dav-proxy.ts) sees every request and plays the server that refuses a token, lacks sync, or the
 * other client that changes an object between n8n's read and its write.
 */
import { startRadicale, RADICALE_USER, type Radicale } from '../dav/radicale';
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
import { describeDavTriggers } from './harness/dav-triggers';
import { runNewOperations } from './harness/dav-new-operations';

let radicale: Radicale;
let n8n: N8nInstance;
let credential: CredentialRef;
let calendar: string;
let book: string;

beforeAll(async () => {
	radicale = await startRadicale();
	calendar = await radicale.mkcalendar('work', { displayName: 'Work' });
	book = await radicale.mkaddressbook('contacts', { displayName: 'Contacts' });
	n8n = await startN8n({ mode: 'regular' });
	credential = await n8n.client.createCredential('cloudStorageDavApi', 'DAV', {
		davUrl: radicale.url,
		username: RADICALE_USER.username,
		password: RADICALE_USER.password,
	});
});
afterAll(async () => {
	await n8n?.stop();
	await radicale?.stop();
});

it("passes n8n's credential test, and fails it with a wrong password", async () => {
	expect(await n8n.client.testCredential(credential)).toMatchObject({ status: 'OK' });
	const wrong = await n8n.client.createCredential('cloudStorageDavApi', 'DAV (wrong)', {
		davUrl: radicale.url,
		username: RADICALE_USER.username,
		password: 'wrong',
	});
	expect(await n8n.client.testCredential(wrong)).toMatchObject({ status: 'Error' });
});

it('runs every Calendar and Contacts operation; foreign objects keep unknown properties', async () => {
	await radicale.send('PUT', `${calendar}foreign.ics`, {
		body: FOREIGN_EVENT,
		headers: { 'content-type': 'text/calendar' },
	});
	await radicale.send('PUT', `${book}foreign.vcf`, {
		body: FOREIGN_CONTACT,
		headers: { 'content-type': 'text/vcard' },
	});
	const workflow = loadWorkflow('dav-roundtrip.json');
	for (const node of workflow.nodes) {
		if (String(node.parameters.eventUrl).startsWith('REPLACE_ME'))
			node.parameters.eventUrl = `${calendar}foreign.ics`;
		if (String(node.parameters.contactUrl).startsWith('REPLACE_ME'))
			node.parameters.contactUrl = `${book}foreign.vcf`;
	}
	const imported = await n8n.client.importWorkflow(workflow, {
		credentials: { cloudStorageDavApi: credential },
	});
	const execution = await n8n.client.runWorkflow(imported.id);
	expect(describeErrors(execution)).toBe('');
	expect(execution.status).toBe('success');

	const json = (node: string) => itemsOf(execution, node).map((item) => item.json);
	expect(json('List Calendars')).toEqual([
		expect.objectContaining({ url: calendar, displayName: 'Work' }),
	]);
	expect(json('Update Calendar')[0]).toMatchObject({
		displayName: 'E2E calendar (renamed)',
		description: 'made by n8n',
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
	expect(updated.etag).not.toBe(created.etag);
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
	expect((await radicale.send('GET', String(created.url))).status).toBe(404);

	expect(json('List Address Books')).toEqual([
		expect.objectContaining({ url: book, displayName: 'Contacts' }),
	]);
	const contact = json('Create Contact')[0];
	expect(contact).toMatchObject({
		fullName: 'Zoë Ündercut',
		organization: 'ACME',
		emails: [{ value: 'zoe@example.com', type: 'work' }],
	});
	expect(json('Search Contacts').map((item) => item.fullName)).toEqual(['Zoë Ündercut']);
	expect(json('Get Contact')[0]).toMatchObject({ url: contact.url, etag: contact.etag });
	expect(
		json('Get Contacts')
			.map((item) => item.fullName)
			.sort(),
	).toEqual(['Ada Lovelace', 'Zoë Ündercut']);
	expect(json('Update Contact')[0]).toMatchObject({ title: 'CTO', organization: 'ACME' });
	expect(json('Delete Contact')[0]).toMatchObject({ deleted: true, url: contact.url });

	const event = (await radicale.send('GET', `${calendar}foreign.ics`)).body;
	expect(event).toContain('SUMMARY:Renamed in n8n');
	expect(event).toContain('X-OTHER-CLIENT-FLAG:keep-me');
	const card = (await radicale.send('GET', `${book}foreign.vcf`)).body.toLowerCase();
	expect(card).toContain('org:analytical engines');
	expect(card).toContain('x-other-client-field:keep-me-too');
});

// ---- Triggers and conflicts through a proxy that can play other servers and other clients ----
describeDavTriggers('Radicale', () => ({
	n8n,
	server: radicale,
	credentialFields: { username: RADICALE_USER.username, password: RADICALE_USER.password },
	unknownTokenStatus: 403,
}));

describe('412 conflict on Update in n8n', () => {
	it('another client writes between read and write: the error names the current ETag and nothing is retried; with Re-Apply on Conflict it succeeds once', async () => {
		const proxy = await davProxy(radicale.url);
		try {
			const eventPath = `${new URL(calendar).pathname}conflict.ics`;
			const contactPath = `${new URL(book).pathname}conflict.vcf`;
			await radicale.send('PUT', new URL(eventPath, radicale.url).href, {
				body: FOREIGN_EVENT.replace('other-client-event', 'conflict'),
				headers: { 'content-type': 'text/calendar' },
			});
			await radicale.send('PUT', new URL(contactPath, radicale.url).href, {
				body: FOREIGN_CONTACT.replace('other-client-contact', 'conflict'),
				headers: { 'content-type': 'text/vcard' },
			});
			const otherEvent = (n: number) =>
				FOREIGN_EVENT.replace('other-client-event', 'conflict').replace(
					'Written elsewhere',
					`Changed by another client ${n}`,
				);
			const otherContact = (n: number) =>
				FOREIGN_CONTACT.replace('other-client-contact', 'conflict').replace(
					'FN:Ada Lovelace',
					`FN:Ada Lovelace ${n}`,
				);
			proxy.otherClient.set(eventPath, { writes: [otherEvent(1), otherEvent(2)], etags: [] });
			proxy.otherClient.set(contactPath, { writes: [otherContact(1), otherContact(2)], etags: [] });

			const viaProxy = await n8n.client.createCredential(
				'cloudStorageDavApi',
				'DAV via conflict proxy',
				{ davUrl: proxy.url, username: RADICALE_USER.username, password: RADICALE_USER.password },
			);
			const credentials = { cloudStorageDavApi: { id: viaProxy.id, name: viaProxy.name } };
			const node = (
				name: string,
				type: string,
				parameters: Record<string, unknown>,
				x: number,
			) => ({
				id: `c0f1c700-0000-4000-8000-00000000000${x}`,
				name,
				type: `n8n-nodes-cloud-storage.${type}`,
				typeVersion: 1,
				position: [x * 220, 0],
				parameters,
				credentials,
				onError: 'continueRegularOutput',
			});
			const eventUrl = new URL(eventPath, proxy.url).href;
			const contactUrl = new URL(contactPath, proxy.url).href;
			const nodes = [
				{
					id: 'c0f1c700-0000-4000-8000-000000000000',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				node(
					'Update Event',
					'cloudStorageCalendar',
					{
						resource: 'event',
						operation: 'update',
						eventUrl,
						updateFields: { location: 'Room 7' },
					},
					1,
				),
				node(
					'Update Event (Re-Apply)',
					'cloudStorageCalendar',
					{
						resource: 'event',
						operation: 'update',
						eventUrl,
						updateFields: { location: 'Room 7' },
						options: { reapplyOnConflict: true },
					},
					2,
				),
				node(
					'Update Contact',
					'cloudStorageContacts',
					{
						resource: 'contact',
						operation: 'update',
						contactUrl,
						updateFields: { title: 'Countess' },
					},
					3,
				),
				node(
					'Update Contact (Re-Apply)',
					'cloudStorageContacts',
					{
						resource: 'contact',
						operation: 'update',
						contactUrl,
						updateFields: { title: 'Countess' },
						options: { reapplyOnConflict: true },
					},
					4,
				),
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
				name: 'E2E: DAV update conflicts',
				nodes,
				connections,
				settings: { executionOrder: 'v1' },
			});
			const execution = await n8n.client.runWorkflow(imported.id);
			expect(execution.status).toBe('success');
			const json = (name: string) => itemsOf(execution, name).map((item) => item.json);

			const [eventEtagAfterFirst] = proxy.otherClient.get(eventPath)!.etags;
			expect(json('Update Event')).toEqual([
				{
					error: 'The event changed on the server since it was read (412)',
					description: expect.stringContaining(`Its current ETag is ${eventEtagAfterFirst}.`),
					// Refused by the server: nothing was written (README, "How requests behave").
					httpCode: 412,
					outcome: 'not-applied',
				},
			]);
			expect(json('Update Event (Re-Apply)')).toEqual([
				expect.objectContaining({ summary: 'Changed by another client 2', location: 'Room 7' }),
			]);
			const [contactEtagAfterFirst] = proxy.otherClient.get(contactPath)!.etags;
			expect(json('Update Contact')).toEqual([
				{
					error: 'The contact changed on the server since it was read (412)',
					description: expect.stringContaining(`Its current ETag is ${contactEtagAfterFirst}.`),
					// Refused by the server: nothing was written (README, "How requests behave").
					httpCode: 412,
					outcome: 'not-applied',
				},
			]);
			expect(json('Update Contact (Re-Apply)')).toEqual([
				expect.objectContaining({ fullName: 'Ada Lovelace 2', title: 'Countess' }),
			]);

			// n8n's PUTs: one refused without re-apply (not repeated); one refused then one accepted with it.
			const puts = (path: string) =>
				proxy.log
					.filter((entry) => entry.method === 'PUT' && entry.path === path)
					.map((entry) => entry.status);
			expect(puts(eventPath)).toEqual([412, 412, expect.any(Number)]);
			expect(puts(eventPath)[2]).toBeLessThan(300);
			expect(puts(contactPath)).toEqual([412, 412, expect.any(Number)]);
			const stored = (await radicale.send('GET', new URL(eventPath, radicale.url).href)).body;
			expect(stored).toContain('SUMMARY:Changed by another client 2');
			expect(stored).toContain('LOCATION:Room 7');
			expect(stored).toContain('X-OTHER-CLIENT-FLAG:keep-me');
		} finally {
			proxy.server.closeAllConnections();
			await new Promise((resolve) => proxy.server.close(resolve));
		}
	});
});

describe('Address books, occurrences and Delete after a conflict in n8n', () => {
	it('creates, renames and deletes an address book; changes, cancels and splits occurrences; keeps a changed event or contact unless "Delete Even If Changed"', async () => {
		const proxy = await davProxy(radicale.url);
		try {
			await runNewOperations({
				n8n,
				server: radicale,
				proxy,
				credentialFields: { username: RADICALE_USER.username, password: RADICALE_USER.password },
			});
		} finally {
			await closeProxy(proxy);
		}
	});
});
