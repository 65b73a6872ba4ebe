// test/crash-report.md, written by `npm run crash` one configuration at a time: a run replaces the rows and
// notes of the configurations it measured and keeps the others (runs are split to share the machine), and
// everything from the "## Queue-mode load run" section on is another run's and is kept as it is.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { reportRow, type CrashRunResult, type Mode, type Scheduler } from './crash';

export const TRIGGERS = [
	'Storage Trigger',
	'DMS Trigger',
	'E-Signature Trigger',
	'Calendar Trigger (changes)',
	'Calendar Trigger (starts within)',
	'Contacts Trigger',
];
const SCHEDULERS: Scheduler[] = ['durable', 'default'];
const MODES: Mode[] = ['regular', 'queue'];
const HEADER = [
	'| Trigger | Scheduler | Mode | Changes | Crashes | Emitted once | Missed | Emitted twice |',
	'|---|---|---|---|---|---|---|---|',
];
const NOTES = '## Runs';
const KEPT_SECTION = '## Queue-mode load run';

const schedulerName = (scheduler: Scheduler) =>
	scheduler === 'durable' ? 'durable + durable cursors' : 'default';
const keyOf = (trigger: string, scheduler: string, mode: string) =>
	`${trigger} | ${scheduler} | ${mode}`;
const rowKey = (row: string) =>
	row
		.split('|')
		.slice(1, 4)
		.map((cell) => cell.trim())
		.join(' | ');

function note(result: CrashRunResult): string {
	const moments = new Map<string, number>();
	for (const moment of result.moments) moments.set(moment, (moments.get(moment) ?? 0) + 1);
	const kills = [...moments].map(([moment, n]) => `${n} ${moment}`).join(', ') || 'none';
	const shared =
		result.together > 1 ? `, shared by the ${result.together} triggers active in one n8n` : '';
	const costs = result.costlyKills.map(
		(cost) =>
			`kill ${cost.kill} (${cost.moment}, ${cost.afterAnswerMs} ms after the harness saw this trigger's poll answered) ` +
			`${[cost.missed ? `missed ${cost.missed}` : '', cost.twice ? `repeated ${cost.twice}` : ''].filter(Boolean).join(' and ')} of the ${cost.carried} change(s) its poll carried`,
	);
	return (
		`- ${keyOf(result.trigger, schedulerName(result.scheduler), result.mode)}: ${result.crashes} kills (${kills}${shared}); ` +
		`${result.unfinished} execution(s) left unfinished; ${result.unexplained} item(s) no change explains; ` +
		`${result.idsDiffer} change(s) emitted twice under different eventIds; ` +
		`executions: ${Object.entries(result.shapes)
			.map(([shape, n]) => `${n} ${shape}`)
			.join(', ')}; ` +
		(result.stillBusy
			? `${result.stillBusy} execution(s) still new or running after 2 min; `
			: '') +
		(result.lateAfterLastKill
			? `${result.lateAfterLastKill} change(s) made after the last kill not in any execution after 2 min; `
			: '') +
		(costs.length ? `${costs.join('; ')}; ` : '') +
		`${result.minutes.toFixed(1)} min ` +
		`(${new Date().toISOString().slice(0, 10)}).`
	);
}

export function writeReport(file: string, results: CrashRunResult[]): void {
	const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
	const keptAt = old.indexOf(KEPT_SECTION);
	const kept = keptAt >= 0 ? old.slice(keptAt) : '';
	const head = keptAt >= 0 ? old.slice(0, keptAt) : old;
	const rows = new Map<string, string>();
	for (const line of head.split('\n'))
		if (/^\| (?!Trigger \|)[^-]/.test(line) && !line.includes('| not run |'))
			rows.set(rowKey(line), line);
	const notes = new Map<string, string>();
	const notesAt = head.indexOf(NOTES);
	if (notesAt >= 0)
		for (const line of head.slice(notesAt).split('\n'))
			if (line.startsWith('- ')) notes.set(line.slice(2, line.indexOf(':')), line);
	for (const result of results) {
		const key = keyOf(result.trigger, schedulerName(result.scheduler), result.mode);
		rows.set(key, reportRow(result));
		notes.set(key, note(result));
	}
	const table: string[] = [];
	for (const trigger of TRIGGERS)
		for (const scheduler of SCHEDULERS)
			for (const mode of MODES) {
				const key = keyOf(trigger, schedulerName(scheduler), mode);
				table.push(rows.get(key) ?? `| ${key} | not run | | | | |`);
			}
	const text = [
		'# Crash report',
		'',
		"Written by `npm run crash` (n8n 2.41.1, SQLite): n8n's main process SIGKILLed at seeded moments around a",
		'poll (while its first answer is held back 400 ms, within 40 ms after its last answer, 40-400 ms after it',
		'while the execution is created and saved) and restarted on the same data folder; in queue mode only main is',
		'killed, Redis and the worker keep running. Changes keep coming between the kills; each is one event (an',
		'update or deletion touches an object made before activation, once), so a change is emitted once, missed or',
		'emitted twice. "Emitted" counts the items n8n kept in its executions, finished or not. Rows are measured one',
		'configuration at a time (`CRASH_TRIGGERS`, `CRASH_SCHEDULERS`, `CRASH_MODES`, `CRASH_COUNT`); "not run"',
		'rows were not measured. The notes give each row its kills and date.',
		'',
		...HEADER,
		...table,
		'',
		NOTES,
		'',
		...[...notes.values()].sort(),
		'',
	].join('\n');
	writeFileSync(file, kept ? `${text}\n${kept}` : text);
}
