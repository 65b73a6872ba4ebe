// Crash runs for the polling triggers: n8n's main process is killed with SIGKILL at seeded moments around a
// poll while the watched service keeps changing, restarted on the same data folder each time (in queue mode
// Redis and the worker keep running); at the end the changes made are compared with the items n8n kept in its
// executions. One loop for every trigger: a trigger supplies a CrashTarget (crash-targets.ts,
// crash-dav-targets.ts). Used by trigger-crash.test.ts (reduced) and by `npm run crash` (full, writes
// test/crash-report.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { pollOnlyOnActivation, startN8n, type N8nInstance } from './n8n';
import type { N8nClient } from '../../../scripts/lib/n8n-client.ts';
import { freePort } from '../../../scripts/lib/processes.ts';

export type Scheduler = 'default' | 'durable';
export type Mode = 'regular' | 'queue';
/** Where the kill lands: while the poll's first answer is held back, within 40 ms after the poll's last
 * answer, or 40-400 ms after it (the execution being created and saved). */
export type KillMoment = 'during poll' | 'after poll returned' | 'while execution saved';

/** One request a trigger's poll sent to the watched service, as the service (or a proxy) logged it. */
export interface PollRequest {
	name: string;
	answered: boolean;
}

/** What a trigger brings to a crash run. Every change is made by the harness and has a key. */
export interface CrashTarget {
	/** The row's name in the report. */
	trigger: string;
	/** The trigger node's name in `workflow`. */
	node: string;
	/** The workflow, parameters filled in (the schedule is moved out of the way by the harness). */
	workflow: Record<string, any>;
	credential: { type: string; data: Record<string, string> };
	/** Makes 1-3 changes now; returns their keys. */
	change(random: () => number): Promise<string[]>;
	/** The key of the change an emitted item reports; undefined for an item none of our changes explains. */
	keyOf(json: Record<string, any>): string | undefined;
	/** Every request of this trigger's polls so far, oldest first. */
	pollRequests(): PollRequest[];
	/** Whether the requests of one poll (from its first) include its last answer. */
	pollAnswered(requests: PollRequest[]): boolean;
	/** Holds back the answer to the next poll's first request for `ms`. */
	holdNextAnswer(ms: number): void;
	/** Drops what holdNextAnswer left (a kill may come before the request). */
	release(): void;
	close(): Promise<void>;
}

/** A kill (1-based) and the changes missed or emitted twice that its poll carried. */
export interface KillCost {
	kill: number;
	moment: KillMoment;
	/** Milliseconds from when the harness saw this trigger's poll answered to the kill (none: not answered). */
	afterAnswerMs?: number;
	carried: number;
	missed: number;
	twice: number;
}

export interface CrashRunOptions {
	scheduler: Scheduler;
	mode: Mode;
	crashes: number;
	seed: number;
}

export interface CrashRunResult {
	trigger: string;
	scheduler: Scheduler;
	mode: Mode;
	changes: number;
	crashes: number;
	once: number;
	missed: number;
	twice: number;
	/** Executions n8n kept that did not finish (killed while they ran or were saved). */
	unfinished: number;
	/** Changes made after the last kill that showed in no execution within LAST_POLLS_MS (0 expected). */
	lateAfterLastKill: number;
	/** Executions still new or running (and not known dead) when the harness stopped waiting for them to settle. */
	stillBusy: number;
	/** How many executions n8n kept in each shape (executionShape): which of them the kills met. */
	shapes: Partial<Record<ExecutionShape, number>>;
	/** Items no change of the run explains (0 expected). */
	unexplained: number;
	/** Changes emitted more than once with different eventIds (0 expected: the id is the change's). */
	idsDiffer: number;
	moments: KillMoment[];
	/** Per kill that cost this trigger a change: what it lost or repeated, and when it struck. */
	costlyKills: KillCost[];
	/** The triggers active in the same n8n, sharing these kills. */
	together: number;
	minutes: number;
}

/**
/**
 * The publication outbox lease. n8n applies an (de)activation from its publication outbox under a lease (2 min by
 * default): a record a killed main left "in progress" blocks the workflow's next ones until the lease ends. n8n
 * aborts the work at 70 % of the lease and hands the record to another pass when it ends, so the lease must outlast
 * an activation with its first poll: at 2 s, five activations at once in queue mode overran it ("Workflow
 * publication processing exceeded its deadline"), were taken up again with nothing left to add, and two workflows
 * never polled; at load 12 on 2 cores every activation was aborted. 30 s leaves an activation 21 s.
 */
const OUTBOX_LEASE_SECONDS = 30;

