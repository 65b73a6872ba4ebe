/**
 * A second `npm start` on the same folder: n8n keeps its workflows, while the sandbox starts with fresh data
 * (new file and folder hashes). Every example must still be green afterwards: npm start brings the examples'
 * filled-in values up to date with what it seeded (scripts/lib/demo-setup.ts, refreshExampleWorkflows).
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

const listening = (port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => (socket.destroy(), resolve(true)));
		socket.once('error', () => resolve(false));
	});

type Started = { npm: ChildProcess; output: () => string; exited: Promise<unknown> };

/** `npm start`, resolved once it prints that everything is up. */
async function npmStart(env: NodeJS.ProcessEnv): Promise<Started> {
	const npm = spawn('npm', ['start'], { cwd: paths.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	npm.stdout!.on('data', (chunk) => (output += chunk));
	npm.stderr!.on('data', (chunk) => (output += chunk));
	const exited = new Promise((resolve) => npm.on('exit', resolve));
	await new Promise<void>((resolve, reject) => {
		npm.stdout!.on('data', () => output.includes('Press Ctrl-C to stop') && resolve());
		void exited.then(() => reject(new Error(`npm start ended before it was ready:\n${output}`)));
	});
	return { npm, output: () => output, exited };
}

/** SIGTERM, then wait (bounded by the test's timeout) until every port it opened is closed again. */
async function stop(started: Started, ports: number[]) {
	started.npm.kill('SIGTERM');
	await started.exited;
	while ((await Promise.all(ports.map(listening))).some(Boolean))
		await new Promise((resolve) => setTimeout(resolve, 200));
}

const exampleNames = readdirSync(paths.workflowsDir)
	.filter((name) => name.endsWith('.json'))
	.map((name) => JSON.parse(readFileSync(join(paths.workflowsDir, name), 'utf8')).name as string);

it('start, stop, start again: every example is green after the restart', async () => {
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
	let current: Started | undefined;
	try {
		current = await npmStart(env);
		expect(current.output()).toMatch(/workflows: +imported/);
		await stop(current, Object.values(ports));

		current = await npmStart(env);
		expect(current.output()).toContain('examples already present');
		expect(current.output()).toMatch(/updated: +\d+ example/);
		const client = new N8nClient(`http://127.0.0.1:${ports.N8N_PORT}`, paths.runtimeDir);
		await client.signIn(owner);
		expect(await examplesNotGreen(client, exampleNames)).toEqual([]);
	} finally {
		if (current) await stop(current, Object.values(ports));
		rmSync(dir, { recursive: true, force: true });
	}
}, 900_000);
