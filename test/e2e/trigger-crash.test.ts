/**
 * The polling triggers against crashes of n8n itself (harness/crash.ts): n8n's main process is killed with
 * SIGKILL around a poll (while the poll's first answer is held back, just after its last answer, while the
 * execution is saved) and restarted on the same data folder while changes keep coming; at the end every
 * change must have been emitted, and with the durable scheduler and durable cursors exactly once.
 * `npm test` runs the reduced form: the Storage Trigger and the Calendar Trigger (against Radicale) active in
 * one n8n, 3 kills around their polls, durable scheduler, regular mode. `npm run crash` (CRASH_FULL=1) runs the chosen configurations
 * and writes test/crash-report.md.
 */
import { join } from 'node:path';

import { startRadicale, type Radicale } from '../dav/radicale';
import { startSandbox } from '../sandbox/server';
import {
	crashRun,
	type CrashRunResult,
	type CrashTarget,
	type Mode,
	type Scheduler,
} from './harness/crash';
import { davTarget } from './harness/crash-dav-targets';
import { writeReport } from './harness/crash-report';
import { dmsTarget, esignatureTarget, storageTarget } from './harness/crash-targets';

/** `npm run crash` (scripts/crash.mjs) sets CRASH_FULL; the others narrow the full form. */
const FULL = process.env.CRASH_FULL === '1';
const CRASHES = Number(process.env.CRASH_COUNT ?? 20);
const list = (name: string, all: string) => (process.env[name] ?? all).split(',').filter(Boolean);
const TRIGGERS = list('CRASH_TRIGGERS', 'storage,dms,esignature,calendar,startsSoon,contacts');
const SCHEDULERS = list('CRASH_SCHEDULERS', 'durable,default') as Scheduler[];
const MODES = list('CRASH_MODES', 'regular,queue') as Mode[];
const SEED = Number(process.env.CRASH_SEED ?? 39);
const TOGETHER = process.env.CRASH_TOGETHER === '1';

// The reduced run takes 2 min idle and 5 min at load 2 on 2 cores; 20 min lets the harness's own bounds (each
// at most 3 min, crash.ts) expire first and say what they waited for, on a slower machine too.
jest.setTimeout(FULL ? 4 * 3600_000 : 20 * 60_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let radicale: Radicale | undefined;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => {
	await radicale?.stop();
	await sandbox?.close();
});
const dav = async () => (radicale ??= await startRadicale());

async function target(name: string, label: string): Promise<CrashTarget> {
	if (name === 'storage') return storageTarget(sandbox, label);
	if (name === 'dms') return await dmsTarget(sandbox, label);
	if (name === 'esignature') return esignatureTarget(sandbox, label);
	if (name === 'calendar' || name === 'startsSoon' || name === 'contacts')
		return await davTarget(await dav(), name, label);
	throw new Error(
		`CRASH_TRIGGERS: unknown trigger "${name}" (storage, dms, esignature, calendar, startsSoon, contacts)`,
	);
}

const counts = ({ missed, twice, unexplained, idsDiffer, lateAfterLastKill }: CrashRunResult) => ({
	missed,
	twice,
	unexplained,
	idsDiffer,
	lateAfterLastKill,
});

(FULL ? describe.skip : describe)('triggers with n8n killed around polls (reduced)', () => {
	let results: CrashRunResult[] = [];
	beforeAll(async () => {
		results = await crashRun(
			[await target('storage', 'reduced'), await target('calendar', 'reduced')],
			{ scheduler: 'durable', mode: 'regular', crashes: 3, seed: SEED },
		);
		for (const result of results)
			process.stdout.write(
				`${result.trigger}, seed ${SEED}, kills ${result.moments.join(' / ')}: ${result.changes} changes, ${result.once} once, ` +
					`${result.missed} missed, ${result.twice} twice; ${result.unfinished} unfinished, ${result.stillBusy} still busy; executions: ` +
					`${JSON.stringify(result.shapes)} (${result.minutes.toFixed(1)} min)\n`,
			);
	});

	it.each(['Storage Trigger', 'Calendar Trigger (changes)'])(
		'%s, durable scheduler + durable cursors, regular mode: every change exactly once across 3 kills',
		(trigger) => {
			const result = results.find((entry) => entry.trigger === trigger)!;
			expect(counts(result)).toEqual({
				missed: 0,
				twice: 0,
				unexplained: 0,
				idsDiffer: 0,
				lateAfterLastKill: 0,
			});
			expect(result.once).toBe(result.changes);
		},
	);
});

(FULL ? describe : describe.skip)('full crash matrix (npm run crash)', () => {
	it('runs the chosen configurations and writes test/crash-report.md', async () => {
		const report = join(__dirname, '..', 'crash-report.md');
		// CRASH_TOGETHER=1: the chosen triggers active in one n8n, sharing its kills (one run per configuration).
		const groups = TOGETHER ? [TRIGGERS] : TRIGGERS.map((name) => [name]);
		for (const scheduler of SCHEDULERS)
			for (const mode of MODES)
				for (const group of groups) {
					const targets: CrashTarget[] = [];
					for (const name of group) targets.push(await target(name, `${scheduler} ${mode}`));
					const results = await crashRun(targets, {
						scheduler,
						mode,
						crashes: CRASHES,
						seed: SEED,
					});
					writeReport(report, results);
					for (const result of results)
						process.stdout.write(
							`${result.trigger}, ${scheduler}, ${mode}: ${result.changes} changes, ${result.once} once, ${result.missed} missed, ${result.twice} twice (${result.minutes.toFixed(1)} min)\n`,
						);
				}
	});
});
