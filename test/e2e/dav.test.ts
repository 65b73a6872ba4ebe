/**
 * The Calendar and Contacts nodes and both triggers in a real n8n against a real Radicale, from exported
 * workflows: every operation in one run (workflows/dav-roundtrip.json), objects written by another client
 * keeping their unknown properties through an update, the credential test, and both polling triggers
 * activated and firing on created and updated objects (workflows/dav-triggers.json; deletions and the
 * sync-token fallback are covered by the engine tier, which needs no minute-long poll interval).
 */
import { startRadicale, RADICALE_USER, type Radicale } from '../dav/radicale';
import { describeErrors, itemsOf, loadWorkflow, startN8n, type CredentialRef, type N8nInstance } from './harness/n8n';

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
	credential = await n8n.client.createCredential('cloudStorageDavApi', 'DAV', { davUrl: radicale.url, username: RADICALE_USER.username, password: RADICALE_USER.password });
});
afterAll(async () => {
	await n8n?.stop();
	await radicale?.stop();
});

const FOREIGN_EVENT = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//Other Client//EN',
	'BEGIN:VEVENT',
	'UID:other-client-event',
	'DTSTAMP:20300101T000000Z',
	'DTSTART:20300110T100000Z',
	'DTEND:20300110T110000Z',
	'SUMMARY:Written elsewhere',
	'X-OTHER-CLIENT-FLAG:keep-me',
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');
const FOREIGN_CONTACT = ['BEGIN:VCARD', 'VERSION:3.0', 'UID:other-client-contact', 'FN:Ada Lovelace', 'X-OTHER-CLIENT-FIELD:keep-me-too', 'END:VCARD', ''].join('\r\n');

it("passes n8n's credential test, and fails it with a wrong password", async () => {
	expect(await n8n.client.testCredential(credential)).toMatchObject({ status: 'OK' });
	const wrong = await n8n.client.createCredential('cloudStorageDavApi', 'DAV (wrong)', { davUrl: radicale.url, username: RADICALE_USER.username, password: 'wrong' });
	expect(await n8n.client.testCredential(wrong)).toMatchObject({ status: 'Error' });
});

it('runs every Calendar and Contacts operation; foreign objects keep unknown properties', async () => {
	await radicale.send('PUT', `${calendar}foreign.ics`, { body: FOREIGN_EVENT, headers: { 'content-type': 'text/calendar' } });
	await radicale.send('PUT', `${book}foreign.vcf`, { body: FOREIGN_CONTACT, headers: { 'content-type': 'text/vcard' } });
	const workflow = loadWorkflow('dav-roundtrip.json');
	for (const node of workflow.nodes) {
		if (node.parameters.eventUrl === 'FOREIGN_EVENT_URL') node.parameters.eventUrl = `${calendar}foreign.ics`;
		if (node.parameters.contactUrl === 'FOREIGN_CONTACT_URL') node.parameters.contactUrl = `${book}foreign.vcf`;
	}
	const imported = await n8n.client.importWorkflow(workflow, { credentials: { cloudStorageDavApi: credential } });
	const execution = await n8n.client.runWorkflow(imported.id);
	expect(describeErrors(execution)).toBe('');
	expect(execution.status).toBe('success');

	const json = (node: string) => itemsOf(execution, node).map((item) => item.json);
	expect(json('List Calendars')).toEqual([expect.objectContaining({ url: calendar, displayName: 'Work' })]);
	expect(json('Update Calendar')[0]).toMatchObject({ displayName: 'E2E calendar (renamed)', description: 'made by n8n', color: '#00AA00FF' });
	const created = json('Create Event')[0];
	expect(created).toMatchObject({ summary: 'E2E event – Grüße', start: '2030-05-01T07:00:00.000Z', timezone: 'Europe/Berlin', recurring: true, reminders: [15] });
	const updated = json('Update Event')[0];
	expect(updated).toMatchObject({ url: created.url, summary: 'E2E event (updated)', location: 'Room 1' });
	expect(updated.etag).not.toBe(created.etag);
	expect(json('Get Event')).toEqual([expect.objectContaining({ url: created.url, etag: updated.etag })]);
	expect(json('Get Occurrences').map((item) => item.start)).toEqual(['2030-05-01T07:00:00.000Z', '2030-05-02T07:00:00.000Z', '2030-05-03T07:00:00.000Z']);
	expect(json('Delete Event')).toEqual([{ deleted: true, url: created.url, etag: updated.etag }]);
	expect((await radicale.send('GET', String(created.url))).status).toBe(404);

	expect(json('List Address Books')).toEqual([expect.objectContaining({ url: book, displayName: 'Contacts' })]);
	const contact = json('Create Contact')[0];
	expect(contact).toMatchObject({ fullName: 'Zoë Ündercut', organization: 'ACME', emails: [{ value: 'zoe@example.com', type: 'work' }] });
	expect(json('Search Contacts').map((item) => item.fullName)).toEqual(['Zoë Ündercut']);
	expect(json('Get Contact')[0]).toMatchObject({ url: contact.url, etag: contact.etag });
	expect(json('Get Contacts').map((item) => item.fullName).sort()).toEqual(['Ada Lovelace', 'Zoë Ündercut']);
	expect(json('Update Contact')[0]).toMatchObject({ title: 'CTO', organization: 'ACME' });
	expect(json('Delete Contact')[0]).toMatchObject({ deleted: true, url: contact.url });

	const event = (await radicale.send('GET', `${calendar}foreign.ics`)).body;
	expect(event).toContain('SUMMARY:Renamed in n8n');
	expect(event).toContain('X-OTHER-CLIENT-FLAG:keep-me');
	const card = (await radicale.send('GET', `${book}foreign.vcf`)).body.toLowerCase();
	expect(card).toContain('org:analytical engines');
	expect(card).toContain('x-other-client-field:keep-me-too');
});

