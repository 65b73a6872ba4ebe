#!/usr/bin/env node
// `npm run screenshots`: pictures of the pack in the real n8n editor for README.md, saved to test/screenshots/.
// Starts what `npm start` starts (the sandbox, Radicale, n8n with the pack, the demo credentials and the
// example workflows) in a fresh temporary n8n, then drives Debian's Chromium with playwright-core: one
// picture of each node's form with a typical operation selected, one of each credential dialog and one of
// an example workflow's canvas. No browser is downloaded: Debian's `chromium` is installed when missing.
//
//   npm run screenshots                  all pictures
//   npm run screenshots -- storage       only those whose file name contains "storage"
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildState } from './lib/build-state.ts';
import {
	importExampleWorkflows,
	prepareExampleData,
	upsertDemoCredentials,
} from './lib/demo-setup.ts';
import type { N8nClient } from './lib/n8n-client.ts';
import { DEFAULT_OWNER, startN8n } from './lib/n8n-server.ts';
import { repoPaths } from './lib/paths.ts';

// The script is scripts/screenshots.ts, its path argv[1] (no import.meta: the tests' tsconfig is CommonJS).
const root = resolve(process.argv[1], '../..');
const paths = repoPaths(root);
const outDir = join(root, 'test/screenshots');
const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 800 };
const filter = process.argv[2];
const log = (message: string) => console.log(`[screenshots] ${message}`);

type Shot =
	| { kind: 'node'; file: string; workflow: string; node: string }
	| { kind: 'credential'; file: string; credentialType: string }
	| { kind: 'canvas'; file: string; workflow: string };

/** What README.md shows: each node opened in an example workflow, each credential dialog, one canvas. */
const SHOTS: Shot[] = [
	{ kind: 'canvas', file: 'workflow-storage-roundtrip.png', workflow: 'storage-roundtrip.json' },
	{ kind: 'node', file: 'node-storage.png', workflow: 'storage-roundtrip.json', node: 'Upload' },
	{
		kind: 'node',
		file: 'node-storage-trigger.png',
		workflow: 'storage-trigger.json',
		node: 'Cloud Storage Trigger',
	},
	{
		kind: 'node',
		file: 'node-dms-trigger.png',
		workflow: 'dms-trigger.json',
		node: 'Cloud Storage DMS Trigger',
	},
	{
		kind: 'node',
		file: 'node-esignature-trigger.png',
		workflow: 'esignature-trigger.json',
		node: 'Cloud Storage E-Signature Trigger',
	},
	{ kind: 'node', file: 'node-search.png', workflow: 'search.json', node: 'Search Invoices' },
	{
		kind: 'node',
		file: 'node-esignature.png',
		workflow: 'esignature-operations.json',
		node: 'Request Signatures',
	},
	{
		kind: 'node',
		file: 'node-dms-task.png',
		workflow: 'dms-task-roundtrip.json',
		node: 'Create Task',
	},
	{
		kind: 'node',
		file: 'node-contact-person.png',
		workflow: 'dms-task-roundtrip.json',
		node: 'Create Contact',
	},
	{ kind: 'node', file: 'node-calendar.png', workflow: 'dav-roundtrip.json', node: 'Create Event' },
	{
		kind: 'node',
		file: 'node-calendar-trigger.png',
		workflow: 'dav-triggers.json',
		node: 'Calendar Trigger',
	},
	{
		kind: 'node',
		file: 'node-contacts.png',
		workflow: 'dav-roundtrip.json',
		node: 'Create Contact',
	},
	{
		kind: 'node',
		file: 'node-contacts-trigger.png',
		workflow: 'dav-triggers.json',
		node: 'Contacts Trigger',
	},
	{ kind: 'node', file: 'node-ai.png', workflow: 'ai-nodes.json', node: 'Generate' },
	{
		kind: 'node',
		file: 'node-ai-chat-model.png',
		workflow: 'ai-agent-storage-tool.json',
		node: 'Cloud Storage AI Chat Model',
	},
	{ kind: 'node', file: 'node-mcp.png', workflow: 'ai-nodes.json', node: 'Search Docs' },
	{ kind: 'credential', file: 'credential-token.png', credentialType: 'cloudStorageTokenApi' },
	{
		kind: 'credential',
		file: 'credential-password.png',
		credentialType: 'cloudStoragePasswordApi',
	},
	{ kind: 'credential', file: 'credential-bearer.png', credentialType: 'cloudStorageBearerApi' },
	{ kind: 'credential', file: 'credential-dav.png', credentialType: 'cloudStorageDavApi' },
];

/** Runs one of the plain-JS setup scripts (they have no types, so they run as processes, not imports). */
function runSetupScript(script: string, args: string[] = []) {
	const result = spawnSync(process.execPath, [join(root, 'scripts', script), ...args], {
		cwd: root,
		stdio: 'inherit',
	});
	if (result.status !== 0) throw new Error(`${script} failed; see above.`);
}

function buildIfNeeded() {
	if (buildState(root).state === 'ok') return;
	log('building the package');
	const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
	if (result.status !== 0) throw new Error('`npm run build` failed; see above.');
}

type Started = { stop(): Promise<void> };

