/**
 * Queue mode under load (issue #39), only with LOAD_FULL=1 (`npm run load`, scripts/load.mjs; skipped in
 * `npm test`): n8n 2.41.1 in queue mode (main + Redis + two workers), 50 workflows started at once — uploads,
 * downloads, DMS creates and comments, Calendar and Contacts updates against Radicale — while the Storage, DMS,
 * E-Signature, Calendar and Contacts Triggers are active on their every-minute schedule, and the sandbox and the
 * DAV fault proxy inject their seeded faults (6% of requests) into everything, polls included. Afterwards each
 * item is compared with what the sandbox / Radicale holds, each trigger's items with the changes made, every
 * execution must have ended within STUCK_AFTER_MS, and each worker's peak memory is read. The figures go to
 * the section "Queue-mode load run" at the end of test/crash-report.md.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { RADICALE_USER, startRadicale, type Radicale } from '../dav/radicale';
import { DMS_SEED, dmsOf } from '../sandbox/dms/state';
import { sqlDateTime } from '../sandbox/ids';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { startFaultProxy, type FaultProxy } from './faults/fault-proxy';
import {
	itemsNode,
	linearWorkflow,
	randomFaults,
	reportsByIndex,
	type Report,
	requestOptions,
	SLOW_WRITE_MS,
} from './faults/tally';
import { createServiceCredential } from './harness/credentials';
import {
	emptyVerdict,
	executionsOf,
	judge,
	mib,
	sandboxIdle,
	sampleWorkerMemory,
	writeLoadSection,
	type Verdict,
} from './harness/load';
import {
	describeErrors,
	loadWorkflow,
	startN8n,
	type CredentialRef,
	type ExecutionSummary,
	type N8nInstance,
} from './harness/n8n';

const FULL = process.env.LOAD_FULL === '1';
/** Items per execution (10 in the reported run; LOAD_ITEMS=n for a quicker local try). */
const ITEMS = Number(process.env.LOAD_ITEMS ?? 10);
const FAULT_RATE = 0.06;
const SEED = 3939;
/** An execution not finished or errored this long after it was started counts as stuck. */
const STUCK_AFTER_MS = 5 * 60_000;
/** How long the triggers get, after the load and with faults off, to report every change. */
const TRIGGER_SETTLE_MS = 3 * 60_000;
/** Each worker's resident memory must stay below this. */
const WORKER_RSS_LIMIT_KIB = 1536 * 1024;
/** Executions per workflow kind: 50 together. */
const MIX = { upload: 12, download: 10, dmsCreate: 10, dmsComment: 8, calendar: 5, contacts: 5 };
const SIGNATURES = 20;

jest.setTimeout(40 * 60_000);

