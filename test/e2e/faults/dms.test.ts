/**
 * Faults: 1,000-item DMS task workflows (create, update, comment) in a real n8n with Continue On Fail
 * while the sandbox injects seeded faults. The DMS offers no idempotency key, so an uncertain create or comment
 * is reported (never sent twice); an uncertain update is checked by reading the task back.
 */
import { DEMO_ACCOUNT, startSandbox } from '../../sandbox/server';
import { DMS_SEED, dmsOf } from '../../sandbox/dms/state';
import { createServiceCredential } from '../harness/credentials';
import { startN8n, type CredentialRef, type N8nInstance } from '../harness/n8n';
import {
	errorsAreClear,
	FAULT_ITEMS,
	itemsNode,
	linearWorkflow,
	printTally,
	randomFaults,
	reportsByIndex,
	requestOptions,
	since,
	tally,
	timeoutErrors,
} from './tally';

jest.setTimeout(900_000);

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let n8n: N8nInstance;
let credential: CredentialRef;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	n8n = await startN8n({ mode: 'regular' });
	credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
		name: 'Faults DMS',
	});
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const pad = (i: number) => String(i).padStart(4, '0');
const org = () => dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!;
const tasks = () => [...org().documents.values()].filter((doc) => doc.section === 'task');
const mapping = (value: Record<string, unknown>) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

function dmsNode(parameters: Record<string, unknown>) {
	return {
		name: 'DMS',
		type: 'n8n-nodes-cloud-storage.cloudStorageDmsTask',
		typeVersion: 1,
		parameters: { resource: 'task', ...parameters, requestOptions },
		credentials: { cloudStorageTokenApi: { id: credential.id, name: credential.name } },
		onError: 'continueRegularOutput',
	};
}

async function stage(
	name: string,
	nodes: any[],
	inputCount: number,
	seed: number,
	applied: () => number[],
) {
	const workflow = await n8n.client.importWorkflow(linearWorkflow(`Faults DMS: ${name}`, nodes));
	const logged = sandbox.requests.list().length;
	sandbox.faults.setRandom(randomFaults(seed));
	sandbox.faults.add({ match: {}, fault: '429', retryAfter: 1, times: 2 });
	const started = Date.now();
	const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 600_000 });
	const slow = sandbox.requests
		.list()
		.slice(logged)
		.filter((entry) => entry.fault === 'slow-answer').length;
	const injected = `${sandbox.faults.randomState()?.hits ?? 0} random faults injected, ${slow} of them slow answers, in ${since(started)}`;
	sandbox.faults.clear();
	expect(execution.status).toBe('success');
	expect(JSON.stringify(execution.data)).not.toContain(DEMO_ACCOUNT.token);
	const { reports, errors } = reportsByIndex(execution, 'DMS', inputCount);
	const result = tally(reports, applied());
	printTally(
		`DMS task ${name}`,
		result,
		`${injected} · ${timeoutErrors(errors)} timeouts reported`,
	);
	expect(errorsAreClear(errors)).toEqual([]);
	expect({ lost: result.lostIndexes, duplicated: result.duplicatedIndexes }).toEqual({
		lost: [],
		duplicated: [],
	});
}

it('creates, updates and comments 1,000 tasks under faults: nothing lost, nothing duplicated', async () => {
	const indexes = Array.from({ length: FAULT_ITEMS }, (_, i) => i);
	const before = new Set(tasks().map((task) => task.id));
	await stage(
		'create',
		[
			itemsNode(indexes.map((i) => ({ name: `fault task ${pad(i)}` }))),
			dmsNode({
				operation: 'create',
				project: { __rl: true, mode: 'id', value: '11' },
				fields: mapping({ name: '={{ $json.name }}' }),
			}),
		],
		FAULT_ITEMS,
		9101,
		() =>
			indexes.map(
				(i) => tasks().filter((task) => task.values.name === `fault task ${pad(i)}`).length,
			),
	);

	const created = tasks()
		.filter((task) => !before.has(task.id))
		.map((task) => ({ id: task.id, index: Number(/(\d+)$/.exec(String(task.values.name))![1]) }));
	await stage(
		'update',
		[
			itemsNode(created),
			dmsNode({
				operation: 'update',
				documentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				fields: mapping({ spent_hours: '={{ $json.index + 1 }}' }),
			}),
		],
		created.length,
		9102,
		() =>
			created.map(({ id, index }) =>
				String(org().documents.get(id)?.values.spent_hours) === String(index + 1) ? 1 : 0,
			),
	);

	await stage(
		'comment',
		[
			itemsNode(created),
			dmsNode({
				operation: 'addComment',
				documentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				comment: "={{ 'fault comment ' + $json.index }}",
			}),
		],
		created.length,
		9103,
		() =>
			created.map(
				({ id, index }) =>
					org().comments.filter((c) => c.taskId === id && c.text === `fault comment ${index}`)
						.length,
			),
	);
});
