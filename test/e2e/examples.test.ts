/**
 * Every example workflow exactly as `npm start` imports it, unpatched: the same demo credentials, the same
 * data prepared in the sandbox and Radicale (scripts/lib/demo-setup.ts), the same placeholder filling. Each
 * workflow with a Manual Trigger runs without a node error; each trigger or webhook workflow activates.
 * n8n loads the packed tarball, installed the way n8n 2.41 installs a community package.
 */
import {
	AGREEMENT_PDF,
	DEMO_SIGNER,
	importExampleWorkflows,
	prepareExampleData,
	upsertDemoCredentials,
	type DemoServices,
} from '../../scripts/lib/demo-setup.ts';
import { startRadicale, RADICALE_USER, type Radicale } from '../dav/radicale';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { examplesNotGreen } from './harness/examples';
import { paths, startN8n, type N8nInstance } from './harness/n8n';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let radicale: Radicale;
let n8n: N8nInstance;
let workflows: Array<{ id: string; name: string; manualTrigger?: string }>;
let imported: string[];
let services: DemoServices;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	radicale = await startRadicale();
	services = {
		sandbox: { baseUrl: sandbox.baseUrl, webUrl: sandbox.webUrl },
		account: DEMO_ACCOUNT,
		dav: {
			url: radicale.url,
			...RADICALE_USER,
			calendarUrl: await radicale.mkcalendar('calendar', { displayName: 'Demo calendar' }),
			addressBookUrl: await radicale.mkaddressbook('contacts', { displayName: 'Demo contacts' }),
		},
	};
	// The package as n8n installs it from the Community Nodes screen (scripts/lib/packed-package.ts): only
	// `files`, the compiled output and `dependencies` reach it.
	n8n = await startN8n({ mode: 'regular', packageSource: 'packed' });
	const credentials = await upsertDemoCredentials(n8n.client, services);
	const values = await prepareExampleData(services);
	imported = await importExampleWorkflows(n8n.client, paths.workflowsDir, credentials, values);
	workflows = [];
	for (const ref of await n8n.client.listWorkflows()) {
		if (!imported.includes(ref.name)) continue;
		const workflow = await n8n.client.getWorkflow(ref.id);
		const manual = (workflow.nodes as Array<{ type: string; name: string }>).find(
			(node) => node.type === 'n8n-nodes-base.manualTrigger',
		);
		workflows.push({ id: ref.id, name: ref.name, manualTrigger: manual?.name });
	}
}, 420_000); // packing the pack and starting n8n take minutes on a loaded 2-core machine
afterAll(async () => {
	await n8n?.stop();
	await radicale?.stop();
	await sandbox?.close();
});

it('loads the pack from the packed tarball, outside the repository, without its development dependencies', async () => {
	const { readFileSync, realpathSync } = await import('node:fs');
	const { join, relative } = await import('node:path');
	const installed = realpathSync(
		join(n8n.userFolder, '.n8n/nodes/node_modules/n8n-nodes-cloud-storage'),
	);
	expect(relative(paths.root, installed).startsWith('..')).toBe(true);
	const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
	expect(manifest).not.toHaveProperty('devDependencies');
	expect(manifest).not.toHaveProperty('peerDependencies');
	expect(n8n.packageNodeTypes.length).toBeGreaterThanOrEqual(manifest.n8n.nodes.length);
});

it('imports every example of test/e2e/workflows', async () => {
	const { readdirSync } = await import('node:fs');
	expect(workflows).toHaveLength(
		readdirSync(paths.workflowsDir).filter((name) => name.endsWith('.json')).length,
	);
});

it('prepares the data the examples work on, idempotently', async () => {
	const again = await prepareExampleData(services);
	const pdf = sandbox.store.file(again['the hash of a PDF file in your storage']);
	expect(pdf).toBeDefined();
	// One signature on the agreement (not one per start), for the E-Signature Trigger's Fetch Test Event.
	expect(
		sandbox.store.esign.signatures.filter((record) => record.fileId === pdf!.id),
	).toMatchObject([{ signer_name: DEMO_SIGNER }]);
	expect(
		(
			await radicale.send(
				'GET',
				again['the URL of an event another calendar client wrote (Get Events shows it)'],
			)
		).status,
	).toBe(200);
	expect(AGREEMENT_PDF).toMatch(/^%PDF/);
});

it('runs every manually started example without an unintended error, shows an event on Fetch Test Event of every trigger of the pack, and activates every trigger and webhook example', async () => {
	expect(await examplesNotGreen(n8n.client, imported)).toEqual([]);
}, 600_000);