type Kind = keyof typeof MIX;
type Json = Record<string, any>;
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const mapping = (value: Json) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});
/** The input index an output item is paired with (n8n writes a number or `{ item }`, alone or in a list). */
const pairedIndex = (item: Json) => {
	const paired = [item.pairedItem].flat()[0];
	return typeof paired === 'number' ? paired : paired?.item;
};
const hasLine = (text: string, line: string) => text.split(/\r?\n/).includes(line);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const EVENT = (uid: string) =>
	[
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Load//EN',
		'BEGIN:VEVENT',
		`UID:${uid}`,
		'DTSTAMP:20300101T000000Z',
		'DTSTART:20300110T100000Z',
		'DTEND:20300110T110000Z',
		`SUMMARY:${uid}`,
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n');
const CONTACT = (uid: string) =>
	['BEGIN:VCARD', 'VERSION:3.0', `UID:${uid}`, `FN:${uid}`, 'END:VCARD', ''].join('\r\n');

(FULL ? describe : describe.skip)('queue mode under load (LOAD_FULL=1, npm run load)', () => {
	let sandbox: Sandbox;
	let radicale: Radicale;
	let proxy: FaultProxy;
	let n8n: N8nInstance;
	let token: CredentialRef;
	let dav: CredentialRef;
	let runStarted = 0;
	beforeAll(async () => {
		runStarted = Date.now();
		sandbox = await startSandbox({ port: 0 });
		radicale = await startRadicale();
		proxy = await startFaultProxy(radicale.url);
		n8n = await startN8n({ mode: 'queue', workers: 2 });
		token = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
			name: 'Load',
		});
		dav = await n8n.client.createCredential('cloudStorageDavApi', 'Load DAV', {
			davUrl: proxy.url,
			username: RADICALE_USER.username,
			password: RADICALE_USER.password,
		});
	});
	afterAll(async () => {
		sandbox?.faults.clear();
		proxy?.setFaults(0, 0);
		await n8n?.stop();
		await proxy?.close();
		await radicale?.stop();
		await sandbox?.close();
	});

	it('50 executions at once on two workers under faults: nothing lost, duplicated or stuck', async () => {
		const store = sandbox.store;
		const demo = store.accountByLogin(DEMO_ACCOUNT.username)!;
		const root = store.rootOf(demo);
		const uploads = store.createFolder(demo, root, 'load uploads', 'PRIVATE');
		const downloads = store.createFolder(demo, root, 'load downloads', 'PRIVATE');
		const signed = store.createFolder(demo, root, 'load signatures', 'PRIVATE');
		const toDownload = store.bulkCreate(demo, {
			folders: 0,
			filesPerFolder: MIX.download * ITEMS,
			parent: downloads,
			filePrefix: 'd-',
		}).files;
		const toSign = store.bulkCreate(demo, {
			folders: 0,
			filesPerFolder: SIGNATURES,
			parent: signed,
			filePrefix: 's-',
		}).files;
		const org = () => dmsOf(store).organisations.get(DMS_SEED.organisation)!;
		const tasks = () => [...org().documents.values()].filter((doc) => doc.section === 'task');
		const commentTargets = range(MIX.dmsComment * ITEMS).map(
			(i) =>
				dmsOf(store).insert(org(), {
					section: 'task',
					values: { dvs_project_id: 11, name: `load comment target ${i}`, followers: [] },
					creatorId: DMS_SEED.users.demo,
				}).id,
		);
		const tasksBefore = new Set(tasks().map((task) => task.id));
		const calendar = await radicale.mkcalendar('load');
		const book = await radicale.mkaddressbook('load-book');
		for (const i of range(MIX.calendar * ITEMS))
			await radicale.send('PUT', `${calendar}e-${i}.ics`, {
				body: EVENT(`e-${i}`),
				headers: { 'content-type': 'text/calendar' },
			});
		for (const i of range(MIX.contacts * ITEMS))
			await radicale.send('PUT', `${book}c-${i}.vcf`, {
				body: CONTACT(`c-${i}`),
				headers: { 'content-type': 'text/vcard' },
			});
		const viaProxy = (url: string) => url.replace(radicale.url, proxy.url);

		// The triggers, on their every-minute schedule; activation records each one's baseline.
		const triggers = await activateTriggers(n8n, token, dav, {
			uploads: uploads.hash,
			signed: signed.hash,
			calendar: viaProxy(calendar),
			book: viaProxy(book),
		});

		// 50 workflows, each Manual Trigger → Items → (Make File) → the node under test, with Continue On Fail.
		const node = (type: string, credential: CredentialRef, parameters: Json) => ({
			name: 'Node',
			type: `n8n-nodes-cloud-storage.${type}`,
			typeVersion: 1,
			parameters: { ...parameters, requestOptions },
			credentials: { [credential.type]: { id: credential.id, name: credential.name } },
			onError: 'continueRegularOutput',
		});
		const storage = (parameters: Json) =>
			node('cloudStorage', token, { authentication: 'tokenApi', resource: 'file', ...parameters });
		const dms = (parameters: Json) =>
			node('cloudStorageDmsTask', token, { resource: 'task', ...parameters });
		const builders: Record<Kind, (run: number) => Parameters<typeof linearWorkflow>[1]> = {
			upload: (run) => [
				itemsNode(
					range(ITEMS).map((i) => ({
						fileName: `u-${run}-${i}.txt`,
						content: `load ${run} ${i}\n`,
					})),
				),
				{
					name: 'Make File',
					type: 'n8n-nodes-base.convertToFile',
					typeVersion: 1.1,
					parameters: {
						operation: 'toText',
						sourceProperty: 'content',
						options: { fileName: '={{ $json.fileName }}' },
					},
				},
				storage({
					operation: 'upload',
					folder: { __rl: true, mode: 'id', value: uploads.hash },
					binaryPropertyName: 'data',
					options: {},
				}),
			],
			download: (run) => [
				itemsNode(range(ITEMS).map((i) => ({ hash: toDownload[run * ITEMS + i].hash }))),
				storage({
					operation: 'download',
					file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
					binaryPropertyName: 'data',
				}),
			],
			dmsCreate: (run) => [
				itemsNode(range(ITEMS).map((i) => ({ name: `load task ${run}-${i}` }))),
				dms({
					operation: 'create',
					project: { __rl: true, mode: 'id', value: '11' },
					fields: mapping({ name: '={{ $json.name }}' }),
				}),
			],
			dmsComment: (run) => [
				itemsNode(
					range(ITEMS).map((i) => ({
						id: commentTargets[run * ITEMS + i],
						text: `load comment ${run}-${i}`,
					})),
				),
				dms({
					operation: 'addComment',
					documentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					comment: '={{ $json.text }}',
				}),
			],
			calendar: (run) => [
				itemsNode(
					range(ITEMS).map((i) => ({
						url: viaProxy(`${calendar}e-${run * ITEMS + i}.ics`),
						summary: `load updated ${run}-${i}`,
					})),
				),
				node('cloudStorageCalendar', dav, {
					resource: 'event',
					operation: 'update',
					eventUrl: '={{ $json.url }}',
					updateFields: { summary: '={{ $json.summary }}' },
				}),
			],
			contacts: (run) => [
				itemsNode(
					range(ITEMS).map((i) => ({
						url: viaProxy(`${book}c-${run * ITEMS + i}.vcf`),
						title: `load updated ${run}-${i}`,
					})),
				),
				node('cloudStorageContacts', dav, {
					resource: 'contact',
					operation: 'update',
					contactUrl: '={{ $json.url }}',
					updateFields: { title: '={{ $json.title }}' },
				}),
			],
		};
		const runs: Array<{ kind: Kind; run: number; workflowId: string }> = [];
		for (const kind of Object.keys(MIX) as Kind[])
			for (const run of range(MIX[kind])) {
				const workflow = await n8n.client.importWorkflow(
					linearWorkflow(`Load ${kind} ${run}`, builders[kind](run)),
				);
				runs.push({ kind, run, workflowId: workflow.id });
			}

		// Faults on for everything from here: the load's requests and the triggers' scheduled polls.
		sandbox.faults.setRandom({ ...randomFaults(SEED, { slow: true }), rate: FAULT_RATE });
		proxy.setFaults(FAULT_RATE, SEED + 1);
		const memory = sampleWorkerMemory(n8n);
		const loadStarted = Date.now();
		const refusedStarts: string[] = [];
		const started = await Promise.all(
			runs.map(async ({ workflowId }) => {
				for (let attempt = 1; ; attempt++) {
					try {
						const answer = await n8n.client.request<Json>(
							'POST',
							`/rest/workflows/${workflowId}/run`,
							{ triggerToStartFrom: { name: 'Start' } },
						);
						return { id: String(answer.executionId), at: Date.now() };
					} catch (error) {
						// n8n refused to start it (SQLite busy, see the report): started again only when n8n holds no
						// execution of the workflow, so a start is never doubled.
						const text = String(error);
						const refusal =
							/answered (\d+): .*?"message":"([^"]*)"/.exec(text)?.slice(1).join(' ') ??
							text.slice(0, 160);
						if (attempt > 3 || (await executionsOf(n8n, workflowId)).length > 0)
							return { id: '', at: Date.now(), error: refusal };
						refusedStarts.push(refusal);
						await sleep(1000);
					}
				}
			}),
		);
		// Each signature lands as an execution of the load ends, so the E-Signature Trigger's polls meet them mid-load.
		const signatures: string[] = [];
		const sign = () => {
			const file = toSign[signatures.length];
			if (!file) return;
			store.esign.signatures.push({
				fileId: file.id,
				file_hash: file.hash,
				signing_timestamp: sqlDateTime(store.unix()),
				signer_name: `Signer ${signatures.length}`,
			});
			signatures.push(`${file.hash} Signer ${signatures.length}`);
		};
		const ended = new Map<string, { status: string; at: number }>();
		const executions = new Map<string, Json>();
		for (;;) {
			const open = started.filter((s) => s.id && !ended.has(s.id));
			if (open.length === 0 || Date.now() - loadStarted > STUCK_AFTER_MS) break;
			for (const { id } of open) {
				const response = await n8n.client.fetch(`/rest/executions/${id}`);
				if (!response.ok) continue;
				const execution = ((await response.json()) as Json).data as Json;
				if (['new', 'running', 'waiting'].includes(execution.status)) continue;
				ended.set(id, { status: execution.status, at: Date.now() });
				sign();
				// Every 10 ended executions, each trigger polls at once (under faults), besides its schedule.
				if (ended.size % 10 === 0 && ended.size < runs.length) await pollNow(n8n, triggers);
			}
			await sleep(1000);
		}
		const loadMs = Date.now() - loadStarted;
		while (signatures.length < SIGNATURES) sign();
		sandbox.faults.clear();
		proxy.setFaults(0, 0);
		// A write held back past its Timeout lands afterwards: wait until the sandbox has handled every request (the
		// proxy adds no such write here) before the service is read.
		await sandboxIdle(() => sandbox.requests.list(), SLOW_WRITE_MS + 120_000);

		// Every item of the load against the service's state.
		const verdicts = Object.fromEntries(
			(Object.keys(MIX) as Kind[]).map((kind) => [kind, emptyVerdict()]),
		) as Record<Kind, Verdict>;
		const stuck: string[] = [];
		const objects = (name: string) => {
			const dir = join(radicale.dir, 'collections/collection-root', RADICALE_USER.username, name);
			return readdirSync(dir)
				.filter((file) => /\.(ics|vcf)$/.test(file))
				.map((file) => readFileSync(join(dir, file), 'utf8').replace(/\r\n[ \t]/g, ''));
		};
		const withLine = (texts: string[], line: string) =>
			texts.filter((text) => hasLine(text, line)).length;
		const events = objects('load');
		const contacts = objects('load-book');
		const live = [...store.files.values()].filter((f) => !f.deleted);
		const ranOn = n8n.workers.map(() => 0);
		const failedRuns: string[] = [];
		for (const [n, { kind, run }] of runs.entries()) {
			const start = started[n];
			const end = start.id ? ended.get(start.id) : undefined;
			if (!end) stuck.push(`${kind} ${run}: ${start.error ?? `execution ${start.id} not ended`}`);
			const execution = end ? await n8n.client.getExecution(start.id) : undefined;
			if (execution) executions.set(start.id, execution);
			// The node under test continues on fail: an execution that failed as a whole failed elsewhere; say where.
			if (execution && execution.status !== 'success')
				failedRuns.push(
					`${kind} ${run}: execution ${execution.id} ${execution.status}${execution.nodes.Node ? '' : ' without a run of the node under test (its items count as failed)'}: ${describeErrors(execution)}`,
				);
			n8n.workers.forEach((worker, w) => {
				if (
					start.id &&
					new RegExp(`execution ${start.id}\\b`).test(readFileSync(worker.logFile, 'utf8'))
				)
					ranOn[w]++;
			});
			const { reports, outputs } = reportsOf(execution, `${kind} ${run}`, verdicts[kind]);
			for (const i of range(ITEMS)) {
				const label = `${kind} ${run} item ${i}`;
				let applied = 0;
				if (kind === 'upload')
					applied = live.filter(
						(f) => f.folderId === uploads.id && f.sha256 === sha256(`load ${run} ${i}\n`),
					).length;
				else if (kind === 'download') {
					// The output item paired with input i (the summary drops pairedItem, the raw run data keeps it).
					const outputItems = ((execution?.data.resultData as Json)?.runData?.Node?.[0]?.data
						?.main?.[0] ?? []) as Json[];
					const binary = outputItems.find((item) => pairedIndex(item) === i)?.binary?.data;
					applied =
						reports[i] === 'ok' && binary
							? Number(
									sha256(await n8n.client.downloadBinary(binary)) ===
										toDownload[run * ITEMS + i].sha256,
								)
							: 0;
				} else if (kind === 'dmsCreate')
					applied = tasks().filter(
						(task) => !tasksBefore.has(task.id) && task.values.name === `load task ${run}-${i}`,
					).length;
				else if (kind === 'dmsComment')
					applied = org().comments.filter(
						(c) =>
							c.taskId === commentTargets[run * ITEMS + i] && c.text === `load comment ${run}-${i}`,
					).length;
				else if (kind === 'calendar')
					applied = withLine(events, `SUMMARY:load updated ${run}-${i}`);
				else applied = withLine(contacts, `TITLE:load updated ${run}-${i}`);
				judge(verdicts[kind], label, reports[i], outputs[i]?.outcome, applied);
			}
		}

		// The triggers: one more poll each with faults off (deactivate + activate polls at once), then every
		// change made since activation must have been emitted exactly once.
		const expected: Record<string, string[]> = {
			'Storage Trigger': live.filter((f) => f.folderId === uploads.id).map((f) => f.hash),
			'DMS Trigger': tasks()
				.filter((task) => !tasksBefore.has(task.id))
				.map((task) => String(task.id)),
			'E-Signature Trigger': signatures,
			'Calendar Trigger': range(MIX.calendar * ITEMS)
				.filter((i) =>
					events.some((text) => hasLine(text, `UID:e-${i}`) && /SUMMARY:load updated/.test(text)),
				)
				.map((i) => `e-${i}.ics`),
			'Contacts Trigger': range(MIX.contacts * ITEMS)
				.filter((i) =>
					contacts.some((text) => hasLine(text, `UID:c-${i}`) && /TITLE:load updated/.test(text)),
				)
				.map((i) => `c-${i}.vcf`),
		};
		const triggerResults = await settleTriggers(n8n, triggers, expected, stuck);
		const workers = memory.stop();
		const totalMs = Date.now() - runStarted;

		const total = Object.values(verdicts).reduce(
			(sum, v) => ({
				lost: sum.lost + v.lost,
				duplicated: sum.duplicated + v.duplicated,
				misreported: sum.misreported + v.misreported,
			}),
			{ lost: 0, duplicated: 0, misreported: 0 },
		);
		const missed = Object.values(triggerResults).reduce((sum, t) => sum + t.missed, 0);
		const twice = Object.values(triggerResults).reduce((sum, t) => sum + t.twice, 0);
		const statuses = [...ended.values()].reduce<Record<string, number>>(
			(acc, e) => ({ ...acc, [e.status]: (acc[e.status] ?? 0) + 1 }),
			{},
		);
		const slowest = Math.max(...started.map((s) => (ended.get(s.id)?.at ?? Date.now()) - s.at));
		const lines = [
			`Written by \`npm run load\` (test/e2e/queue-load.test.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC:`,
			`n8n 2.41.1 in queue mode (main + Redis + ${n8n.workers.length} workers, worker concurrency n8n's default 10, SQLite,`,
			`default scheduler), ${runs.length} executions started at once (manual runs sent to the workers), ${ITEMS} items each:`,
			`${Object.entries(MIX)
				.map(([kind, count]) => `${count} ${kind}`)
				.join(', ')}; the Storage, DMS, E-Signature, Calendar and Contacts Triggers active`,
			`(every minute) with ${SIGNATURES} signatures, the DMS creates, the uploads and the DAV updates to report. Faults: ${FAULT_RATE * 100}% of`,
			'all requests to the sandbox (429, 500, 503, dropped before/after, slow answers and writes past the 2 s Timeout)',
			'and to Radicale (through the fault proxy), trigger polls included. "Unknown" outcomes count as "may have been',
			`applied", not as lost. Stuck: an execution not ended ${STUCK_AFTER_MS / 60_000} min after its start.`,
			'',
			'| Workflow | Executions | Items | Done | May have been applied | Reported failed | Lost | Duplicated |',
			'|---|---|---|---|---|---|---|---|',
			...(Object.keys(MIX) as Kind[]).map((kind) => {
				const v = verdicts[kind];
				return `| ${kind} | ${MIX[kind]} | ${v.asked} | ${v.done} | ${v.mayHaveBeenApplied} | ${v.reportedFailed} | ${v.lost} | ${v.duplicated} |`;
			}),
			'',
			'| Trigger | Changes | Emitted once | Missed | Emitted twice | Executions |',
			'|---|---|---|---|---|---|',
			...Object.entries(triggerResults).map(
				([name, t]) =>
					`| ${name} | ${t.changes} | ${t.once} | ${t.missed} | ${t.twice} | ${t.executions} |`,
			),
			'',
			`- Lost ${total.lost}, Duplicated ${total.duplicated}, wrong "not-applied" outcomes ${total.misreported}; triggers: Missed ${missed}, Emitted twice ${twice}.`,
			`- Stuck ${stuck.length} (executions ended: ${Object.entries(statuses)
				.map(([s, n]) => `${n} ${s}`)
				.join(
					', ',
				)}); the slowest took ${(slowest / 1000).toFixed(1)} s from its start; the load ran ${(loadMs / 1000).toFixed(1)} s.`,
			`- Executions per worker (from the workers' logs): ${ranOn.map((n, w) => `${n8n.workers[w].name} ${n}`).join(', ')}.`,
			`- Peak RSS per worker (VmHWM; its task runner's peak VmRSS sampled every second): ${workers
				.map((w) => `${w.name} ${mib(w.peakKib)} (runner ${mib(w.runnerPeakKib)})`)
				.join(', ')}.`,
			`- Duration: ${(totalMs / 60_000).toFixed(1)} min in all (n8n with two workers started, set-up, load, triggers settled).`,
			`- Starts n8n refused (answered 500, no execution made, started again): ${refusedStarts.length}${refusedStarts[0] ? `, e.g. ${refusedStarts[0]}` : ''}.`,
			...[...failedRuns, ...Object.values(verdicts).flatMap((v) => v.problems), ...stuck]
				.slice(0, 20)
				.map((p) => `- ${p}`),
		];
		writeLoadSection(join(__dirname, '..', 'crash-report.md'), lines);
		console.log(lines.join('\n'));

		expect({ ...total, stuck, missed, twice }).toEqual({
			lost: 0,
			duplicated: 0,
			misreported: 0,
			stuck: [],
			missed: 0,
			twice: 0,
		});
		for (const worker of workers) expect(worker.peakKib).toBeLessThan(WORKER_RSS_LIMIT_KIB);
		expect(ranOn.every((n) => n > 0)).toBe(true);
	});
});