/** n8n 2.41.1's durable scheduler with durable poll cursors, and a short outbox lease after a kill. */
export function schedulerEnv(scheduler: Scheduler): Record<string, string> {
	const common = {
		N8N_WORKFLOW_PUBLICATION_OUTBOX_LEASE_SECONDS: String(OUTBOX_LEASE_SECONDS),
		N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '1000',
	};
	if (scheduler === 'default') return common;
	return {
		...common,
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
		N8N_SCHEDULER_MATERIALIZATION_INTERVAL: '1',
		N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
	};
}

/** mulberry32: the same seed gives the same kill moments and change counts. */
export function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until<T>(
	what: string,
	check: () => Promise<T | undefined | false> | T | undefined | false,
	timeoutMs = 90_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(5);
	}
}

/**
 * Whether the execution is the one n8n saves for a poll that threw (createErrorExecutionData): the trigger's run holds
 * the error without a status and its start data a placeholder item (`{json: {}}`), not the poll's. Other runs with an
 * error have a status, and the poll's items stay in the start data: `crashed` (n8n's crash recovery, a node that only
 * started) or `error` (the node failed inside the workflow run; n8n puts its input back on the stack).
 */
export function pollFailed(data: Record<string, any>, trigger: string): boolean {
	const runs = (data.resultData?.runData?.[trigger] ?? []) as Array<Record<string, any>>;
	return runs.some((run) => run.error && run.executionStatus === undefined);
}

/** The shapes an execution of a poll can be in when the tally reads it (crash-items.test.ts builds each). */
export type ExecutionShape =
	| 'ran'
	| 'not run'
	| 'recovered: finished, run data lost'
	| 'recovered: started only'
	| 'failed in the run'
	| 'failed poll';

export function executionShape(data: Record<string, any>, trigger: string): ExecutionShape {
	if (pollFailed(data, trigger)) return 'failed poll';
	const runs = (data.resultData?.runData?.[trigger] ?? []) as Array<Record<string, any>>;
	if (!runs.length) return 'not run';
	if (runs.some((run) => run.executionStatus === 'crashed')) return 'recovered: started only';
	if (runs.some((run) => run.executionStatus === 'error')) return 'failed in the run';
	const artificial = runs.some((run) =>
		(run.data?.main?.[0] ?? []).some(
			(item: Record<string, any>) => item.json?.isArtificialRecoveredEventItem,
		),
	);
	return artificial ? 'recovered: finished, run data lost' : 'ran';
}

/**
 * Every item of the trigger that n8n kept: the trigger's run output, or the start data of an unfinished run (created
 * and never started, or killed while it ran: n8n saves nothing of a run before it ends). n8n's crash recovery adds a
 * run for a node the event log shows started but whose run data was never saved: without data if the node did not
 * finish, with one artificial item (`isArtificialRecoveredEventItem`) if it did. The trigger's items are then still
 * only in the start data. A failed poll emitted nothing. crash-items.test.ts builds each shape with n8n's code.
 */
export function triggerItems(
	data: Record<string, any>,
	trigger: string,
): Array<Record<string, any>> {
	if (pollFailed(data, trigger)) return [];
	const runs = (data.resultData?.runData?.[trigger] ?? []) as Array<Record<string, any>>;
	const output = runs
		.flatMap((run) => (run.data?.main?.[0] ?? []) as Array<Record<string, any>>)
		.filter((item) => !item.json?.isArtificialRecoveredEventItem);
	if (output.length) return output;
	const stack = (data.executionData?.nodeExecutionStack ?? []) as Array<Record<string, any>>;
	return stack
		.filter((entry) => entry.node?.name === trigger)
		.flatMap((entry) => entry.data?.main?.[0] ?? []);
}

/** One execution as n8n's list of executions answers it. */
interface Listed {
	id: string;
	status: string;
	startedAt?: string | null;
}

