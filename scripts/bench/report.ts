// `npm run bench`: every benchmark in one run against one sandbox and one real n8n, written as one
// Markdown report (test/bench-report.md) with the machine it ran on. BENCH_ONLY=transfer,queue,proxy,info,
// storage-trigger,calendar-trigger,dms,dms-trigger,esignature-trigger runs a subset (printed, and written only to
// BENCH_OUT if given); BENCH_OUT overrides the report's path. Sizes: see each section's file.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

import { startContext, type BenchContext, type Section } from './context.ts';
import { benchStorageTransfer } from './storage-transfer.ts';
import { benchGetFileInfo } from './get-file-info.ts';
import { benchQueueMode } from './queue-mode.ts';
import { benchBehindProxy } from './behind-proxy.ts';
import { benchStorageTriggerPoll } from './storage-trigger-poll.ts';
import { benchCalendarTriggerPoll } from './calendar-trigger-poll.ts';
import { benchDmsGetMany } from './dms-get-many.ts';
import { benchDmsTriggerPoll, benchESignatureTriggerPoll } from './triggers-poll.ts';

// The script lives in scripts/bench/; its path is argv[1] (no import.meta: the tests' tsconfig is CommonJS).
const root = join(process.argv[1], '../../..');

const SECTIONS: Array<[string, (ctx: BenchContext) => Promise<Section>]> = [
	['transfer', benchStorageTransfer],
	['queue', benchQueueMode],
	['proxy', benchBehindProxy],
	['info', benchGetFileInfo],
	['storage-trigger', benchStorageTriggerPoll],
	['calendar-trigger', benchCalendarTriggerPoll],
	['dms', benchDmsGetMany],
	['dms-trigger', benchDmsTriggerPoll],
	['esignature-trigger', benchESignatureTriggerPoll],
];

function machine(n8nVersion: string): string {
	const cpu = cpus();
	const os = (() => {
		try {
			return execFileSync('sh', ['-c', '. /etc/os-release && echo "$PRETTY_NAME"'], {
				encoding: 'utf8',
			}).trim();
		} catch {
			return process.platform;
		}
	})();
	const curl = execFileSync('curl', ['--version'], { encoding: 'utf8' })
		.split('\n')[0]
		.split(' ')
		.slice(0, 2)
		.join(' ');
	return [
		`- Date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
		`- CPU: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
		`- Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
		`- OS: ${os} (${process.platform} ${process.arch})`,
		`- Node.js ${process.version} (n8n and this script), n8n ${n8nVersion}, ${curl}`,
		'- Service: the sandbox (`test/sandbox/`) in the benchmark process, on loopback; Radicale (Debian) for CalDAV',
	].join('\n');
}

async function main() {
	const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
	const unknown = only?.filter((name) => !SECTIONS.some(([known]) => known === name)) ?? [];
	if (unknown.length)
		throw new Error(
			`BENCH_ONLY: no section ${unknown.join(', ')} (sections: ${SECTIONS.map(([name]) => name).join(', ')})`,
		);
	const chosen = SECTIONS.filter(
		([name]) =>
			(!only || only.includes(name)) && !(name === 'queue' && process.env.BENCH_QUEUE === '0'),
	);
	const out = process.env.BENCH_OUT ?? (only ? undefined : join(root, 'test/bench-report.md'));
	// What `npm test` installs for its services (Radicale, Redis for queue mode) and the pinned n8n: the
	// benchmark needs the same, also on a machine where the tests have not run yet.
	for (const script of ['scripts/ensure-system-packages.mjs', 'scripts/ensure-n8n.mjs'])
		execFileSync(process.execPath, [join(root, script)], { stdio: 'inherit' });
	console.error('starting the sandbox and n8n...');
	const ctx = await startContext(root);
	const sections: Section[] = [];
	const header = machine(ctx.n8nVersion);
	const render = () =>
		[
			'# Benchmarks',
			'',
			'Written by `npm run bench` (`scripts/bench/report.ts`): every figure below comes from one run, side by side, with the same n8n version and sandbox, on this machine:',
			'',
			header,
			'',
			...sections.flatMap((section) => [`## ${section.title}`, '', section.markdown, '']),
		].join('\n');
	try {
		for (const [name, run] of chosen) {
			const started = performance.now();
			sections.push(await run(ctx));
			console.error(`${name}: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
			// Written after each section, so a failure later keeps what was measured (for a look, not to commit).
			if (out) writeFileSync(`${out}.partial`, render());
		}
	} finally {
		await ctx.stop();
	}
	console.log(render());
	if (out) {
		writeFileSync(out, render());
		rmSync(`${out}.partial`, { force: true });
		console.error(`report written to ${out}`);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
