#!/usr/bin/env node
// `npm start`: try the pack in a real n8n without any account anywhere. Installs the pinned n8n when
// missing, builds the package when dist/ is missing or stale, starts the sandbox (a local stand-in for the
// service), a local CalDAV/CardDAV server (Radicale, installed like the tests install it), and n8n with the
// pack loaded, an owner, demo credentials, the data the examples work on and the example workflows. Runs
// until Ctrl-C, SIGINT or SIGTERM, then stops n8n and every service it started.
//
//   npm start                 reuse .tmp/start/n8n (your workflows survive restarts)
//   npm start -- --fresh      start from an empty n8n
//   N8N_PORT, SANDBOX_PORT, DAV_PORT, N8N_OWNER_EMAIL, N8N_OWNER_PASSWORD, START_DIR override the defaults.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureN8n } from './ensure-n8n.mjs';
import { ensureDebianPackages } from './ensure-system-packages.mjs';
import { buildState } from './lib/build-state.ts';
import {
	importExampleWorkflows,
	prepareExampleData,
	refreshExampleWorkflows,
	upsertDemoCredentials,
} from './lib/demo-setup.ts';
import { machineTimeZone } from './lib/machine-time-zone.ts';
import { startN8n } from './lib/n8n-server.ts';
import { heartbeat, progressLine } from './lib/progress.ts';
import { installProjectModules, projectModulesInstalled } from './lib/project-modules.ts';
import { repoPaths } from './lib/paths.ts';
import { spawnLogged, tailFile, waitUntil } from './lib/processes.ts';

const root = resolve(import.meta.dirname, '..');
const paths = repoPaths(root);
const workDir = process.env.START_DIR ? resolve(process.env.START_DIR) : join(paths.tmp, 'start');
const settings = {
	n8nPort: Number(process.env.N8N_PORT ?? 5678),
	sandboxPort: Number(process.env.SANDBOX_PORT ?? 5680),
	davPort: Number(process.env.DAV_PORT ?? 5232),
	owner: {
		email: process.env.N8N_OWNER_EMAIL ?? 'owner@example.com',
		password: process.env.N8N_OWNER_PASSWORD ?? 'Cloud-Storage-Demo-1',
		firstName: 'Demo',
		lastName: 'Owner',
	},
};
const log = (message) => console.log(`[start] ${message}`);
const running = []; // what to stop on exit, in start order

async function stopAll() {
	for (const service of running.reverse()) await service.stop().catch(() => undefined);
	running.length = 0;
}