/** The node's report per item; an output that cannot be paired (or pairs twice) counts every item as unreported. */
function reportsOf(execution: ExecutionSummary | undefined, label: string, verdict: Verdict) {
	const unreported = { reports: range(ITEMS).map((): Report => 'missing'), outputs: [] as Json[] };
	if (!execution) return unreported;
	// n8n failed the execution and kept no run of the node under test (seen: SQLITE_BUSY, three processes on one
	// SQLite file, in Make File's binary write or the workflow's save): the user sees it failed. A node before it that
	// failed stopped the run: nothing was sent (an item the service holds is misreported). Otherwise what the node
	// did is unknown (its run data may not have been saved): each item "may have been applied".
	if (execution.status !== 'success' && !execution.nodes.Node) {
		const upstream = Object.values(execution.nodes).some((runs) => runs.some((run) => run.error));
		return {
			reports: range(ITEMS).map((): Report => 'failed'),
			outputs: range(ITEMS).map(() => ({ outcome: upstream ? 'not-applied' : 'unknown' })),
		};
	}
	try {
		return reportsByIndex(execution, 'Node', ITEMS);
	} catch (error) {
		verdict.problems.push(`${label}: ${(error as Error).message}`);
		return unreported;
	}
}

type TriggerWorkflows = Record<string, { workflowId: string; node: string }>;