it('fires both activated triggers once for objects created and updated after activation', async () => {
	const triggerCalendar = await radicale.mkcalendar('watched');
	const triggerBook = await radicale.mkaddressbook('watched-book');
	await radicale.send('PUT', `${triggerCalendar}before.ics`, { body: FOREIGN_EVENT.replace('other-client-event', 'before'), headers: { 'content-type': 'text/calendar' } });
	const workflow = loadWorkflow('dav-triggers.json');
	workflow.nodes[0].parameters.calendar.value = triggerCalendar;
	workflow.nodes[1].parameters.addressBook.value = triggerBook;
	const imported = await n8n.client.importWorkflow(workflow, { credentials: { cloudStorageDavApi: credential } });
	await n8n.client.activate(imported.id);

	// Activation polls once (recording state, emitting nothing); changes after it fire on the next minute.
	await waitFor('the first polls to record their state', async () => {
		const staticData = (await n8n.client.getWorkflow(imported.id)).staticData ?? {};
		return Boolean(staticData['node:Calendar Trigger']?.dav && staticData['node:Contacts Trigger']?.dav);
	}, 30_000);
	await radicale.send('PUT', `${triggerCalendar}new.ics`, { body: FOREIGN_EVENT.replace('other-client-event', 'new').replace('Written elsewhere', 'Fresh event'), headers: { 'content-type': 'text/calendar' } });
	await radicale.send('PUT', `${triggerCalendar}before.ics`, { body: FOREIGN_EVENT.replace('other-client-event', 'before').replace('Written elsewhere', 'Edited'), headers: { 'content-type': 'text/calendar' } });
	await radicale.send('PUT', `${triggerBook}new.vcf`, { body: FOREIGN_CONTACT.replace('other-client-contact', 'new-contact'), headers: { 'content-type': 'text/vcard' } });

	const executions = await waitFor('two trigger executions', async () => {
		const ids = await n8n.client.listExecutionIds(imported.id);
		return ids.length >= 2 ? ids : undefined;
	}, 150_000);
	const emitted: unknown[][] = [];
	for (const executionId of executions) {
		const execution = await n8n.client.waitForExecution(executionId);
		for (const node of ['Calendar Trigger', 'Contacts Trigger'].filter((name) => execution.nodes[name])) emitted.push(...itemsOf(execution, node).map((item) => [node, item.json.event, item.json.summary ?? item.json.fullName]));
	}
	expect(emitted.sort()).toEqual([
		['Calendar Trigger', 'created', 'Fresh event'],
		['Calendar Trigger', 'updated', 'Edited'],
		['Contacts Trigger', 'created', 'Ada Lovelace'],
	]);
	await n8n.client.deactivate(imported.id);
});

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}
