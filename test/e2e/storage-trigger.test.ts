/**
 * The Cloud Storage Trigger in a real n8n against the sandbox (workflows/storage-trigger.json).
 * n8n polls at most once a minute (a cron with a seconds field other than a plain number is refused as
 * "too short"), but every activation runs one poll at once with the stored static data and saves it, so
 * deactivating and activating again is a deterministic "poll now". Activation answers before that poll
 * has run, so the test waits for the poll's tree request in the sandbox's log. The manual "Fetch Test
 * Event" run returns recent items. In queue mode the executions the polls start run on the worker.
 */
import { startSandbox } from '../sandbox/server';
import { createServiceCredential } from './harness/credentials';
import {
	describeErrors,
	executionsAfterPoll,
	itemsOf,
	loadWorkflow,
	pollOnlyOnActivation,
	startN8n,
	type N8nInstance,
	type WorkflowRef,
} from './harness/n8n';

jest.setTimeout(180_000);

const TRIGGER = 'Cloud Storage Trigger';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

const demo = () => sandbox.store.accountByLogin('demo')!;
let count = 0;
function watchedFolder() {
	return sandbox.store.createFolder(
		demo(),
		sandbox.store.rootOf(demo()),
		`e2e trigger ${++count} ${Date.now()}`,
		'PRIVATE',
	);
}

async function setUp(n8n: N8nInstance, folderHash: string): Promise<WorkflowRef> {
	const credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
		name: `Demo ${count}`,
	});
	const workflow = pollOnlyOnActivation(loadWorkflow('storage-trigger.json'));
	workflow.nodes[0].parameters.folder.value = folderHash;
	return await n8n.client.importWorkflow(workflow, {
		credentials: { [credential.type]: credential },
	});
}

async function until<T>(
	what: string,
	check: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

let treePolls = 0;
/** One poll now: activation runs the trigger's poll at once; each poll asks for the tree exactly once. */
async function pollNow(n8n: N8nInstance, workflow: WorkflowRef, deactivateFirst = true) {
	if (deactivateFirst) await n8n.client.deactivate(workflow.id);
	await n8n.client.activate(workflow.id);
	const expected = ++treePolls;
	await until(`poll ${expected}`, () => {
		const answered = sandbox.requests
			.list()
			.filter((entry) => entry.action === 'get_upload_tree' && entry.status !== null);
		return answered.length >= expected;
	});
}

async function exactlyOnceFlow(n8n: N8nInstance) {
	const folder = watchedFolder();
	const sub = sandbox.store.createFolder(demo(), folder, 'Sub', 'PRIVATE');
	sandbox.store.bulkCreate(demo(), {
		folders: 0,
		filesPerFolder: 2,
		parent: sub,
		filePrefix: 'before ',
	});
	const workflow = await setUp(n8n, folder.hash);

	// Fetch Test Event: recent items with their content, no state.
	const manual = await n8n.client.runWorkflow(workflow.id, { trigger: TRIGGER });
	expect(describeErrors(manual)).toBe('');
	const sample = itemsOf(manual, TRIGGER);
	expect(sample.map((item) => item.json.name).sort()).toEqual(['before 1.txt', 'before 2.txt']);
	expect(sample[0].binary?.data).toBeDefined();
	const manualIds = new Set(await n8n.client.listExecutionIds(workflow.id));

	// Activation records the current state (saved with the workflow) and starts nothing.
	sandbox.requests.clear();
	treePolls = 0;
	await pollNow(n8n, workflow, false);
	await until('the recorded state', async () => {
		const staticData = (await n8n.client.getWorkflow(workflow.id)).staticData ?? {};
		return (staticData[`node:${TRIGGER}`] as { state?: unknown } | undefined)?.state;
	});
	const { files } = sandbox.store.bulkCreate(demo(), {
		folders: 0,
		filesPerFolder: 3,
		parent: sub,
		filePrefix: 'new ',
	});
	await pollNow(n8n, workflow);
	const [first] = await executionsAfterPoll(n8n, workflow, 1, manualIds);
	expect(describeErrors(first)).toBe('');
	expect(itemsOf(first, 'Received').map((item) => `${item.json.event} ${item.json.path}`)).toEqual([
		'fileCreated Sub/new 1.txt',
		'fileCreated Sub/new 2.txt',
		'fileCreated Sub/new 3.txt',
	]);
	expect(itemsOf(first, 'Received')[0].binary?.data).toMatchObject({ fileName: 'new 1.txt' });

	// The same state polled again reports nothing; the next change only that change.
	await pollNow(n8n, workflow);
	const deleted = files[1];
	sandbox.store.files.get(deleted.id)!.deleted = sandbox.store.nextTrashMark();
	await pollNow(n8n, workflow);
	const executions = await executionsAfterPoll(n8n, workflow, 2, manualIds);
	const latest = executions[0];
	expect(itemsOf(latest, 'Received').map((item) => `${item.json.event} ${item.json.hash}`)).toEqual(
		[`fileDeleted ${deleted.hash}`],
	);
	expect(
		(await n8n.client.listExecutionIds(workflow.id)).filter((id) => !manualIds.has(id)),
	).toHaveLength(2);
	await n8n.client.deactivate(workflow.id);
	return executions;
}

describe('Cloud Storage Trigger in n8n, regular mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => (n8n = await startN8n({ mode: 'regular' })));
	afterAll(async () => await n8n?.stop());

	it('fetches a test event, then reports each change once across activations', async () => {
		await exactlyOnceFlow(n8n);
	});
});

describe('Cloud Storage Trigger in n8n, queue mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => (n8n = await startN8n({ mode: 'queue' })));
	afterAll(async () => await n8n?.stop());

	it('polls on main and runs the executions on the worker', async () => {
		const executions = await exactlyOnceFlow(n8n);
		for (const execution of executions) expect(n8n.workerRanExecution(execution.id)).toBe(true);
	});
});