/** The four trigger workflows (Calendar and Contacts share one), activated; resolves once each baseline is stored. */
async function activateTriggers(
	n8n: N8nInstance,
	token: CredentialRef,
	dav: CredentialRef,
	where: { uploads: string; signed: string; calendar: string; book: string },
): Promise<TriggerWorkflows> {
	const storage = loadWorkflow('storage-trigger.json');
	Object.assign(storage.nodes[0].parameters, {
		folder: { __rl: true, mode: 'id', value: where.uploads },
		includeSubfolders: false,
		download: false,
		events: ['fileCreated'],
	});
	const esign = loadWorkflow('esignature-trigger.json');
	esign.nodes = esign.nodes.filter((n: Json) =>
		['Cloud Storage E-Signature Trigger', 'Received'].includes(n.name),
	);
	delete esign.connections['Cloud Storage DMS Trigger'];
	Object.assign(esign.nodes[0].parameters, {
		folder: { __rl: true, mode: 'id', value: where.signed },
		download: false,
	});
	const davTriggers = loadWorkflow('dav-triggers.json');
	davTriggers.nodes[0].parameters.calendar.value = where.calendar;
	davTriggers.nodes[0].parameters.events = ['updated'];
	davTriggers.nodes[1].parameters.addressBook.value = where.book;
	davTriggers.nodes[1].parameters.events = ['updated'];
	const definitions: Array<[string, Json, string]> = [
		['Storage Trigger', storage, 'Cloud Storage Trigger'],
		['DMS Trigger', loadWorkflow('dms-trigger.json'), 'Cloud Storage DMS Trigger'],
		['E-Signature Trigger', esign, 'Cloud Storage E-Signature Trigger'],
		['Calendar Trigger', davTriggers, 'Calendar Trigger'],
		['Contacts Trigger', davTriggers, 'Contacts Trigger'],
	];
	const result: TriggerWorkflows = {};
	const imported = new Map<Json, string>();
	for (const [name, definition, node] of definitions) {
		if (!imported.has(definition)) {
			const workflow = await n8n.client.importWorkflow(definition, {
				credentials: { cloudStorageTokenApi: token, cloudStorageDavApi: dav },
				name: `Load ${name}`,
			});
			await n8n.client.activate(workflow.id);
			imported.set(definition, workflow.id);
		}
		result[name] = { workflowId: imported.get(definition)!, node };
	}
	const deadline = Date.now() + 120_000;
	for (const { workflowId, node } of Object.values(result)) {
		for (;;) {
			const staticData = (await n8n.client.getWorkflow(workflowId)).staticData ?? {};
			if (Object.keys(staticData[`node:${node}`] ?? {}).length > 0) break;
			if (Date.now() > deadline) throw new Error(`${node}: no baseline recorded after activation`);
			await sleep(250);
		}
	}
	return result;
}

