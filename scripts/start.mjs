#!/usr/bin/env node
// `npm start`: try the pack in a real n8n without any account anywhere. Installs the pinned n8n when
// missing, builds the package when dist/ is missing or stale, starts the sandbox (a local stand-in for the
// service), a local CalDAV/CardDAV server when Radicale is installed, and n8n with the pack loaded, an
// owner, demo credentials and the example workflows. Runs until Ctrl-C, then stops everything.
//
//   npm start                 reuse .tmp/start/n8n (your workflows survive restarts)
//   npm start -- --fresh      start from an empty n8n
//   N8N_PORT, SANDBOX_PORT, DAV_PORT, N8N_OWNER_EMAIL, N8N_OWNER_PASSWORD override the defaults.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureN8n } from './ensure-n8n.mjs';
import { buildState } from './lib/build-state.ts';
import { importExampleWorkflows, upsertDemoCredentials } from './lib/demo-setup.ts';
import { startN8n } from './lib/n8n-server.ts';
import { repoPaths } from './lib/paths.ts';
import { spawnLogged, tailFile, waitUntil } from './lib/processes.ts';

const root = resolve(import.meta.dirname, '..');
const paths = repoPaths(root);
const workDir = join(paths.tmp, 'start');
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

function buildIfNeeded() {
	const build = buildState(root);
	if (build.state === 'ok') return;
	log(`building the package (dist/ is ${build.state})`);
	const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
	if (result.status !== 0) throw new Error('`npm run build` failed; see above.');
}

/** The sandbox prints one JSON line (addresses and seeded accounts) once it listens. */
async function startSandbox() {
	const logFile = join(workDir, 'sandbox.log');
	rmSync(logFile, { force: true });
	const child = spawnLogged('sandbox', paths.node, ['test/sandbox/main.ts', '--port', String(settings.sandboxPort)], {
		cwd: root,
		env: process.env,
		logFile,
	});
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

/** Radicale is optional for trying the storage nodes: without it there is no DAV credential. */
async function startDav() {
	const { radicaleInstalled, startRadicale, RADICALE_USER } = await import('../test/dav/radicale.ts');
	if (!radicaleInstalled()) {
		log('Radicale is not installed (node scripts/ensure-system-packages.mjs): no CalDAV/CardDAV server');
		return undefined;
	}
	const radicale = await startRadicale({ port: settings.davPort });
	running.push(radicale);
	await radicale.mkcalendar('calendar', { displayName: 'Demo calendar' });
	await radicale.mkaddressbook('contacts', { displayName: 'Demo contacts' });
	return { url: radicale.url, ...RADICALE_USER };
}

async function main() {
	if (Number(process.versions.node.split('.')[0]) < 24) {
		throw new Error(
			`Node ${process.versions.node} is running this; use \`npm start\` so the project's Node 24 is used.`,
		);
	}
	if (process.argv.includes('--fresh')) rmSync(workDir, { recursive: true, force: true });
	mkdirSync(workDir, { recursive: true });

	await ensureN8n();
	buildIfNeeded();

	const sandbox = await startSandbox();
	const account = sandbox.accounts.find((candidate) => candidate.username === 'demo');
	const dav = await startDav();

	const userFolder = join(workDir, 'n8n');
	if (existsSync(userFolder)) log(`reusing ${userFolder} (npm start -- --fresh for an empty n8n)`);
	log(`starting n8n on port ${settings.n8nPort} (~10 s; the first start also creates its database)`);
	const n8n = await startN8n({ paths, port: settings.n8nPort, userFolder, owner: settings.owner });
	running.push(n8n);

	const credentials = await upsertDemoCredentials(n8n.client, { sandbox, account, dav });
	const imported = await importExampleWorkflows(n8n.client, paths.workflowsDir, credentials);

	const editorUrl = `http://localhost:${settings.n8nPort}`;
	console.log(`
n8n is running with the Cloud Storage nodes: ${editorUrl}
  log in:        ${settings.owner.email} / ${settings.owner.password}
  credentials:   ${Object.values(credentials)
		.map((credential) => credential.name)
		.join(', ')}
  workflows:     ${imported.length > 0 ? `imported ${imported.join(', ')}` : 'examples already present'}
  sandbox:       ${sandbox.baseUrl} (account demo / ${account.password}, token ${account.token})${
		dav ? `\n  CalDAV/CardDAV: ${dav.url} (${dav.username} / ${dav.password})` : ''
	}
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
