/**
 * Faults: FAULT_ITEMS-item (1,000 for the report, 250 in npm test) DMS task workflows (create, update, comment) in a real n8n with Continue On Fail
 * while the sandbox injects seeded faults. The DMS offers no idempotency key, so an uncertain create or comment
 * is reported (never sent twice); an uncertain update is checked by reading the task back.
 *
 * The world is not the node's alone: a second client (another user of the organisation) creates a task with
 * the same title in the same project at the moment many of the node's creates arrive; the service's `Date`
 * runs 5 min off its stored timestamps (ahead for create, behind for update); some writes are applied only
 * after the node's Timeout ended (`slow`). Besides the final state, each write the service applies is counted
 * per item (Sent again after applied), and each create reported done is checked to be the node's own task.
 */
import { DEMO_ACCOUNT, startSandbox } from '../../sandbox/server';
import { DMS_SEED, dmsOf } from '../../sandbox/dms/state';
import type { FaultTarget } from '../../sandbox/faults';
import { prng } from '../../sandbox/prng';
import { createServiceCredential } from '../harness/credentials';
import { sandboxIdle } from '../harness/load';
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
	SLOW_WRITE_MS,
	tally,
	timeoutErrors,
	type Checks,
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

/** Faults that stop a request before the service applies it. */
const NOT_APPLIED = new Set(['drop-before', '429', '500', '503']);
const FIVE_MINUTES = 5 * 60_000;

/**
 * Watches every request the sandbox takes: `applies(json)` names the item a write applies to (or undefined),
 * counted when no fault stopped it; `meanwhile(json)` runs as the request arrives (the second client).
 */
function watchWrites(
	inputCount: number,
	applies: (target: FaultTarget) => number | undefined,
	meanwhile?: (target: FaultTarget, stopped: boolean) => void,
): { applications: number[]; stop: () => void } {
	const applications = Array.from({ length: inputCount }, () => 0);
	const take = sandbox.faults.take.bind(sandbox.faults);
	const spy = jest.spyOn(sandbox.faults, 'take').mockImplementation((target) => {
		const rule = take(target);
		const stopped = rule !== undefined && NOT_APPLIED.has(rule.fault);
		const index = applies(target);
		if (index !== undefined && !stopped) applications[index]++;
		meanwhile?.(target, stopped);
		return rule;
	});
	return { applications, stop: () => spy.mockRestore() };
}

const jsonOf = (target: FaultTarget) => (target.json ?? {}) as Record<string, any>;

async function stage(
	name: string,
	nodes: any[],
	inputCount: number,
	seed: number,
	applied: () => number[],
	watch: {
		applies: (target: FaultTarget) => number | undefined;
		meanwhile?: (target: FaultTarget, stopped: boolean) => void;
		wrong?: (outputs: Record<string, any>[], applications: number[]) => Checks['wrong'];
		dateOffsetMs: number;
	},
) {
	const workflow = await n8n.client.importWorkflow(linearWorkflow(`Faults DMS: ${name}`, nodes));
	const logged = sandbox.requests.list().length;
	sandbox.faults.setRandom(randomFaults(seed, { slow: true }));
	sandbox.faults.add({ match: {}, fault: '429', retryAfter: 1, times: 2 });
	sandbox.faults.dateOffsetMs = watch.dateOffsetMs;
	const watcher = watchWrites(inputCount, watch.applies, watch.meanwhile);
	const started = Date.now();
	const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 600_000 });
	const slow = sandbox.requests
		.list()
		.slice(logged)
		.filter((entry) => entry.fault === 'slow-answer' || entry.fault === 'slow').length;
	const injected = `${sandbox.faults.randomState()?.hits ?? 0} random faults injected, ${slow} of them slow, in ${since(started)}`;
	sandbox.faults.clear();
	// A write held back past the Timeout lands afterwards: wait for it before the service is read.
	await sandboxIdle(() => sandbox.requests.list(), SLOW_WRITE_MS + 120_000);
	watcher.stop();
	expect(execution.status).toBe('success');
	expect(JSON.stringify(execution.data)).not.toContain(DEMO_ACCOUNT.token);
	const { reports, errors, outputs } = reportsByIndex(execution, 'DMS', inputCount);
	const result = tally(reports, applied(), {
		applications: watcher.applications,
		wrong: watch.wrong?.(outputs, watcher.applications),
	});
	printTally(
		`DMS task ${name}`,
		result,
		`${injected} · ${timeoutErrors(errors)} timeouts reported`,
	);
	expect(errorsAreClear(errors)).toEqual([]);
	expect({
		lost: result.lostIndexes,
		duplicated: result.duplicatedIndexes,
		wrongAdopted: result.wrongIndexes,
		sentAgain: result.sentAgainIndexes,
	}).toEqual({ lost: [], duplicated: [], wrongAdopted: [], sentAgain: [] });
}