async function startServices(running: Started[]) {
	const { startSandbox, DEMO_ACCOUNT } = await import('../test/sandbox/server.ts');
	const sandbox = await startSandbox({ port: 0 });
	running.push({ stop: () => sandbox.close() });

	const { radicaleInstalled, startRadicale, RADICALE_USER } = await import(
		'../test/dav/radicale.ts'
	);
	if (!radicaleInstalled())
		throw new Error('Radicale is missing: run `node scripts/ensure-system-packages.mjs`.');
	const radicale = await startRadicale();
	running.push(radicale);
	const calendarUrl = await radicale.mkcalendar('calendar', { displayName: 'Demo calendar' });
	const addressBookUrl = await radicale.mkaddressbook('contacts', { displayName: 'Demo contacts' });

	log('starting n8n (~10 s)');
	const n8n = await startN8n({
		paths,
		userFolder: mkdtempSync(join(tmpdir(), 'n8n-screenshots-')),
	});
	running.push({
		stop: async () => {
			await n8n.stop();
			rmSync(n8n.userFolder, { recursive: true, force: true });
		},
	});
	const services = {
		sandbox,
		account: DEMO_ACCOUNT,
		dav: { url: radicale.url, ...RADICALE_USER, calendarUrl, addressBookUrl },
	};
	const credentials = await upsertDemoCredentials(n8n.client, services);
	await importExampleWorkflows(
		n8n.client,
		paths.workflowsDir,
		credentials,
		await prepareExampleData(services),
	);
	return { n8n, credentials };
}

/** Workflow file → id in this n8n, through the workflow names. */
async function workflowIds(client: N8nClient) {
	const byName = new Map(
		(await client.listWorkflows()).map((workflow) => [workflow.name, workflow.id]),
	);
	const ids = new Map<string, string>();
	for (const file of readdirSync(paths.workflowsDir).filter((name) => name.endsWith('.json'))) {
		const workflow = JSON.parse(readFileSync(join(paths.workflowsDir, file), 'utf8'));
		const id = byName.get(workflow.name);
		if (id) ids.set(file, id);
	}
	return ids;
}

function nodeId(file: string, nodeName: string): string {
	const workflow = JSON.parse(readFileSync(join(paths.workflowsDir, file), 'utf8'));
	const node = workflow.nodes.find((candidate: { name: string }) => candidate.name === nodeName);
	if (!node) throw new Error(`${file} has no node named "${nodeName}"`);
	return node.id;
}

async function signIn(page: Page, baseUrl: string) {
	await page.goto(`${baseUrl}/signin`);
	await page
		.locator('input[type=email], input[name=emailOrLdapLoginId]')
		.first()
		.fill(DEFAULT_OWNER.email);
	await page.locator('input[type=password]').first().fill(DEFAULT_OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

async function settle(page: Page) {
	await page.waitForLoadState('networkidle').catch(() => undefined);
	// Hide the blinking caret and transitions so the pictures are stable.
	await page.addStyleTag({
		content:
			'*{caret-color:transparent!important;transition:none!important;animation:none!important}',
	});
}

async function takeShot(
	page: Page,
	baseUrl: string,
	shot: Shot,
	ids: Map<string, string>,
	credentialIds: Record<string, string>,
) {
	if (shot.kind === 'node') {
		const workflowId = ids.get(shot.workflow);
		if (!workflowId) throw new Error(`${shot.workflow} was not imported`);
		await page.goto(`${baseUrl}/workflow/${workflowId}/${nodeId(shot.workflow, shot.node)}`);
		await page
			.locator('[data-test-id="ndv"]')
			.first()
			.waitFor({ state: 'visible', timeout: 30_000 });
	} else if (shot.kind === 'credential') {
		await page.goto(`${baseUrl}/home/credentials/${credentialIds[shot.credentialType]}`);
		await page
			.locator('[data-test-id="editCredential-modal"]')
			.first()
			.waitFor({ state: 'visible', timeout: 30_000 });
	} else {
		const workflowId = ids.get(shot.workflow);
		if (!workflowId) throw new Error(`${shot.workflow} was not imported`);
		await page.goto(`${baseUrl}/workflow/${workflowId}`);
		await page
			.locator('[data-test-id="canvas-node"]')
			.first()
			.waitFor({ state: 'visible', timeout: 30_000 });
	}
	await settle(page);
	await page.screenshot({ path: join(outDir, shot.file) });
}

async function main() {
	runSetupScript('ensure-system-packages.mjs', ['chromium', 'python3-radicale']);
	runSetupScript('ensure-n8n.mjs');
	buildIfNeeded();
	mkdirSync(outDir, { recursive: true });

	const running: Started[] = [];
	const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-screenshots-'));
	try {
		const { n8n, credentials } = await startServices(running);
		const ids = await workflowIds(n8n.client);
		const credentialIds = Object.fromEntries(
			Object.entries(credentials).map(([type, ref]) => [type, ref.id]),
		);

		const context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: CHROMIUM,
			headless: true,
			viewport: VIEWPORT,
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
			],
		});
		running.push({ stop: () => context.close() });
		const page = context.pages()[0] ?? (await context.newPage());
		await signIn(page, n8n.baseUrl);

		for (const shot of SHOTS.filter((candidate) => !filter || candidate.file.includes(filter))) {
			await takeShot(page, n8n.baseUrl, shot, ids, credentialIds);
			log(`saved test/screenshots/${shot.file}`);
		}
	} finally {
		for (const service of running.reverse()) await service.stop().catch(() => undefined);
		rmSync(userDataDir, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(`[screenshots] ${error instanceof Error ? error.stack : error}`);
		process.exit(1);
	},
);
