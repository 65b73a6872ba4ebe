/**
 * A second `npm start` on the same folder: n8n keeps its workflows, while the sandbox starts with fresh data
 * (new file and folder hashes). Every example must still be green afterwards: npm start brings the examples'
 * filled-in values up to date with what it seeded (scripts/lib/demo-setup.ts, refreshExampleWorkflows).
 * Both runs are stopped the way a service manager or CI stops them, a signal to the `npm start` process itself
 * (SIGTERM the first time, SIGINT the second), not Ctrl-C to a terminal's process group: every process it
 * started (n8n, the sandbox, Radicale) must be gone afterwards and their ports closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8nClient } from '../../scripts/lib/n8n-client.ts';
import { freePort } from '../../scripts/lib/processes.ts';
import { examplesNotGreen } from './harness/examples';
import { paths } from './harness/n8n';

const owner = {
	email: 'restart@example.com',
	password: 'Restart-Demo-1',
	firstName: 'Demo',
	lastName: 'Owner',
};

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

const signalQuietly = (pid: number, signal: NodeJS.Signals) => {
	try {
		process.kill(pid, signal);
	} catch {
		// Already gone.
	}
};

const listening = (port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => (socket.destroy(), resolve(true)));
		socket.once('error', () => resolve(false));
	});

type Started = {
	npm: ChildProcess;
	output: () => string;
	exited: Promise<unknown>;
	/** What it started (n8n, the sandbox, Radicale and their shells), read once it was ready. */
	processes: number[];
};

/** How long `npm start` may take to be ready: generous (a loaded CI machine), expiry reported as such. */
const START_MS = 5 * 60_000;
/** How long every process it started may take to end, and its ports to close, after the signal. */
const STOP_MS = 2 * 60_000;

/** `npm start`, resolved once it prints that everything is up; past START_MS it fails with what it printed. */
async function npmStart(env: NodeJS.ProcessEnv): Promise<Started> {
	const npm = spawn('npm', ['start'], { cwd: paths.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	npm.stdout!.on('data', (chunk) => (output += chunk));
	npm.stderr!.on('data', (chunk) => (output += chunk));
	const exited = new Promise((resolve) => npm.on('exit', resolve));
	let timer: NodeJS.Timeout | undefined;
	try {
		await new Promise<void>((resolve, reject) => {
			npm.stdout!.on('data', () => output.includes('Press Ctrl-C to stop') && resolve());
			void exited.then(() => reject(new Error(`npm start ended before it was ready:\n${output}`)));
			timer = setTimeout(
				() =>
					reject(
						new Error(`npm start was not ready after ${START_MS / 1000} s; it printed:\n${output}`),
					),
				START_MS,
			);
		});
	} catch (error) {
		for (const pid of [...descendants(npm.pid!), npm.pid!]) signalQuietly(pid, 'SIGKILL');
		throw error;
	} finally {
		clearTimeout(timer);
	}
	return { npm, output: () => output, exited, processes: descendants(npm.pid!) };
}

/**
 * The signal to the npm process, then wait until every process it started has ended and every port it opened is
 * closed: npm itself ends at once, n8n takes a few seconds. Past STOP_MS the test fails naming what is left.
 */
async function stop(started: Started, ports: number[], signal: NodeJS.Signals) {
	started.npm.kill(signal);
	const deadline = Date.now() + STOP_MS;
	for (;;) {
		const npmRunning = started.npm.exitCode === null && started.npm.signalCode === null;
		const left = [...(npmRunning ? [started.npm.pid!] : []), ...started.processes.filter(alive)];
		const listeningPorts: number[] = [];
		for (const port of ports) if (await listening(port)) listeningPorts.push(port);
		if (!left.length && !listeningPorts.length) return;
		if (Date.now() > deadline)
			throw new Error(
				`${STOP_MS / 1000} s after ${signal}: process(es) ${left.join(', ') || 'none'} still running, ` +
					`port(s) ${listeningPorts.join(', ') || 'none'} still listening`,
			);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** Only after a failure: whatever a run started and is still running. */
function killLeftovers(started: Started) {
	const running = started.npm.exitCode === null && started.npm.signalCode === null;
	const leftovers = running
		? [...descendants(started.npm.pid!), started.npm.pid!]
		: started.processes.filter(alive);
	for (const pid of leftovers) signalQuietly(pid, 'SIGKILL');
}

const exampleNames = readdirSync(paths.workflowsDir)
	.filter((name) => name.endsWith('.json'))
	.map((name) => JSON.parse(readFileSync(join(paths.workflowsDir, name), 'utf8')).name as string);

it('start, stop (SIGTERM), start again, stop (SIGINT): every example is green after the restart, nothing left running', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'npm-restart-'));
	const ports = {
		N8N_PORT: await freePort(),
		SANDBOX_PORT: await freePort(),
		DAV_PORT: await freePort(),
	};
	const env = {
		...process.env,
		START_DIR: dir,
		N8N_OWNER_EMAIL: owner.email,
		N8N_OWNER_PASSWORD: owner.password,
		...Object.fromEntries(Object.entries(ports).map(([key, value]) => [key, String(value)])),
	};
	const expectStartedAndListening = async (started: Started) => {
		expect(started.output()).toContain('CalDAV/CardDAV:');
		expect(started.processes.length).toBeGreaterThanOrEqual(4);
		for (const port of Object.values(ports)) expect(await listening(port)).toBe(true);
	};
	const expectAllStopped = async (started: Started) => {
		expect(started.output()).toContain('stopping n8n and the local services');
		expect(started.processes.filter(alive)).toEqual([]);
		for (const port of Object.values(ports)) expect(await listening(port)).toBe(false);
	};
	let current: Started | undefined;
	try {
		current = await npmStart(env);
		expect(current.output()).toMatch(/workflows: +imported/);
		await expectStartedAndListening(current);
		await stop(current, Object.values(ports), 'SIGTERM');
		await expectAllStopped(current);

		current = await npmStart(env);
		expect(current.output()).toContain('examples already present');
		expect(current.output()).toMatch(/updated: +\d+ example/);
		await expectStartedAndListening(current);
		const client = new N8nClient(`http://127.0.0.1:${ports.N8N_PORT}`, paths.runtimeDir);
		await client.signIn(owner);
		expect(await examplesNotGreen(client, exampleNames)).toEqual([]);
		await stop(current, Object.values(ports), 'SIGINT');
		await expectAllStopped(current);
	} finally {
		if (current) killLeftovers(current);
		rmSync(dir, { recursive: true, force: true });
	}
}, 900_000);
