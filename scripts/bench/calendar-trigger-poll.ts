// Benchmark section: the Calendar Trigger (Event Changes) polling a calendar in which nothing
// changed, inside the real n8n against a real Radicale. A small counting proxy between n8n and Radicale
// logs each request, so requests and time per poll come from the wire. Events: BENCH_EVENTS (default 500).
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { RADICALE_USER, startRadicale } from '../../test/dav/radicale.ts';
import { table, type BenchContext, type Section } from './context.ts';

type Logged = { method: string; start: number; end?: number; status?: number };

/** Forwards every request to `target` unchanged and logs method, status and timing. */
async function countingProxy(
	target: string,
): Promise<{ url: string; log: Logged[]; close(): Promise<void> }> {
	const upstream = new URL(target);
	const log: Logged[] = [];
	const server: Server = createServer((req, res) => {
		const entry: Logged = { method: req.method ?? '?', start: performance.now() };
		log.push(entry);
		const forward = request(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: upstream.host },
			},
			(answer: IncomingMessage) => {
				entry.status = answer.statusCode;
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				answer.on('end', () => {
					entry.end = performance.now();
				});
			},
		);
		forward.on('error', () => res.destroy());
		req.pipe(forward);
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/`,
		log,
		close: () => new Promise((done) => server.close(() => done())),
	};
}

const ics = (uid: string, summary: string, start: string) =>
	[
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//bench//EN',
		'BEGIN:VEVENT',
		`UID:${uid}`,
		'DTSTAMP:20300101T000000Z',
		`DTSTART:${start}`,
		`SUMMARY:${summary}`,
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n');

function triggerWorkflow(calendarUrl: string, credential: { id: string; name: string }) {
	return {
		name: 'Bench: Calendar Trigger',
		nodes: [
			{
				id: 'f0000000-0000-4000-8000-000000000001',
				name: 'Calendar Trigger',
				type: 'n8n-nodes-cloud-storage.cloudStorageCalendarTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyHour' }] },
					calendar: { __rl: true, mode: 'url', value: calendarUrl },
					trigger: 'changes',
					events: ['created', 'updated', 'deleted'],
				},
				credentials: { cloudStorageDavApi: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

export async function benchCalendarTriggerPoll(ctx: BenchContext): Promise<Section> {
	const eventCount = Number(process.env.BENCH_EVENTS ?? 500);
	const radicale = await startRadicale();
	const proxy = await countingProxy(radicale.url);
	try {
		const calendar = await radicale.mkcalendar('bench');
		console.error(`calendar trigger: ${eventCount} events...`);
		for (let i = 0; i < eventCount; i++) {
			const day = String((i % 28) + 1).padStart(2, '0');
			const answer = await radicale.send('PUT', `${calendar}event-${i}.ics`, {
				body: ics(`event-${i}`, `Event ${i}`, `203003${day}T090000Z`),
				headers: { 'content-type': 'text/calendar' },
			});
			if (answer.status !== 201) throw new Error(`Radicale refused event ${i}: ${answer.status}`);
		}
		const calendarViaProxy = new URL(new URL(calendar).pathname, proxy.url).toString();
		const credential = await ctx.n8n.client.createCredential('cloudStorageDavApi', 'Bench DAV', {
			davUrl: proxy.url,
			...RADICALE_USER,
		});
		const workflow = await ctx.n8n.client.importWorkflow(
			triggerWorkflow(calendarViaProxy, { id: credential.id, name: credential.name }),
		);
		const client = ctx.n8n.client;

		const waitFor = async <T>(
			what: string,
			check: () => T | undefined | Promise<T | undefined>,
		): Promise<T> => {
			const deadline = Date.now() + 120_000;
			for (;;) {
				const value = await check();
				if (value) return value;
				if (Date.now() > deadline)
					throw new Error(`calendar trigger: timed out waiting for ${what}`);
				await new Promise((done) => setTimeout(done, 20));
			}
		};
		// One poll = one activation (it polls at once). Done when a request has been answered and nothing
		// is in flight for 500 ms (a poll's requests follow one another without pause), and, for the first
		// poll, the state it records is visible.
		const poll = async (first: boolean) => {
			proxy.log.length = 0;
			const before = JSON.stringify((await client.getWorkflow(workflow.id)).staticData ?? {});
			await client.activate(workflow.id);
			await waitFor('the poll', async () => {
				const last = proxy.log.at(-1);
				if (!last || proxy.log.some((entry) => entry.end === undefined)) return undefined;
				if (performance.now() - (last.end ?? 0) < 500) return undefined;
				if (!first) return true;
				return (
					JSON.stringify((await client.getWorkflow(workflow.id)).staticData ?? {}) !== before ||
					undefined
				);
			});
			await client.deactivate(workflow.id);
			const log = [...proxy.log];
			return {
				requests: log.map((entry) => `${entry.method} ${entry.status}`),
				ms: Math.max(...log.map((entry) => entry.end ?? 0)) - log[0].start,
			};
		};

		const executionsBefore = (await client.listExecutionIds(workflow.id)).length;
		const rows: string[][] = [];
		const first = await poll(true);
		rows.push([
			'first (records the state)',
			`${first.requests.length} (${first.requests.join(', ')})`,
			`${first.ms.toFixed(0)} ms`,
		]);
		for (let round = 1; round <= 3; round++) {
			const again = await poll(false);
			rows.push([
				`nothing changed #${round}`,
				`${again.requests.length} (${again.requests.join(', ')})`,
				`${again.ms.toFixed(0)} ms`,
			]);
		}
		const emitted = (await client.listExecutionIds(workflow.id)).length - executionsBefore;
		const intro =
			`A calendar of ${eventCount} events on a real Radicale; the trigger watches created, updated and deleted events. Each poll is an activation (n8n polls once at once). ` +
			'Requests and time (first request sent → last answer received) are measured by a counting proxy between n8n and Radicale. ' +
			`Executions started by the polls with nothing changed: ${emitted}.`;
		return {
			title: 'Calendar Trigger poll with nothing changed',
			markdown: [intro, '', table(['Poll', 'Requests', 'Time'], rows)].join('\n'),
		};
	} finally {
		await proxy.close();
		await radicale.stop();
	}
}
