/**
 * `npm start` as a newcomer runs it, stopped the way a service manager or CI stops it: SIGTERM (then, in a
 * second run, SIGINT) sent to the `npm start` process itself, not Ctrl-C to a terminal's process group. Every
 * process it started (n8n, the sandbox, Radicale) must be gone afterwards and their ports closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../scripts/lib/processes.ts';
import { paths } from './harness/n8n';

/** Every process whose parent chain leads to `pid` (Linux /proc). */
function descendants(pid: number): number[] {
	const parents = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
		} catch {
			// Ended while reading.
		}
	}
	const found: number[] = [];
	const walk = (parent: number) => {
		for (const [child, of] of parents) {
			if (of !== parent) continue;
			found.push(child);
			walk(child);
		}
	};
	walk(pid);
	return found;
}

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

const listening = (port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => (socket.destroy(), resolve(true)));
		socket.once('error', () => resolve(false));
	});

async function startAndStop(signal: NodeJS.Signals) {
	const dir = mkdtempSync(join(tmpdir(), 'npm-start-'));
	const ports = {
		N8N_PORT: await freePort(),
		SANDBOX_PORT: await freePort(),
		DAV_PORT: await freePort(),
	};
	const env = {
		...process.env,
		START_DIR: dir,
		...Object.fromEntries(Object.entries(ports).map(([key, value]) => [key, String(value)])),
	};
	const npm: ChildProcess = spawn('npm', ['start'], {
		cwd: paths.root,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	npm.stdout!.on('data', (chunk) => (output += chunk));
	npm.stderr!.on('data', (chunk) => (output += chunk));
	let started: number[] = [];
	const exited = new Promise<number | string>((resolve) =>
		npm.on('exit', (code, name) => resolve(name ?? code ?? -1)),
	);
	try {
		// Synchronised on the line `npm start` prints once everything is up.
		await new Promise<void>((resolve, reject) => {
			npm.stdout!.on('data', () => output.includes('Press Ctrl-C to stop') && resolve());
			void exited.then((code) =>
				reject(new Error(`npm start ended (${code}) before it was ready:\n${output}`)),
			);
		});
		expect(output).toContain('CalDAV/CardDAV:');
		started = descendants(npm.pid!);
		expect(started.length).toBeGreaterThanOrEqual(4);
		for (const port of Object.values(ports)) expect(await listening(port)).toBe(true);

		npm.kill(signal);
		await exited;
		// npm itself ends at once; what it started stops in its own time (n8n takes a few seconds). Waiting on
		// the processes' end, bounded by the test's timeout, is no race.
		while (started.some(alive)) await new Promise((resolve) => setTimeout(resolve, 200));
		expect(output).toContain('stopping n8n and the local services');
		expect(started.filter(alive)).toEqual([]);
		for (const port of Object.values(ports)) expect(await listening(port)).toBe(false);
	} finally {
		// Only on a failure: whatever this run started and is still running.
		const leftovers =
			npm.exitCode === null && npm.signalCode === null
				? [...descendants(npm.pid!), npm.pid!]
				: started.filter(alive);
		for (const pid of leftovers) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// Already gone.
			}
		}
		rmSync(dir, { recursive: true, force: true });
	}
}

it('stops n8n, the sandbox and Radicale on SIGTERM to the npm start process', async () => {
	await startAndStop('SIGTERM');
}, 300_000);

it('stops them all on SIGINT to the npm start process', async () => {
	await startAndStop('SIGINT');
}, 300_000);
