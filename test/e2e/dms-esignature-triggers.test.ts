/**
 * The DMS Trigger (regular mode) and the E-Signature Trigger (queue mode: executions on the worker) in a real
 * n8n against the sandbox, from the example workflows. As in storage-trigger.test.ts, deactivating and
 * activating again is a deterministic "poll now" (the schedule is moved out of the way), and each poll is
 * recognised by its one listing request in the sandbox's log.
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
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

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

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

async function importWith(n8n: N8nInstance, workflow: Record<string, any>): Promise<WorkflowRef> {
	const credential = await n8n.client.createCredential(
		'cloudStorageTokenApi',
		`Demo ${Date.now()}`,
		{
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			user: DEMO_ACCOUNT.username,
			accessToken: DEMO_ACCOUNT.token,
		},
	);
	return await n8n.client.importWorkflow(pollOnlyOnActivation(workflow), {
		credentials: { [credential.type]: credential },
	});
}

/** One poll now; `listing` tells one poll's single listing request in the sandbox's log. */
function poller(
	n8n: N8nInstance,
	workflow: WorkflowRef,
	listing: (entry: { action?: string | null; path: string }) => boolean,
) {
	let polls = 0;
	return async (deactivateFirst = true) => {
		if (deactivateFirst) await n8n.client.deactivate(workflow.id);
		await n8n.client.activate(workflow.id);
		const expected = ++polls;
		await until(
			`poll ${expected}`,
			() =>
				sandbox.requests.list().filter((entry) => listing(entry) && entry.status !== null).length >=
				expected,
		);
	};
}

async function recordedState(n8n: N8nInstance, workflow: WorkflowRef, trigger: string) {
	return await until('the recorded state', async () => {
		const staticData = (await n8n.client.getWorkflow(workflow.id)).staticData ?? {};
		return (staticData[`node:${trigger}`] as { state?: unknown } | undefined)?.state;
	});
}

async function dms(action: string, params: Record<string, unknown>): Promise<number> {
	const response = await fetch(`${sandbox.baseUrl}/api_dvs/task/${action}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ user: 'demo', user_access_token: DEMO_ACCOUNT.token, ...params }),
	});
	expect(response.status).toBe(200);
	return Number(((await response.json()) as { dvs_document_id: number }).dvs_document_id);
}

describe('Cloud Storage DMS Trigger in n8n, regular mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => (n8n = await startN8n({ mode: 'regular' })));
	afterAll(async () => await n8n?.stop());

	it('fetches a test event, records on activation, then reports a new task and a status change once', async () => {
		const TRIGGER = 'Cloud Storage DMS Trigger';
		const workflow = await importWith(n8n, loadWorkflow('dms-trigger.json'));
		const manual = await n8n.client.runWorkflow(workflow.id, { trigger: TRIGGER });
		expect(describeErrors(manual)).toBe('');
		expect(itemsOf(manual, TRIGGER).length).toBeGreaterThan(0);
		const manualIds = new Set(await n8n.client.listExecutionIds(workflow.id));

		sandbox.requests.clear();
		const pollNow = poller(n8n, workflow, (entry) => entry.path.endsWith('/task/get_documents'));
		await pollNow(false);
		await recordedState(n8n, workflow, TRIGGER);
		const created = await dms('create_document', {
			create_params: { dvs_project_id: 11, name: 'From the e2e test', dropdown_status: 31 },
		});
		await dms('update_document', { dvs_document_id: 42, update_params: { dropdown_status: 33 } });
		await pollNow();
		const [first] = await executionsAfterPoll(n8n, workflow, 1, manualIds);
		expect(describeErrors(first)).toBe('');
		const received = itemsOf(first, 'Received').map((item) => item.json);
		expect(received.map((json) => `${json.event} ${json.dvs_document_id}`).sort()).toEqual(
			[`taskCreated ${created}`, 'taskStatusChanged 42'].sort(),
		);
		expect(received.find((json) => json.event === 'taskStatusChanged')).toMatchObject({
			from: { id: 31, display_name: 'Open' },
			to: { id: 33, display_name: 'Done' },
		});
		await pollNow();
		await pollNow();
		expect(
			(await n8n.client.listExecutionIds(workflow.id)).filter((id) => !manualIds.has(id)),
		).toHaveLength(1);
		await n8n.client.deactivate(workflow.id);
	});
});

describe('Cloud Storage E-Signature Trigger in n8n, queue mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => (n8n = await startN8n({ mode: 'queue' })));
	afterAll(async () => await n8n?.stop());

	it('polls on main, runs the execution on the worker and reports each signature once with the signed file', async () => {
		const TRIGGER = 'Cloud Storage E-Signature Trigger';
		const demo = sandbox.store.accountByLogin('demo')!;
		const folder = sandbox.store.createFolder(
			demo,
			sandbox.store.rootOf(demo),
			`e2e signatures ${Date.now()}`,
			'PRIVATE',
		);
		const [a, b] = sandbox.store.bulkCreate(demo, {
			folders: 0,
			filesPerFolder: 2,
			parent: folder,
			filePrefix: 'contract ',
		}).files;
		const sign = async (hash: string, signer: string) =>
			expect(
				(
					await fetch(`${sandbox.baseUrl}/__sandbox/signatures`, {
						method: 'POST',
						body: JSON.stringify({ file_hash: hash, signer_name: signer }),
					})
				).status,
			).toBe(200);
		await sign(a.hash, 'Before Activation');

		const example = loadWorkflow('esignature-trigger.json');
		example.nodes = example.nodes.filter((node: { name: string }) =>
			['Cloud Storage E-Signature Trigger', 'Received'].includes(node.name),
		);
		example.connections = { [TRIGGER]: example.connections[TRIGGER] };
		example.nodes[0].parameters.folder.value = folder.hash;
		const workflow = await importWith(n8n, example);
		const manual = await n8n.client.runWorkflow(workflow.id, { trigger: TRIGGER });
		expect(describeErrors(manual)).toBe('');
		expect(itemsOf(manual, TRIGGER).map((item) => item.json.signer_name)).toEqual([
			'Before Activation',
		]);
		const manualIds = new Set(await n8n.client.listExecutionIds(workflow.id));

		sandbox.requests.clear();
		const pollNow = poller(n8n, workflow, (entry) => entry.action === 'get_folder_content');
		await pollNow(false);
		await recordedState(n8n, workflow, TRIGGER);
		await sign(b.hash, 'Bob Signer');
		await pollNow();
		const [execution] = await executionsAfterPoll(n8n, workflow, 1, manualIds);
		expect(describeErrors(execution)).toBe('');
		const [item] = itemsOf(execution, 'Received');
		expect(item.json).toMatchObject({
			event: 'signed',
			file_hash: b.hash,
			file_name: b.name,
			signer_name: 'Bob Signer',
		});
		expect(item.binary?.data).toMatchObject({ fileName: b.name });
		expect(n8n.workerRanExecution(execution.id)).toBe(true);
		await pollNow();
		expect(
			(await n8n.client.listExecutionIds(workflow.id)).filter((id) => !manualIds.has(id)),
		).toHaveLength(1);
		await n8n.client.deactivate(workflow.id);
	});
});
