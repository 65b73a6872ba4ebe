/**
 * The Storage Trigger against crashes of n8n itself (reduced form; the full form is `npm run crash`): n8n's
 * main process is killed with SIGKILL around a poll (while the listing is answered, just after, while the
 * execution is saved) and restarted on the same data folder, files keep arriving; at the end every file
 * must have been emitted, and with the durable scheduler and durable cursors exactly once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox } from '../sandbox/server';
import { reportRow, storageCrashRun, type CrashRunResult, type Scheduler } from './harness/crash';

/** `npm run crash` (scripts/crash.mjs) sets these: the full matrix instead of the reduced test. */
const FULL = process.env.CRASH_FULL === '1';
const CRASHES = Number(process.env.CRASH_COUNT ?? 20);
const SCHEDULERS = (process.env.CRASH_SCHEDULERS ?? 'default,durable').split(',') as Scheduler[];

jest.setTimeout(600_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

(FULL ? describe.skip : describe)('Storage Trigger, n8n killed around polls', () => {
	it('durable scheduler + durable cursors, regular mode: every file exactly once across 3 kills', async () => {
		const result = await storageCrashRun({
			sandbox,
			scheduler: 'durable',
			mode: 'regular',
			crashes: 3,
			seed: 39,
		});
		expect({ missed: result.missed, twice: result.twice }).toEqual({ missed: 0, twice: 0 });
		expect(result.once).toBe(result.changes);
	});
});

const HEADER = `| Trigger | Scheduler | Mode | Changes | Crashes | Emitted once | Missed | Emitted twice |
|---|---|---|---|---|---|---|---|`;

function writeReport(results: CrashRunResult[]) {
	const details = results.map(
		(result) =>
			`- ${result.trigger}, ${result.scheduler}, ${result.mode}: ${result.unfinished} execution(s) left unfinished; kills ${result.moments.join(', ') || 'none'}`,
	);
	writeFileSync(
		join(__dirname, '..', 'crash-report.md'),
		[
			'# Crash report',
			'',
			`Written by \`npm run crash\` (${new Date().toISOString().slice(0, 10)}, n8n 2.41.1, SQLite): n8n's main process`,
			'SIGKILLed at seeded moments around a poll, restarted on the same data folder; files keep arriving; every',
			'file is one change. "Emitted" counts the items n8n kept in its executions (finished or not).',
			'',
			HEADER,
			...results.map(reportRow),
			'',
			...details,
			'',
		].join('\n'),
	);
}

(FULL ? describe : describe.skip)('full crash matrix (npm run crash)', () => {
	it('runs every configuration and writes test/crash-report.md', async () => {
		const results: CrashRunResult[] = [];
		for (const scheduler of SCHEDULERS) {
			results.push(
				await storageCrashRun({ sandbox, scheduler, mode: 'regular', crashes: CRASHES, seed: 39 }),
			);
			writeReport(results);
		}
	});
});