/**
 * One poll of every trigger now: activation polls at once. A poll that fails (faults) fails the activation and
 * leaves the workflow inactive without moving its cursor, so activation is tried again, as a user would.
 */
async function pollNow(n8n: N8nInstance, triggers: TriggerWorkflows) {
	for (const workflowId of new Set(Object.values(triggers).map((t) => t.workflowId))) {
		await n8n.client.deactivate(workflowId);
		for (let attempt = 1; ; attempt++) {
			try {
				await n8n.client.activate(workflowId);
				break;
			} catch (error) {
				if (attempt >= 5) throw error;
				await sleep(1000);
			}
		}
	}
}

/** The key of one emitted item, matching `expected` of the load run. */
function keyOf(name: string, json: Json): string | undefined {
	if (name === 'Storage Trigger') return json.event === 'fileCreated' ? json.hash : undefined;
	if (name === 'DMS Trigger')
		return json.event === 'taskCreated' ? String(json.dvs_document_id) : undefined;
	if (name === 'E-Signature Trigger') return `${json.file_hash} ${json.signer_name}`;
	return json.event === 'updated' ? new URL(String(json.url)).pathname.split('/').pop() : undefined;
}

/**
 * Polls each trigger once more (deactivate + activate; faults are off by now), waits until every expected change
 * was emitted (or TRIGGER_SETTLE_MS passed) and every trigger execution ended, then counts the items per change.
 */
