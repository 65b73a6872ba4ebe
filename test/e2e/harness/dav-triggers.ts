/**
 * Both polling triggers in a real n8n against a DAV server, through the proxy (harness/dav-proxy.ts) that
 * sees every request and plays the server that refuses a sync-token or lacks sync-collection: the sample
 * fetch, the first activation recording both collections, created, updated and deleted objects reported
 * exactly once, a quiet poll of one request per trigger, and the fallbacks. n8n polls at most once a
 * minute, but each activation runs one poll at once with the stored static data, so deactivate + activate
 * is a deterministic "poll now". Run by dav.test.ts (Radicale) and dav-xandikos.test.ts (Xandikos).
 */
import type { Radicale } from '../../dav/radicale';
import { davProxy, type DavProxy } from './dav-proxy';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	pollOnlyOnActivation,
	type N8nInstance,
	type WorkflowRef,
} from './n8n';

export interface TriggerContext {
	n8n: N8nInstance;
	server: Radicale;
	credentialFields: { username: string; password: string };
	/** How the server answers a sync-token it never issued (RFC 6578: 403 valid-sync-token). */
	unknownTokenStatus: number;
}

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
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');
const FOREIGN_CONTACT = [
	'BEGIN:VCARD',
	'VERSION:3.0',
	'UID:other-client-contact',
	'FN:Ada Lovelace',
	'END:VCARD',
	'',
].join('\r\n');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeDavTriggers(name: string, context: () => TriggerContext): void {
	describe(`Calendar and Contacts Triggers in n8n (${name})`, () => {
		let n8n: N8nInstance;
		let server: Radicale;
		let proxy: DavProxy;
		let workflow: WorkflowRef;
		let calendarPath: string;
		let bookPath: string;
		const put = (path: string, body: string) =>
			server.send('PUT', new URL(path, server.url).href, {
				body,
				headers: { 'content-type': path.endsWith('.ics') ? 'text/calendar' : 'text/vcard' },
			});
		const remove = (path: string) => server.send('DELETE', new URL(path, server.url).href);
		const event = (uid: string, summary: string) =>
			FOREIGN_EVENT.replace('other-client-event', uid).replace('Written elsewhere', summary);
		const contact = (uid: string, name: string) =>
			FOREIGN_CONTACT.replace('other-client-contact', uid).replace('Ada Lovelace', name);
		const nodeState = async (node: string) =>
			((await n8n.client.getWorkflow(workflow.id)).staticData ?? {})[`node:${node}`]?.dav;

		beforeAll(async () => {
			({ n8n, server } = context());
			proxy = await davProxy(server.url);
			calendarPath = new URL(await server.mkcalendar('watched')).pathname;
			bookPath = new URL(await server.mkaddressbook('watched-book')).pathname;
			await put(`${calendarPath}before.ics`, event('before', 'Before'));
			await put(`${calendarPath}keep.ics`, event('keep', 'Keep'));
			await put(`${bookPath}before.vcf`, contact('before', 'Charles Babbage'));
			const viaProxy = await n8n.client.createCredential('cloudStorageDavApi', 'DAV via proxy', {
				davUrl: proxy.url,
				...context().credentialFields,
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
			expect(quiet.requests.sort()).toEqual(
				[`REPORT ${bookPath} sync(token) 207`, `REPORT ${calendarPath} sync(token) 207`].sort(),
			);
		});

		it('after the server rejects the sync-token, a full sync compared by ETag reports each change once, deletions included', async () => {
			const tokenBefore = (await nodeState('Calendar Trigger')).token;
			await remove(`${calendarPath}keep.ics`);
			await put(`${calendarPath}third.ics`, event('third', 'Third'));
			await put(`${bookPath}new.vcf`, contact('new', 'Grace Brewster Hopper'));
			proxy.mode = 'reject-token';
			const rejected = await pollNow(2);
			proxy.mode = 'pass';
			expect(rejected.requests.filter((line) => line.includes('sync')).sort()).toEqual(
				[
					`REPORT ${bookPath} sync(initial) 207`,
					`REPORT ${bookPath} sync(token) 403`,
					`REPORT ${calendarPath} sync(initial) 207`,
					`REPORT ${calendarPath} sync(token) 403`,
				].sort(),
			);
			expect(rejected.emitted).toEqual([
				'Calendar Trigger: created third.ics Third',
				'Calendar Trigger: deleted keep.ics',
				'Contacts Trigger: updated new.vcf Grace Brewster Hopper',
			]);
			expect((await nodeState('Calendar Trigger')).token).not.toBe(tokenBefore);
			const quiet = await pollNow(0);
			expect(quiet.requests.sort()).toEqual(
				[`REPORT ${bookPath} sync(token) 207`, `REPORT ${calendarPath} sync(token) 207`].sort(),
			);
		});

		it(`the real server answering an unknown sync-token (${name}: ${context().unknownTokenStatus}) makes a full sync that reports each change once`, async () => {
			await put(`${calendarPath}fifth.ics`, event('fifth', 'Fifth'));
			await put(`${bookPath}fifth.vcf`, contact('fifth', 'Katherine Johnson'));
			proxy.mode = 'stale-token';
			const stale = await pollNow(2);
			proxy.mode = 'pass';
			const status = context().unknownTokenStatus;
			expect(stale.requests.filter((line) => line.includes('sync')).sort()).toEqual(
				[
					`REPORT ${bookPath} sync(initial) 207`,
					`REPORT ${bookPath} sync(token) ${status}`,
					`REPORT ${calendarPath} sync(initial) 207`,
					`REPORT ${calendarPath} sync(token) ${status}`,
				].sort(),
			);
			expect(stale.emitted).toEqual([
				'Calendar Trigger: created fifth.ics Fifth',
				'Contacts Trigger: created fifth.vcf Katherine Johnson',
			]);
			const quiet = await pollNow(0);
			expect(quiet.requests.sort()).toEqual(
				[`REPORT ${bookPath} sync(token) 207`, `REPORT ${calendarPath} sync(token) 207`].sort(),
			);
		});

		it('a server refusing sync-collection is compared by ETag from a listing, and is not asked to sync again', async () => {
			await remove(`${calendarPath}third.ics`);
			await remove(`${calendarPath}fifth.ics`);
			await put(`${bookPath}fourth.vcf`, contact('fourth', 'Hedy Lamarr'));
			proxy.mode = 'no-sync';
			const refused = await pollNow(2);
			proxy.mode = 'pass';
			expect(refused.emitted).toEqual([
				'Calendar Trigger: deleted fifth.ics',
				'Calendar Trigger: deleted third.ics',
				'Contacts Trigger: created fourth.vcf Hedy Lamarr',
			]);
			expect(await nodeState('Calendar Trigger')).toMatchObject({ sync: false });
			expect(await nodeState('Contacts Trigger')).toMatchObject({ sync: false });
			const quiet = await pollNow(0);
			expect(quiet.requests.sort()).toEqual(
				[`PROPFIND ${bookPath} 207`, `PROPFIND ${calendarPath} 207`].sort(),
			);
		});
	});
}
