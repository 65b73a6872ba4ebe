// The first start's progress lines (scripts/lib/progress.ts): measured from what the step writes, never an
// estimate shown as exceeded, and a line at a fixed interval however long the step stays silent.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	bytesUnder,
	duration,
	heartbeat,
	lastLogLine,
	progressLine,
} from '../../../scripts/lib/progress.ts';

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'progress-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('bytesUnder', () => {
	it('counts the bytes of the files in the folder and below, not what a symlink points at', () => {
		mkdirSync(join(dir, 'a/b'), { recursive: true });
		writeFileSync(join(dir, 'one'), Buffer.alloc(100));
		writeFileSync(join(dir, 'a/two'), Buffer.alloc(20));
		writeFileSync(join(dir, 'a/b/three'), Buffer.alloc(3));
		const outside = mkdtempSync(join(tmpdir(), 'progress-outside-'));
		writeFileSync(join(outside, 'big'), Buffer.alloc(5000));
		symlinkSync(outside, join(dir, 'link'));
		try {
			expect(bytesUnder(dir)).toBe(123);
		} finally {
			rmSync(outside, { recursive: true, force: true });
		}
	});

	it('is 0 for a folder that does not exist yet', () => {
		expect(bytesUnder(join(dir, 'not-yet'))).toBe(0);
	});
});

describe('progressLine', () => {
	it('says how long the step runs and how much of the expected amount it has written', () => {
		expect(
			progressLine('npm-install', 200_000, {
				bytes: 1.2e9,
				expectedBytes: 2.7e9,
				where: 'test/e2e/runtime/node_modules',
			}),
		).toBe(
			'  ... npm-install running for 3 min 20 s, 1.2 GB of about 2.7 GB written to test/e2e/runtime/node_modules',
		);
	});

	it('past the expected amount says only what is written, never "3.1 GB of about 2.7 GB"', () => {
		const line = progressLine('npm-install', 61_000, {
			bytes: 3.1e9,
			expectedBytes: 2.7e9,
			where: 'node_modules',
		});
		expect(line).toBe('  ... npm-install running for 1 min 01 s, 3.1 GB written to node_modules');
	});

	it('without a measure, says only how long', () => {
		expect(progressLine('npm run build', 15_000)).toBe('  ... npm run build running for 15 s');
	});
});

it('duration reads as seconds, then minutes and seconds', () => {
	expect(duration(0)).toBe('0 s');
	expect(duration(59_400)).toBe('59 s');
	expect(duration(60_000)).toBe('1 min 00 s');
	expect(duration(462_000)).toBe('7 min 42 s');
});

it('lastLogLine gives the last non-empty line of a log, shortened', () => {
	const log = join(dir, 'n8n.log');
	expect(lastLogLine(log)).toBeUndefined();
	writeFileSync(log, `first\nMigrations in progress, please do NOT stop the process.\n\n`);
	expect(lastLogLine(log)).toBe('Migrations in progress, please do NOT stop the process.');
	writeFileSync(log, `${'x'.repeat(500)}\n`);
	expect(lastLogLine(log, 20)).toBe(`${'x'.repeat(19)}…`);
});

describe('heartbeat', () => {
	beforeEach(() => jest.useFakeTimers());
	afterEach(() => jest.useRealTimers());

	it('reports at every interval while the step is silent, and stops when told', () => {
		let now = 1_000;
		const reports: number[] = [];
		const stop = heartbeat(
			15_000,
			(elapsed) => reports.push(elapsed),
			() => now,
		);
		for (let tick = 0; tick < 4; tick++) {
			now += 15_000;
			jest.advanceTimersByTime(15_000);
		}
		expect(reports).toEqual([15_000, 30_000, 45_000, 60_000]);
		stop();
		jest.advanceTimersByTime(60_000);
		expect(reports).toHaveLength(4);
	});
});