async function settleTriggers(
	n8n: N8nInstance,
	triggers: TriggerWorkflows,
	expected: Record<string, string[]>,
	stuck: string[],
) {
	await pollNow(n8n, triggers);
	const deadline = Date.now() + TRIGGER_SETTLE_MS;
	const count = async () => {
		const results: Record<
			string,
			{ counts: Map<string, number>; executions: number; open: string[] }
		> = {};
		for (const [name, { workflowId, node }] of Object.entries(triggers)) {
			const counts = new Map<string, number>();
			const open: string[] = [];
			let executions = 0;
			for (const summary of await executionsOf(n8n, workflowId)) {
				if (['new', 'running', 'waiting'].includes(summary.status)) {
					open.push(String(summary.id));
					continue;
				}
				const execution = await n8n.client.getExecution(String(summary.id));
				const runsOfNode = (execution.data.resultData as Json)?.runData?.[node] as
					| Json[]
					| undefined;
				if (!runsOfNode) continue;
				executions++;
				for (const item of runsOfNode.flatMap((run) => run.data?.main?.[0] ?? [])) {
					const key = keyOf(name, item.json ?? {});
					if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
				}
			}
			results[name] = { counts, executions, open };
		}
		return results;
	};
	let results = await count();
	while (
		Date.now() < deadline &&
		Object.entries(results).some(
			([name, r]) => r.open.length > 0 || expected[name].some((key) => !r.counts.has(key)),
		)
	) {
		await sleep(2000);
		results = await count();
	}
	for (const [name, r] of Object.entries(results)) {
		stuck.push(...r.open.map((id) => `${name}: execution ${id} not ended`));
		const late = expected[name].filter((key) => !r.counts.has(key)).length;
		if (late)
			stuck.push(
				`${name}: ${late} change(s) not emitted ${TRIGGER_SETTLE_MS / 60_000} min after the last poll (counted as missed)`,
			);
	}
	return Object.fromEntries(
		Object.entries(results).map(([name, r]) => {
			const counts = expected[name].map((key) => r.counts.get(key) ?? 0);
			return [
				name,
				{
					changes: expected[name].length,
					once: counts.filter((c) => c === 1).length,
					missed: counts.filter((c) => c === 0).length,
					twice:
						counts.filter((c) => c > 1).length +
						[...r.counts.keys()].filter((k) => !expected[name].includes(k) && r.counts.get(k)! > 1)
							.length,
					executions: r.executions,
				},
			];
		}),
	);
}
