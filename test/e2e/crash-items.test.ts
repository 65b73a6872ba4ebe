/**
 * How the crash harness reads a trigger's items from every shape n8n 2.41.1 can leave a killed execution in. Each
 * shape is built with n8n's own code: the start data as WorkflowExecutionService.runPolledWorkflow creates it
 * (status new, committed with the poll's cursor), the rewrite of ExecutionRecoveryService.amend at the next start
 * (a node the event log shows finished but whose run data was never saved gets one artificial item; one that only
 * started gets a crashed run without data; no node event leaves the execution as it was, still "running"), and the
 * execution n8n saves for a poll that threw (createErrorExecutionData: a placeholder item in its start data).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { executionShape, pollFailed, triggerItems } from './harness/crash';

const n8nRequire = createRequire(join(__dirname, 'runtime/node_modules/n8n/package.json'));
n8nRequire('reflect-metadata');
const { ARTIFICIAL_TASK_DATA } = n8nRequire('./dist/constants.js') as {
	ARTIFICIAL_TASK_DATA: { main: Array<Array<Record<string, unknown>>> };
};
const { createRunExecutionData, createErrorExecutionData } = n8nRequire('n8n-workflow') as {
	createRunExecutionData(data: Record<string, unknown>): Record<string, any>;
	createErrorExecutionData(node: Record<string, unknown>, error: Error): Record<string, any>;
};
const { ExecutionRecoveryService } = n8nRequire(
	'./dist/executions/execution-recovery.service.js',
) as {
	ExecutionRecoveryService: new (...services: unknown[]) => {
		amend(executionId: string, messages: unknown[]): Promise<Record<string, any> | null>;
	};
};
const { EventMessageNode } = n8nRequire(
	'./dist/eventbus/event-message-classes/event-message-node.js',
);
const { EventMessageWorkflow } = n8nRequire(
	'./dist/eventbus/event-message-classes/event-message-workflow.js',
);

const node = {
	id: 'trigger-id',
	name: 'Trigger',
	type: 'n8n-nodes-cloud-storage.storageTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const polled = [
	{ json: { eventId: 'a:1', name: 'a.txt' } },
	{ json: { eventId: 'b:1', name: 'b.txt' } },
];

/** The data runPolledWorkflow commits with the cursor (status new), as the executions API answers it. */
const created = (items = polled) =>
	JSON.parse(
		JSON.stringify(
			createRunExecutionData({
				executionData: {
					nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
				},
			}),
		),
	) as Record<string, any>;

/** What ExecutionRecoveryService makes of a killed execution (stored data `data`) given its logged events. */
async function recovered(data: Record<string, any>, events: string[]) {
	const stored = {
		id: '7',
		status: 'running',
		workflowId: 'w',
		workflowData: { nodes: [node] },
		data,
	};
	const persistence = { findSingleExecution: async () => structuredClone(stored) };
	const service = new ExecutionRecoveryService(
		...[{}, { isFollower: false }, {}, { exists: async () => true }, persistence],
		...Array.from({ length: 6 }, () => ({})),
		{ markAsCrashedWithoutCounting: async () => undefined },
	);
	const ts = '2026-11-28T12:00:00.000Z';
	const messages = events.map((eventName) =>
		eventName.startsWith('n8n.node.')
			? new EventMessageNode({ eventName, ts, payload: { nodeName: node.name, executionId: '7' } })
			: new EventMessageWorkflow({ eventName, ts, payload: { executionId: '7' } }),
	);
	const amended = await service.amend('7', messages);
	return amended && (JSON.parse(JSON.stringify(amended.data)) as Record<string, any>);
}

describe('crash harness: the trigger items of an execution n8n kept after a kill', () => {
	it('created, never started (status new): the start data', () => {
		expect(triggerItems(created(), node.name)).toEqual(polled);
		expect(pollFailed(created(), node.name)).toBe(false);
		expect(executionShape(created(), node.name)).toBe('not run');
	});

	it('killed before any node event: n8n leaves it as it was (running), the start data', async () => {
		expect(await recovered(created(), ['n8n.workflow.started'])).toBeNull();
		expect(triggerItems(created(), node.name)).toEqual(polled);
	});

	it('killed with no event logged: n8n marks it crashed, data unchanged, the start data', async () => {
		const data = (await recovered(created(), []))!;
		expect(triggerItems(data, node.name)).toEqual(polled);
		expect(executionShape(data, node.name)).toBe('not run');
	});

	it('the trigger only started: a crashed run without data, the start data', async () => {
		const data = (await recovered(created(), ['n8n.workflow.started', 'n8n.node.started']))!;
		expect(data.resultData.runData[node.name][0]).toMatchObject({ executionStatus: 'crashed' });
		expect(triggerItems(data, node.name)).toEqual(polled);
		expect(pollFailed(data, node.name)).toBe(false);
		expect(executionShape(data, node.name)).toBe('recovered: started only');
	});

	it('the trigger finished, its run data lost: the start data, not the artificial item', async () => {
		const data = (await recovered(created(), [
			'n8n.workflow.started',
			'n8n.node.started',
			'n8n.node.finished',
		]))!;
		expect(data.resultData.runData[node.name][0].data).toEqual(ARTIFICIAL_TASK_DATA);
		expect(triggerItems(data, node.name)).toEqual(polled);
		expect(executionShape(data, node.name)).toBe('recovered: finished, run data lost');
	});

	it('the durable baseline (a poll that emitted no items), recovered as finished: no items', async () => {
		const data = (await recovered(created([]), [
			'n8n.workflow.started',
			'n8n.node.started',
			'n8n.node.finished',
		]))!;
		expect(triggerItems(data, node.name)).toEqual([]);
	});

	it('a trigger that ran and was saved: its output', () => {
		const data = {
			...created(),
			resultData: { runData: { Trigger: [{ data: { main: [polled.slice(0, 1)] } }] } },
		};
		expect(triggerItems(data, node.name)).toEqual(polled.slice(0, 1));
		expect(executionShape(data, node.name)).toBe('ran');
	});

	it('a poll that threw (n8n saved an error execution): no items, and the failure is told', () => {
		const data = JSON.parse(
			JSON.stringify(createErrorExecutionData(node, new Error('the service did not answer'))),
		);
		expect(data.executionData.nodeExecutionStack[0].data.main[0]).toEqual([
			expect.objectContaining({ json: {} }),
		]);
		expect(triggerItems(data, node.name)).toEqual([]);
		expect(pollFailed(data, node.name)).toBe(true);
		expect(executionShape(data, node.name)).toBe('failed poll');
	});

	it('the trigger failed inside the workflow run: its input, back on the stack', () => {
		// WorkflowExecute.handleNodeExecutionError marks the run `error`; the node's input is put back on the stack.
		const data = {
			...created(),
			resultData: {
				runData: { Trigger: [{ executionStatus: 'error', error: { message: 'failed' } }] },
			},
		};
		expect(pollFailed(data, node.name)).toBe(false);
		expect(triggerItems(data, node.name)).toEqual(polled);
		expect(executionShape(data, node.name)).toBe('failed in the run');
	});

	it('no data at all (an execution whose data n8n could not read): no items, no throw', () => {
		expect(triggerItems({}, node.name)).toEqual([]);
	});
});