it(`creates, updates and comments ${FAULT_ITEMS} tasks under faults: nothing lost, nothing duplicated`, async () => {
	const indexes = Array.from({ length: FAULT_ITEMS }, (_, i) => i);
	const before = new Set(tasks().map((task) => task.id));
	const indexOfName = (name: unknown) => {
		const match = /^fault task (\d{4})$/.exec(String(name ?? ''));
		return match ? Number(match[1]) : undefined;
	};
	// The second client: another user creates a task of the same title in the same project as many of the
	// node's creates arrive (every one a fault stops, and a seeded fifth of the others).
	const secondClient = prng(9111);
	const ours = (task: { creatorId: number }) => task.creatorId === DMS_SEED.users.demo;
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
				(i) =>
					tasks().filter((task) => ours(task) && task.values.name === `fault task ${pad(i)}`)
						.length,
			),
		{
			dateOffsetMs: FIVE_MINUTES,
			applies: (target) =>
				target.action === 'create_document'
					? indexOfName(jsonOf(target).create_params?.name)
					: undefined,
			meanwhile: (target, stopped) => {
				if (target.action !== 'create_document') return;
				const name = jsonOf(target).create_params?.name;
				if (indexOfName(name) === undefined || !(stopped || secondClient() < 0.2)) return;
				dmsOf(sandbox.store).insert(org(), {
					section: 'task',
					values: { dvs_project_id: 11, name, followers: [] },
					creatorId: DMS_SEED.users.alice,
				});
			},
			wrong: (outputs) => {
				const seen = new Map<unknown, number>();
				return (i) => {
					const id = outputs[i]?.dvs_document_id;
					const task = org().documents.get(Number(id));
					const other = seen.get(id);
					seen.set(id, i);
					return (
						!task ||
						!ours(task) ||
						task.values.name !== `fault task ${pad(i)}` ||
						(other !== undefined && other !== i)
					);
				};
			},
		},
	);

	const created = tasks()
		.filter((task) => !before.has(task.id) && ours(task))
		.map((task) => ({ id: task.id, index: Number(/(\d+)$/.exec(String(task.values.name))![1]) }));
	// Task id → its item's position in the update and comment stages.
	const position = new Map<unknown, number>(created.map(({ id }, i) => [id, i]));
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
		{
			dateOffsetMs: -FIVE_MINUTES,
			applies: (target) =>
				target.action === 'update_document'
					? position.get(jsonOf(target).dvs_document_id)
					: undefined,
			// Done names the item's own task, and the service applied the node's own update to it (values
			// read back equal to those sent are taken for applied: no other writer sends them here).
			wrong: (outputs, applications) => (i) =>
				applications[i] === 0 || Number(outputs[i]?.dvs_document_id) !== created[i].id,
		},
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
		{
			dateOffsetMs: 0,
			applies: (target) =>
				target.action === 'add_comment' ? position.get(jsonOf(target).dvs_document_id) : undefined,
			// Done only where the service applied the node's own comment.
			wrong: (_outputs, applications) => (i) => applications[i] === 0,
		},
	);
});
