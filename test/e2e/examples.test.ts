/**
 * Every example workflow exactly as `npm start` imports it, unpatched: the same demo credentials, the same
 * data prepared in the sandbox and Radicale (scripts/lib/demo-setup.ts), the same placeholder filling. Each
 * workflow with a Manual Trigger runs without a node error; each trigger or webhook workflow activates.
 * n8n loads the packed tarball, installed the way n8n 2.41 installs a community package.
 */
import {
	AGREEMENT_PDF,
	importExampleWorkflows,
	prepareExampleData,
	upsertDemoCredentials,
	type DemoServices,
} from '../../scripts/lib/demo-setup.ts';
import { startRadicale, RADICALE_USER, type Radicale } from '../dav/radicale';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { describeErrors, paths, startN8n, type N8nInstance } from './harness/n8n';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let radicale: Radicale;
let n8n: N8nInstance;
let workflows: Array<{ id: string; name: string; manualTrigger?: string }>;
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
	const imported = await importExampleWorkflows(
		n8n.client,
		paths.workflowsDir,
		credentials,
		values,
	);
	workflows = [];
	for (const ref of await n8n.client.listWorkflows()) {
		if (!imported.includes(ref.name)) continue;
		const workflow = await n8n.client.getWorkflow(ref.id);
		const manual = (workflow.nodes as Array<{ type: string; name: string }>).find(
			(node) => node.type === 'n8n-nodes-base.manualTrigger',
		);
		workflows.push({ id: ref.id, name: ref.name, manualTrigger: manual?.name });
	}
});
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

// The bad-input example ends on purpose with one node that stops the workflow (no Continue On Fail), to show
// such an error; every other node of it turns its error into an item.
const INTENDED_STOP: Record<string, RegExp> = {
	'Bad input: clear errors, nothing sent, n8n keeps running':
		/^Bad Task ID: The task ID must be a positive whole number \(got "T-12"\)[^\n]*$/,
};

// Each example node that shows an error on purpose (Continue On Fail), with the error it must show under
// `npm start`: a different error (e.g. a URL that is not on the demo DAV server) means the example teaches
// nothing. Any other error item in any example fails the test too.
const INTENDED_ERRORS: Record<string, Record<string, RegExp>> = {
	'Bad input: clear errors, nothing sent, n8n keeps running': {
		'Malformed Hash': /^"ab\/cd" is not a file hash/,
		'Upload Into ROOT': /^Files cannot be uploaded directly into ROOT$/,
		'Garbage iCalendar': /^The iCalendar data could not be parsed/,
		'Impossible Date': /"2030-13-45T99:00" is not a valid date or time/,
		'Bad Arguments': /arguments are not valid JSON/,
		'Bad Messages': /messages JSON is not valid JSON/,
	},
	'DMS: input errors stop before any write': {
		'Invalid Task ID': /^The task ID must be a positive whole number \(got "T-12"\)$/,
		'Missing Name': /^Missing required field: Name$/,
		'Hours Not Numeric': /^Estimated hours must be a number of hours such as 2\.5 \(got "four"\)$/,
		'Unknown Option': /^Unknown option "Blocked" for Status$/,
		'Not A Worker': /^Unknown user \(not a worker of this project\) "1001" for Responsible$/,
		'Move Project': /^The project of a task cannot be changed$/,
		'Undeclared Field': /^The field "invoice" is not declared for this organisation$/,
	},
	'E-signature: signatures and signing requests': {
		'Bad Date': /^From Date "2026-02-30" is not a real date or time$/,
		'Bad E-Mail': /^Recipient E-Mails: "anna\(at\)example\.com" is not an e-mail address$/,
	},
	'Search: styles, paging and input errors': {
		'Short Query': /^Query "x" is too short$/,
		'No Section': /^Choose at least one section to search$/,
		'Bad JSON': /^The search JSON is not valid JSON$/,
	},
};

/** Every `error` an item of the execution carries, as "node: message". */
function errorItems(execution: Awaited<ReturnType<N8nInstance['client']['runWorkflow']>>) {
	return Object.entries(execution.nodes).flatMap(([node, runs]) =>
		runs.flatMap((run) =>
			run.outputs.flatMap((items) =>
				items
					.filter((item) => typeof item.json.error === 'string')
					.map((item) => ({ node, message: String(item.json.error) })),
			),
		),
	);
}

it('runs every manually started example without a node error, and activates every trigger and webhook example', async () => {
	const failures: string[] = [];
	for (const workflow of workflows) {
		if (workflow.manualTrigger) {
			const execution = await n8n.client.runWorkflow(workflow.id);
			const intendedItems = INTENDED_ERRORS[workflow.name] ?? {};
			const shown = errorItems(execution);
			for (const { node, message } of shown) {
				if (!intendedItems[node]?.test(message))
					failures.push(`${workflow.name}: ${node} shows an unintended error: ${message}`);
			}
			for (const node of Object.keys(intendedItems)) {
				if (!shown.some((item) => item.node === node))
					failures.push(`${workflow.name}: ${node} shows no error item`);
			}
			const errors = describeErrors(execution);
			const intended = INTENDED_STOP[workflow.name];
			if (intended) {
				if (execution.status !== 'error' || !intended.test(errors))
					failures.push(`${workflow.name} (${execution.status}): ${errors}`);
			} else if (errors || execution.status !== 'success')
				failures.push(`${workflow.name} (${execution.status}): ${errors}`);
		} else {
			try {
				await n8n.client.activate(workflow.id);
				await n8n.client.deactivate(workflow.id);
			} catch (error) {
				failures.push(`${workflow.name}: activation failed: ${(error as Error).message}`);
			}
		}
	}
	expect(failures).toEqual([]);
}, 600_000);