/** Every execution of the workflow (n8n's list answers at most 100 a page, 20 unless asked). */
async function allExecutions(client: N8nClient, workflowId: string): Promise<Listed[]> {
	const executions = new Map<string, Listed>();
	let cursor: string | null = null;
	do {
		const query = `filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
		const response = await client.fetch(`/rest/executions?${query}`);
		if (!response.ok) throw new Error(`listing executions answered ${response.status}`);
		const page = ((await response.json()) as { data: Record<string, any> }).data;
		for (const execution of page.results as Listed[])
			executions.set(String(execution.id), { ...execution, id: String(execution.id) });
		cursor = (page.nextCursor as string | null | undefined) ?? null;
	} while (cursor);
	return [...executions.values()];
}

/** How long the executions may take to settle; longer is reported (CrashRunResult.stillBusy), not waited out. */
const SETTLE_MS = 120_000;

/**
 * The workflow's executions once none is new or running any more (queue mode: the worker finishes what main
 * enqueued before it died) and three looks a second apart saw the same. In regular mode an execution still
 * "running" that started before the last main did is dead: n8n's recovery leaves one killed before any node event
 * "running" for good (crash-items.test.ts). After SETTLE_MS the ones still busy are returned as such.
 */
async function settled(
	client: N8nClient,
	workflowId: string,
	dead: (execution: Listed) => boolean,
): Promise<{ ids: string[]; stillBusy: string[] }> {
	const deadline = Date.now() + SETTLE_MS;
	let previous = '';
	let executions: Listed[] = [];
	let busy: Listed[] = [];
	for (let quiet = 0; quiet < 3; ) {
		executions = await allExecutions(client, workflowId);
		busy = executions.filter(
			(execution) =>
				(execution.status === 'new' || execution.status === 'running') && !dead(execution),
		);
		const now = JSON.stringify(executions.map(({ id, status }) => [id, status]));
		quiet = !busy.length && now === previous ? quiet + 1 : 0;
		previous = now;
		if (Date.now() > deadline) break;
		await sleep(1000);
	}
	return { ids: executions.map(({ id }) => id), stillBusy: busy.map(({ id }) => id) };
}

/** Every change's count of emitted items, from every execution n8n kept of the target's workflow. */
async function tally(
	client: N8nClient,
	target: CrashTarget,
	workflowId: string,
	made: string[],
	dead: (execution: Listed) => boolean,
): Promise<
	Omit<
		CrashRunResult,
		| 'scheduler'
		| 'mode'
		| 'crashes'
		| 'moments'
		| 'costlyKills'
		| 'together'
		| 'minutes'
		| 'lateAfterLastKill'
	> & { emitted: Map<string, number> }
> {
	const seen = new Map<string, Set<string>>();
	const counts = new Map<string, number>();
	let unfinished = 0;
	let unexplained = 0;
	const shapes: Partial<Record<ExecutionShape, number>> = {};
	const { ids, stillBusy } = await settled(client, workflowId, dead);
	for (const id of ids) {
		const execution = await client.getExecution(id);
		if (!execution.finished) unfinished++;
		const shape = executionShape(execution.data, target.node);
		shapes[shape] = (shapes[shape] ?? 0) + 1;
		for (const item of triggerItems(execution.data, target.node)) {
			const eventId = item.json?.eventId;
			if (!eventId)
				throw new Error(
					`execution ${id} (${execution.status}) of ${target.trigger} holds an item without eventId, a shape the ` +
						`harness does not know (see crash-items.test.ts): ${JSON.stringify(item.json)}`,
				);
			const key = target.keyOf(item.json);
			if (key === undefined) {
				unexplained++;
				continue;
			}
			counts.set(key, (counts.get(key) ?? 0) + 1);
			seen.set(key, (seen.get(key) ?? new Set()).add(String(eventId)));
		}
	}
	const emitted = made.map((key) => counts.get(key) ?? 0);
	return {
		trigger: target.trigger,
		changes: made.length,
		once: emitted.filter((count) => count === 1).length,
		missed: emitted.filter((count) => count === 0).length,
		twice: emitted.filter((count) => count > 1).length,
		unfinished,
		stillBusy: stillBusy.length,
		shapes,
		unexplained: unexplained + [...counts.keys()].filter((key) => !made.includes(key)).length,
		idsDiffer: [...seen.values()].filter((ids) => ids.size > 1).length,
		emitted: counts,
	};
}

/** How long the changes made after the last kill may take to show in executions; longer is reported. */
const LAST_POLLS_MS = 120_000;

/**
 * Waits until every change made after the last kill shows in an execution n8n kept (those are the last polls', with
 * nothing killed: n8n creates their executions after the polls' answers, so the tally waits on them, not on a
 * pause); per target, how many did not within LAST_POLLS_MS (CrashRunResult.lateAfterLastKill).
 */
async function afterLastKill(
	client: N8nClient,
	runs: Array<{ target: CrashTarget; workflowId: string; made: string[]; kills: KillRecord[] }>,
): Promise<number[]> {
	const deadline = Date.now() + LAST_POLLS_MS;
	const read = new Map<string, string[]>();
	const waiting = runs.map(({ made, kills }) => new Set(made.slice(kills.at(-1)?.upTo ?? 0)));
	for (;;) {
		for (const [i, { target, workflowId }] of runs.entries()) {
			if (!waiting[i].size) continue;
			for (const { id } of await allExecutions(client, workflowId)) {
				let keys = read.get(id);
				if (!keys) {
					const execution = await client.getExecution(id);
					keys = triggerItems(execution.data, target.node).flatMap(
						(item) => target.keyOf(item.json) ?? [],
					);
					// An unfinished execution's items are its start data: they will not change either.
					read.set(id, keys);
				}
				for (const key of keys) waiting[i].delete(key);
			}
		}
		if (waiting.every((keys) => !keys.size) || Date.now() > deadline)
			return waiting.map((keys) => keys.size);
		await sleep(500);
	}
}

interface KillRecord {
	moment: KillMoment;
	/** How many changes were made before this kill's poll. */
	upTo: number;
	afterAnswerMs?: number;
}

/** Which kill's poll lost or repeated which changes: a change belongs to the first poll after it that was answered
 * (a poll killed before its answer hands its changes on to the next). */
function killCosts(kills: KillRecord[], made: string[], emitted: Map<string, number>): KillCost[] {
	const costs: KillCost[] = [];
	let from = 0;
	kills.forEach((kill, index) => {
		if (kill.afterAnswerMs === undefined) return;
		const carried = made.slice(from, kill.upTo);
		from = kill.upTo;
		const missed = carried.filter((key) => !emitted.get(key)).length;
		const twice = carried.filter((key) => (emitted.get(key) ?? 0) > 1).length;
		if (missed || twice)
			costs.push({
				kill: index + 1,
				moment: kill.moment,
				afterAnswerMs: kill.afterAnswerMs,
				carried: carried.length,
				missed,
				twice,
			});
	});
	return costs;
}

/**
 * One crash run: every target's workflow active in one n8n, all polled together (deactivate + activate runs
 * one poll at once), n8n's main killed `crashes` times around those polls and restarted; one result per
 * target. Several targets share the kills (the reduced test), one target is one row of the report.
 */
export async function crashRun(
	targets: CrashTarget[],
	options: CrashRunOptions,
): Promise<CrashRunResult[]> {
	const { scheduler, mode, crashes } = options;
	const random = seeded(options.seed);
	const began = Date.now();
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-crash-'));
	const n8n: N8nInstance = await startN8n({
		mode,
		userFolder,
		port: await freePort(),
		// n8n 2.41.1's insights module throws on recovering an execution killed while it was saved (startedAt null:
		// "Cannot read properties of null (reading 'getTime')") and main exits on the restart; insights are not under test.
		env: { ...schedulerEnv(scheduler), N8N_DISABLED_MODULES: 'mcp-registry,insights' },
	});
	const runs = targets.map((target) => ({
		target,
		made: [] as string[],
		kills: [] as KillRecord[],
		workflowId: '',
	}));
	const moments: KillMoment[] = [];
	/** When the harness last started n8n's main: in regular mode nothing that started before runs any more. */
	let mainStartedAt = Date.now();
	const change = async () => {
		for (const run of runs) run.made.push(...(await run.target.change(random)));
	};
	/**
	 * Until n8n has applied every (de)activation of the workflows (nothing pending or in progress in its
	 * publication outbox, which also holds the re-activations of a restart). A deactivation still pending when
	 * the activation comes is merged with it into one record that changes nothing: no poll would run.
	 */
	const published = async () =>
		await until(
			"n8n's publication outbox to apply the workflows' (de)activations",
			async () => {
				for (const { workflowId } of runs) {
					const { status } = await n8n.client.request<{ status: string }>(
						'GET',
						`/rest/workflows/${workflowId}/publication-status`,
					);
					if (status === 'in_progress') {
						await sleep(200); // each look is a request to n8n's main
						return false;
					}
				}
				return true;
			},
			180_000,
		);
	/** One poll of every trigger now. Resolves once each has begun, with a check that all were answered, which
	 * notes when the harness first saw each answered. */
	const pollNow = async (reactivate: boolean) => {
		if (reactivate) {
			await published();
			for (const run of runs) await n8n.client.deactivate(run.workflowId);
			await published();
		}
		const before = runs.map((run) => run.target.pollRequests().length);
		const refused: string[] = [];
		for (const run of runs)
			void n8n.client
				.activate(run.workflowId)
				.catch((error: Error) => refused.push(`${run.target.trigger}: ${error.message}`));
		const requests = runs.map((run, i) => () => run.target.pollRequests().slice(before[i]));
		const answeredAt: Array<number | undefined> = runs.map(() => undefined);
		const answered = () => {
			runs.forEach((run, i) => {
				if (answeredAt[i] === undefined && run.target.pollAnswered(requests[i]()))
					answeredAt[i] = Date.now();
			});
			return answeredAt.every((at) => at !== undefined);
		};
		// A record a killed main left leased blocks the activation until the lease runs out, then it has 70 % of one.
		await until(
			'the polls to reach their services',
			() => {
				if (refused.length) throw new Error(`n8n refused an activation: ${refused.join('; ')}`);
				return answered() || requests.every((sent) => sent().length > 0);
			},
			(OUTBOX_LEASE_SECONDS * 2 + 60) * 1000,
		).catch((error: Error) => {
			throw new Error(`${error.message}; n8n's log: ${n8n.main.logFile}`);
		});
		return Object.assign(answered, { answeredAt });
	};

	try {
		for (const run of runs) {
			const credential = await n8n.client.createCredential(
				run.target.credential.type,
				`Crash run ${run.target.trigger}`,
				run.target.credential.data,
			);
			run.workflowId = (
				await n8n.client.importWorkflow(
					pollOnlyOnActivation(structuredClone(run.target.workflow)),
					{ credentials: { [credential.type]: credential } },
				)
			).id;
		}
		// Activation: the first poll records where each trigger starts (with durable cursors in one execution
		// without items, which n8n commits with the state).
		await pollNow(false);
		for (const { target, workflowId } of runs)
			await until('the recorded baseline', async () =>
				scheduler === 'durable'
					? (await n8n.client.listExecutionIds(workflowId)).length > 0
					: Object.keys(
							(await n8n.client.getWorkflow(workflowId)).staticData?.[`node:${target.node}`] ?? {},
						).length > 0,
			);

		for (let crash = 0; crash < crashes; crash++) {
			await change();
			const moment: KillMoment = (
				['during poll', 'after poll returned', 'while execution saved'] as const
			)[Math.floor(random() * 3)];
			moments.push(moment);
			if (moment === 'during poll') for (const run of runs) run.target.holdNextAnswer(400);
			const answered = await pollNow(true);
			if (moment !== 'during poll') {
				await until('the polls to be answered', answered);
				await sleep(moment === 'after poll returned' ? random() * 40 : 40 + random() * 360);
			} else {
				// Under load a held answer may come before the kill: note when, as for the other moments.
				const killAt = Date.now() + random() * 200;
				while (Date.now() < killAt) {
					answered();
					await sleep(Math.min(5, killAt - Date.now()));
				}
			}
			answered();
			process.kill(n8n.main.pid, 'SIGKILL');
			const killedAt = Date.now();
			runs.forEach((run, i) => {
				const at = answered.answeredAt[i];
				run.kills.push({
					moment,
					upTo: run.made.length,
					afterAnswerMs: at === undefined ? undefined : killedAt - at,
				});
			});
			if (process.env.CRASH_FULL === '1')
				process.stdout.write(
					`kill ${crash + 1} (${moment}): ${runs.map((run) => `${run.target.trigger} ${run.kills.at(-1)!.afterAnswerMs ?? '-'} ms`).join(', ')}\n`,
				);
			for (const run of runs) run.target.release();
			await change();
			mainStartedAt = Date.now();
			await n8n.restartMain();
		}
		// A last poll with nothing killed, then every execution n8n kept.
		await change();
		await until('the last polls to be answered', await pollNow(true));
		const late = await afterLastKill(n8n.client, runs);
		const dead = (execution: Listed) =>
			mode === 'regular' &&
			execution.status === 'running' &&
			Date.parse(execution.startedAt ?? '') < mainStartedAt;
		const results: CrashRunResult[] = [];
		for (const [i, { target, workflowId, made, kills }] of runs.entries()) {
			const { emitted, ...counted } = await tally(n8n.client, target, workflowId, made, dead);
			results.push({
				...counted,
				lateAfterLastKill: late[i],
				costlyKills: killCosts(kills, made, emitted),
				scheduler,
				mode,
				crashes,
				moments,
				together: runs.length,
				minutes: (Date.now() - began) / 60_000,
			});
		}
		return results;
	} finally {
		for (const run of runs)
			if (run.workflowId) await n8n.client.deactivate(run.workflowId).catch(() => undefined);
		await n8n.stop();
		for (const run of runs) await run.target.close();
		if (process.env.N8N_E2E_KEEP_TMP !== '1') rmSync(userFolder, { recursive: true, force: true });
	}
}

export function reportRow(result: CrashRunResult): string {
	return `| ${result.trigger} | ${result.scheduler === 'durable' ? 'durable + durable cursors' : 'default'} | ${result.mode} | ${result.changes} | ${result.crashes} | ${result.once} | ${result.missed} | ${result.twice} |`;
}
