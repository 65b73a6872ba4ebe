/**
 * The Calendar and Contacts nodes and both triggers in a real n8n against a real Radicale, from exported
 * workflows: every operation in one run (workflows/dav-roundtrip.json), objects written by another client
 * keeping their unknown properties through an update, the credential test, both polling triggers
 * (workflows/dav-triggers.json) reporting created, updated and deleted objects exactly once, also when the
 * server rejects the sync-token or refuses sync-collection, and the 412 conflict on Update with and without
 * "Re-Apply on Conflict"; then the address-book and occurrence operations and Delete after a 412
 * (harness/dav-new-operations.ts, shared with dav-xandikos.test.ts). n8n polls at most once a minute, but each activation runs one poll at once with the
 * stored static data, so deactivate + activate is a deterministic "poll now". A small proxy between n8n and
 * Radicale sees every request and plays the server that refuses a token, lacks sync, or the other client
 * that changes an object between n8n's read and its write.
 */
import { startRadicale, RADICALE_USER, type Radicale } from '../dav/radicale';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	pollOnlyOnActivation,
	startN8n,
	type CredentialRef,
	type N8nInstance,
	type WorkflowRef,
} from './harness/n8n';
import { closeProxy, davProxy, type DavProxy } from './harness/dav-proxy';
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
const FOREIGN_CONTACT = [
	'BEGIN:VCARD',
	'VERSION:3.0',
	'UID:other-client-contact',
	'FN:Ada Lovelace',
	'X-OTHER-CLIENT-FIELD:keep-me-too',
	'END:VCARD',
	'',
].join('\r\n');

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
	expect(json('Delete Event')).toEqual([{ deleted: true, url: created.url, etag: updated.etag }]);
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Calendar and Contacts Triggers in n8n', () => {
	let proxy: DavProxy;
	let workflow: WorkflowRef;
	let calendarPath: string;
	let bookPath: string;
	const put = (path: string, body: string) =>
		radicale.send('PUT', new URL(path, radicale.url).href, {
			body,
			headers: { 'content-type': path.endsWith('.ics') ? 'text/calendar' : 'text/vcard' },
		});
	const remove = (path: string) => radicale.send('DELETE', new URL(path, radicale.url).href);
	const event = (uid: string, summary: string) =>
		FOREIGN_EVENT.replace('other-client-event', uid).replace('Written elsewhere', summary);
	const contact = (uid: string, name: string) =>
		FOREIGN_CONTACT.replace('other-client-contact', uid).replace('Ada Lovelace', name);
	const nodeState = async (node: string) =>
		((await n8n.client.getWorkflow(workflow.id)).staticData ?? {})[`node:${node}`]?.dav;

	beforeAll(async () => {
		proxy = await davProxy(radicale.url);
		calendarPath = new URL(await radicale.mkcalendar('watched')).pathname;
		bookPath = new URL(await radicale.mkaddressbook('watched-book')).pathname;
		await put(`${calendarPath}before.ics`, event('before', 'Before'));
		await put(`${calendarPath}keep.ics`, event('keep', 'Keep'));
		await put(`${bookPath}before.vcf`, contact('before', 'Charles Babbage'));
		const viaProxy = await n8n.client.createCredential('cloudStorageDavApi', 'DAV via proxy', {
			davUrl: proxy.url,
			username: RADICALE_USER.username,
			password: RADICALE_USER.password,
		});
		const definition = pollOnlyOnActivation(loadWorkflow('dav-triggers.json'));
		definition.nodes[0].parameters.calendar.value = new URL(calendarPath, proxy.url).href;
		definition.nodes[1].parameters.addressBook.value = new URL(bookPath, proxy.url).href;
		workflow = await n8n.client.importWorkflow(definition, {
			credentials: { cloudStorageDavApi: viaProxy },
		});
	});
	afterAll(async () => {
		await n8n?.client.deactivate(workflow.id).catch(() => undefined);
		proxy?.server.closeAllConnections();
		await new Promise((resolve) => proxy?.server.close(resolve));
	});

	/**
	 * One poll of both triggers: (re)activation polls at once. Done when both collections were asked, every
	 * answer went out and nothing moved for a moment; then the executions it started have finished and, when
	 * it emitted, the state they commit is stored. Returns the requests and what each trigger emitted.
	 */
	async function pollNow(expectedExecutions: number) {
		const executionsBefore = new Set(await n8n.client.listExecutionIds(workflow.id));
		const before = {
			calendar: JSON.stringify(await nodeState('Calendar Trigger')),
			contacts: JSON.stringify(await nodeState('Contacts Trigger')),
		};
		await n8n.client.deactivate(workflow.id);
		const mark = proxy.log.length;
		await n8n.client.activate(workflow.id);
		const deadline = Date.now() + 60_000;
		for (;;) {
			const seen = proxy.log.slice(mark);
			const asked = [calendarPath, bookPath].every((path) =>
				seen.some((entry) => entry.path === path),
			);
			const lastEnd = Math.max(0, ...seen.map((entry) => entry.end ?? Infinity));
			if (asked && Date.now() - lastEnd > 700) break;
			if (Date.now() > deadline) throw new Error('timed out waiting for the poll');
			await sleep(100);
		}
		let ids: string[] = [];
		for (;;) {
			ids = (await n8n.client.listExecutionIds(workflow.id)).filter(
				(id) => !executionsBefore.has(id),
			);
			if (ids.length >= expectedExecutions) break;
			if (Date.now() > deadline)
				throw new Error(`expected ${expectedExecutions} executions, found ${ids.length}`);
			await sleep(250);
		}
		if (expectedExecutions === 0) await sleep(1000);
		ids = (await n8n.client.listExecutionIds(workflow.id)).filter(
			(id) => !executionsBefore.has(id),
		);
		expect(ids).toHaveLength(expectedExecutions);
		const emitted: string[] = [];
		for (const id of ids) {
			const execution = await n8n.client.waitForExecution(id);
			expect(describeErrors(execution)).toBe('');
			for (const node of ['Calendar Trigger', 'Contacts Trigger'].filter(
				(name) => execution.nodes[name],
			)) {
				emitted.push(
					...itemsOf(execution, node).map((item) =>
						`${node}: ${item.json.event} ${new URL(String(item.json.url)).pathname.split('/').pop()} ${item.json.summary ?? item.json.fullName ?? ''}`.trim(),
					),
				);
			}
		}
		if (expectedExecutions > 0) {
			for (;;) {
				const now = {
					calendar: JSON.stringify(await nodeState('Calendar Trigger')),
					contacts: JSON.stringify(await nodeState('Contacts Trigger')),
				};
				if (now.calendar !== before.calendar && now.contacts !== before.contacts) break;
				if (Date.now() > deadline)
					throw new Error('timed out waiting for the committed trigger state');
				await sleep(250);
			}
		}
		return {
			requests: proxy.log
				.slice(mark)
				.map(
					(entry) =>
						`${entry.method} ${entry.path}${entry.sync === undefined ? '' : entry.sync ? ' sync(token)' : ' sync(initial)'} ${entry.status}`,
				),
			emitted: emitted.sort(),
		};
	}

	it('"Fetch Test Event" returns the recent objects as samples and stores no state', async () => {
		const manual = await n8n.client.runWorkflow(workflow.id, { trigger: 'Calendar Trigger' });
		expect(describeErrors(manual)).toBe('');
		expect(
			itemsOf(manual, 'Calendar Trigger')
				.map((item) => [item.json.event, item.json.summary])
				.sort(),
		).toEqual([
			['created', 'Before'],
			['created', 'Keep'],
		]);
		expect((await n8n.client.getWorkflow(workflow.id)).staticData ?? {}).toEqual({});
	});

	it('the first activation records both collections and starts nothing', async () => {
		const first = await pollNow(0);
		expect(first.requests.sort()).toEqual(
			[
				`PROPFIND ${calendarPath} 207`,
				`REPORT ${calendarPath} sync(initial) 207`,
				`PROPFIND ${bookPath} 207`,
				`REPORT ${bookPath} sync(initial) 207`,
			].sort(),
		);
		expect(await nodeState('Calendar Trigger')).toMatchObject({
			sync: true,
			token: expect.any(String),
		});
		expect(Object.keys((await nodeState('Contacts Trigger')).etags)).toEqual([
			new URL(`${bookPath}before.vcf`, proxy.url).href,
		]);
	});

	it('reports created, updated and deleted events and contacts once each; a quiet poll is one request per trigger', async () => {
		await put(`${calendarPath}new.ics`, event('new', 'Fresh event'));
		await put(`${calendarPath}keep.ics`, event('keep', 'Edited'));
		await remove(`${calendarPath}before.ics`);
		await put(`${bookPath}new.vcf`, contact('new', 'Grace Hopper'));
		await remove(`${bookPath}before.vcf`);
		const changed = await pollNow(2);
		expect(changed.emitted).toEqual([
			'Calendar Trigger: created new.ics Fresh event',
			'Calendar Trigger: deleted before.ics',
			'Calendar Trigger: updated keep.ics Edited',
			'Contacts Trigger: created new.vcf Grace Hopper',
			'Contacts Trigger: deleted before.vcf',
		]);
		const quiet = await pollNow(0);
		expect(quiet.requests.sort()).toEqual([
			`REPORT ${bookPath} sync(token) 207`,
			`REPORT ${calendarPath} sync(token) 207`,
		]);
	});

	it('after the server rejects the sync-token, a full sync compared by ETag reports each change once, deletions included', async () => {
		const tokenBefore = (await nodeState('Calendar Trigger')).token;
		await remove(`${calendarPath}keep.ics`);
		await put(`${calendarPath}third.ics`, event('third', 'Third'));
		await put(`${bookPath}new.vcf`, contact('new', 'Grace Brewster Hopper'));
		proxy.mode = 'reject-token';
		const rejected = await pollNow(2);
		proxy.mode = 'pass';
		expect(rejected.requests.filter((line) => line.includes('sync')).sort()).toEqual([
			`REPORT ${bookPath} sync(initial) 207`,
			`REPORT ${bookPath} sync(token) 403`,
			`REPORT ${calendarPath} sync(initial) 207`,
			`REPORT ${calendarPath} sync(token) 403`,
		]);
		expect(rejected.emitted).toEqual([
			'Calendar Trigger: created third.ics Third',
			'Calendar Trigger: deleted keep.ics',
			'Contacts Trigger: updated new.vcf Grace Brewster Hopper',
		]);
		expect((await nodeState('Calendar Trigger')).token).not.toBe(tokenBefore);
		const quiet = await pollNow(0);
		expect(quiet.requests.sort()).toEqual([
			`REPORT ${bookPath} sync(token) 207`,
			`REPORT ${calendarPath} sync(token) 207`,
		]);
	});

	it('a server refusing sync-collection is compared by ETag from a listing, and is not asked to sync again', async () => {
		await remove(`${calendarPath}third.ics`);
		await put(`${bookPath}fourth.vcf`, contact('fourth', 'Hedy Lamarr'));
		proxy.mode = 'no-sync';
		const refused = await pollNow(2);
		proxy.mode = 'pass';
		expect(refused.emitted).toEqual([
			'Calendar Trigger: deleted third.ics',
			'Contacts Trigger: created fourth.vcf Hedy Lamarr',
		]);
		expect(await nodeState('Calendar Trigger')).toMatchObject({ sync: false });
		expect(await nodeState('Contacts Trigger')).toMatchObject({ sync: false });
		const quiet = await pollNow(0);
		expect(quiet.requests.sort()).toEqual([
			`PROPFIND ${bookPath} 207`,
			`PROPFIND ${calendarPath} 207`,
		]);
	});
});

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
	it('creates, renames and deletes an address book; changes, cancels and splits occurrences; keeps a changed event unless "Delete Even If Changed"', async () => {
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