async function buildIfNeeded() {
	const build = buildState(root);
	if (build.state === 'ok') return;
	log(`building the package (dist/ is ${build.state}; under a minute on an idle machine)`);
	// The compiler prints nothing until it is done: a line every 15 s says it still runs.
	const stopBeat = heartbeat(15_000, (elapsedMs) => log(progressLine('npm run build', elapsedMs)));
	try {
		const status = await new Promise((resolve, reject) => {
			const child = spawn('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
			child.on('error', reject);
			child.on('exit', (code) => resolve(code));
		});
		if (status !== 0) throw new Error('`npm run build` failed; see above.');
	} finally {
		stopBeat();
	}
}

/** The sandbox prints one JSON line (addresses and seeded accounts) once it listens. */
async function startSandbox() {
	const logFile = join(workDir, 'sandbox.log');
	rmSync(logFile, { force: true });
	const child = spawnLogged(
		'sandbox',
		paths.node,
		['test/sandbox/main.ts', '--port', String(settings.sandboxPort)],
		{
			cwd: root,
			env: process.env,
			logFile,
		},
	);
	running.push(child);
	let info;
	await waitUntil(
		`the sandbox on port ${settings.sandboxPort}`,
		async () => {
			const line = readFileSync(logFile, 'utf8')
				.split('\n')
				.find((text) => text.startsWith('{'));
			if (line) info = JSON.parse(line);
			return info !== undefined;
		},
		{ process: child, timeoutMs: 30_000 },
	);
	return info;
}

/**
 * Calendar and Contacts need a CalDAV/CardDAV server: Radicale, installed as the tests install it (Debian's
 * python3-radicale). Checked before anything starts, so a missing server is said at once, not after n8n is up.
 */
async function ensureDav() {
	const { radicaleInstalled } = await import('../test/dav/radicale.ts');
	if (radicaleInstalled()) return true;
	try {
		await ensureDebianPackages(['python3-radicale', 'apache2-utils']);
		return radicaleInstalled();
	} catch (error) {
		log(
			`Calendar and Contacts need a CalDAV/CardDAV server, and Radicale is not installed: ${error.message}\n` +
				'[start] Continuing without it: every other node works; the Calendar/Contacts examples and triggers will not run until you install it and restart.',
		);
		return false;
	}
}

async function startDav() {
	const { startRadicale, RADICALE_USER } = await import('../test/dav/radicale.ts');
	const radicale = await startRadicale({ port: settings.davPort });
	running.push(radicale);
	const calendarUrl = await radicale.mkcalendar('calendar', { displayName: 'Demo calendar' });
	const addressBookUrl = await radicale.mkaddressbook('contacts', { displayName: 'Demo contacts' });
	return { url: radicale.url, ...RADICALE_USER, calendarUrl, addressBookUrl };
}

async function main() {
	if (Number(process.versions.node.split('.')[0]) < 24) {
		throw new Error(
			`Node ${process.versions.node} is running this; use \`npm start\` so the project's Node 24 is used.`,
		);
	}
	if (process.argv.includes('--fresh')) rmSync(workDir, { recursive: true, force: true });
	mkdirSync(workDir, { recursive: true });
	if (!projectModulesInstalled(root)) await installProjectModules(root, log);

	const davAvailable = await ensureDav();
	await ensureN8n();
	await buildIfNeeded();

	const sandbox = await startSandbox();
	const account = sandbox.accounts.find((candidate) => candidate.username === 'demo');
	const dav = davAvailable ? await startDav() : undefined;

	const userFolder = join(workDir, 'n8n');
	if (existsSync(userFolder)) log(`reusing ${userFolder} (npm start -- --fresh for an empty n8n)`);
	// 3-10 s on an idle machine; 36 s was measured on a loaded one (the first start also creates its database).
	log(
		`starting n8n on port ${settings.n8nPort} (usually under a minute; the first start also creates its database)`,
	);
	// Workflow dates (and the folder names the examples stamp) in the machine's zone, not n8n's New York default.
	const timeZone = process.env.GENERIC_TIMEZONE || machineTimeZone();
	log(`n8n's time zone: ${timeZone} (GENERIC_TIMEZONE)`);
	const n8n = await startN8n({
		paths,
		port: settings.n8nPort,
		userFolder,
		owner: settings.owner,
		env: { GENERIC_TIMEZONE: timeZone },
		progress: log,
	});
	running.push(n8n);

	const credentials = await upsertDemoCredentials(n8n.client, { sandbox, account, dav });
	// What the examples work on (a PDF to sign, an event and a contact of "another client"), wired into them.
	const values = await prepareExampleData({ sandbox, account, dav });
	// The sandbox starts with fresh data (new hashes) every time: examples imported earlier are updated to it.
	const refreshed = await refreshExampleWorkflows(
		n8n.client,
		paths.workflowsDir,
		values,
		join(workDir, 'example-values.json'),
	);
	const imported = await importExampleWorkflows(
		n8n.client,
		paths.workflowsDir,
		credentials,
		values,
	);

	const editorUrl = `http://localhost:${settings.n8nPort}`;
	console.log(`
n8n is running with the Cloud Storage nodes: ${editorUrl}
  log in:        ${settings.owner.email} / ${settings.owner.password}
  credentials:   ${Object.values(credentials)
		.map((credential) => credential.name)
		.join(', ')}
  workflows:     ${imported.length > 0 ? `imported ${imported.length}:${imported.map((name) => `\n                   ${name}`).join('')}` : 'examples already present'}${
		refreshed.length > 0
			? `\n  updated:       ${refreshed.length} example(s) to the sandbox's fresh data (new file and folder hashes)`
			: ''
	}
  sandbox:       ${sandbox.baseUrl} (account demo / ${account.password}, token ${account.token})${
		dav ? `\n  CalDAV/CardDAV: ${dav.url} (${dav.username} / ${dav.password})` : ''
	}
  example file:  agreement.pdf in the folder Examples, hash ${values['the hash of a PDF file in your storage']} (signed once, for the E-Signature examples)
  logs:          ${n8n.main.logFile}

Open a workflow and click "Execute workflow". Press Ctrl-C to stop.
`);

	const ended = await n8n.main.exited;
	throw new Error(
		`n8n stopped unexpectedly (${ended}). Last lines of ${n8n.main.logFile}:\n${tailFile(n8n.main.logFile)}`,
	);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		if (stopping) return;
		stopping = true;
		log('stopping n8n and the local services...');
		stopAll().then(() => process.exit(0));
	});
}

// Child processes do not keep Node alive (see processes.ts): this does, until a signal or a failure.
const keepAlive = setInterval(() => undefined, 1 << 30);
main().catch(async (error) => {
	if (stopping) return;
	console.error(`[start] ${error.message}`);
	await stopAll();
	clearInterval(keepAlive);
	process.exit(1);
});
