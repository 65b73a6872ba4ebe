// Crash runs for the polling triggers: n8n's main process is killed with SIGKILL at seeded moments around a
// poll while the sandbox keeps changing, restarted on the same data folder each time; at the end the changes
// made are compared with the items n8n kept in its executions (by eventId). Used by trigger-crash.test.ts
// (reduced) and by `npm run crash` (full, writes test/crash-report.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { startSandbox } from '../../sandbox/server';
import { createServiceCredential } from './credentials';
import { loadWorkflow, pollOnlyOnActivation, startN8n, type N8nInstance } from './n8n';
import { freePort } from '../../../scripts/lib/processes.ts';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export type Scheduler = 'default' | 'durable';
/** Where the kill lands: while the listing is answered, within 40 ms after it, or 40-400 ms after it. */
export type KillMoment = 'during poll' | 'after poll returned' | 'while execution saved';

export interface CrashRunOptions {
	sandbox: Sandbox;
	scheduler: Scheduler;
	mode: 'regular' | 'queue';
	crashes: number;
	seed: number;
}

export interface CrashRunResult {
	trigger: string;
	scheduler: Scheduler;
	mode: 'regular' | 'queue';
	changes: number;
	crashes: number;
	once: number;
	missed: number;
	twice: number;
	/** Executions n8n kept that did not finish (killed while they ran or were saved). */
	unfinished: number;
	moments: KillMoment[];
}

/** n8n 2.41.1's durable scheduler with durable poll cursors, and a short outbox lease after a kill. */
export function schedulerEnv(scheduler: Scheduler): Record<string, string> {
	const common = { N8N_WORKFLOW_PUBLICATION_OUTBOX_LEASE_SECONDS: '2' };
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined) {
	const deadline = Date.now() + 90_000;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(5);
	}
}

/** Every item of the trigger that n8n kept: the trigger's run output, or the start data of an unfinished run. */
function triggerItems(data: Record<string, any>, trigger: string): Array<Record<string, any>> {
	const runs = data.resultData?.runData?.[trigger] as Array<Record<string, any>> | undefined;
	if (runs?.length) return runs.flatMap((run) => run.data?.main?.[0] ?? []);
	const stack = (data.executionData?.nodeExecutionStack ?? []) as Array<Record<string, any>>;
	return stack
		.filter((entry) => entry.node?.name === trigger)
		.flatMap((entry) => entry.data?.main?.[0] ?? []);
}

/** The Storage Trigger watching one folder for new files, while files keep arriving and n8n is killed. */
export async function storageCrashRun(options: CrashRunOptions): Promise<CrashRunResult> {
	const { sandbox, scheduler, mode, crashes } = options;
	const random = seeded(options.seed);
	const trigger = 'Cloud Storage Trigger';
	const demo = sandbox.store.accountByLogin('demo')!;
	const folder = sandbox.store.createFolder(
		demo,
		sandbox.store.rootOf(demo),
		`crash ${scheduler} ${mode} ${options.seed} ${Date.now()}`,
		'PRIVATE',
	);
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-crash-'));
	const port = await freePort();
	const env = schedulerEnv(scheduler);
	const start = async () => await startN8n({ mode, userFolder, port, env });
	let n8n: N8nInstance = await start();
	const made: string[] = [];
	const moments: KillMoment[] = [];
	let batch = 0;
	let workflowId = '';
	const addFiles = () => {
		const count = 1 + Math.floor(random() * 3);
		const { files } = sandbox.store.bulkCreate(demo, {
			folders: 0,
			filesPerFolder: count,
			parent: folder,
			filePrefix: `b${++batch} `,
		});
		made.push(...files.map((file) => file.hash));
	};
	const listings = () =>
		sandbox.requests.list().filter((entry) => entry.action === 'get_folder_content');
	/** One poll now: n8n runs a poll whenever the workflow is activated. Resolves when the listing was asked. */
	const pollNow = async (reactivate: boolean) => {
		const before = listings().length;
		if (reactivate) await n8n.client.deactivate(workflowId);
		void n8n.client.activate(workflowId).catch(() => undefined);
		await until('the poll to ask for the listing', () => listings().length > before);
		return listings()[before];
	};

	try {
		const credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
			name: 'Crash run',
		});
		const definition = pollOnlyOnActivation(loadWorkflow('storage-trigger.json'));
		Object.assign(definition.nodes[0].parameters, {
			folder: { __rl: true, mode: 'id', value: folder.hash },
			includeSubfolders: false,
			download: false,
			events: ['fileCreated'],
		});
		workflowId = (
			await n8n.client.importWorkflow(definition, {
				credentials: { [credential.type]: credential },
			})
		).id;
		sandbox.store.bulkCreate(demo, {
			folders: 0,
			filesPerFolder: 2,
			parent: folder,
			filePrefix: 'before ',
		});
		// Activation: the first poll records the folder (with durable cursors in one execution without items).
		await pollNow(false);
		await until('the recorded baseline', async () =>
			scheduler === 'durable'
				? (await n8n.client.listExecutionIds(workflowId)).length > 0
				: ((await n8n.client.getWorkflow(workflowId)).staticData?.[`node:${trigger}`] as any)
						?.state,
		);

		for (let crash = 0; crash < crashes; crash++) {
			addFiles();
			const moment: KillMoment = (
				['during poll', 'after poll returned', 'while execution saved'] as const
			)[Math.floor(random() * 3)];
			moments.push(moment);
			if (moment === 'during poll')
				sandbox.faults.add({
					match: { path: 'get_folder_content' },
					fault: 'slow-answer',
					delayMs: 400,
					times: 1,
				});
			const polled = await pollNow(true);
			if (moment !== 'during poll') {
				await until('the listing to be answered', () => polled.status !== null);
				await sleep(moment === 'after poll returned' ? random() * 40 : 40 + random() * 360);
			} else await sleep(random() * 200);
			process.kill(n8n.main.pid, 'SIGKILL');
			await n8n.main.exited;
			sandbox.faults.clear();
			await n8n.stop();
			addFiles();
			n8n = await start();
		}
		// A last poll with nothing killed, then every execution n8n kept.
		addFiles();
		await pollNow(true);
		await sleep(3000);
		const seen = new Map<string, number>();
		let unfinished = 0;
		for (const id of await n8n.client.listExecutionIds(workflowId)) {
			const execution = await n8n.client.getExecution(id);
			if (!execution.finished) unfinished++;
			for (const item of triggerItems(execution.data, trigger)) {
				const key = String(item.json?.eventId ?? '');
				if (item.json?.hash)
					seen.set(String(item.json.hash), (seen.get(String(item.json.hash)) ?? 0) + 1);
				if (!key) throw new Error(`an item without eventId: ${JSON.stringify(item.json)}`);
			}
		}
		const counts = made.map((hash) => seen.get(hash) ?? 0);
		return {
			trigger: 'Storage Trigger',
			scheduler,
			mode,
			changes: made.length,
			crashes,
			once: counts.filter((count) => count === 1).length,
			missed: counts.filter((count) => count === 0).length,
			twice: counts.filter((count) => count > 1).length,
			unfinished,
			moments,
		};
	} finally {
		await n8n.stop();
		if (process.env.N8N_E2E_KEEP_TMP !== '1') rmSync(userFolder, { recursive: true, force: true });
	}
}

export function reportRow(result: CrashRunResult): string {
	return `| ${result.trigger} | ${result.scheduler === 'durable' ? 'durable + durable cursors' : 'default'} | ${result.mode} | ${result.changes} | ${result.crashes} | ${result.once} | ${result.missed} | ${result.twice} |`;
}
