/**
 * Runs a workflow through n8n-core's real engine (`WorkflowExecute`) in manual mode, starting from its
 * trigger, as the editor's "Execute workflow" does, and returns what the execution recorded.
 */
import { BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	INodeExecutionData,
	IRun,
	IRunData,
	IWorkflowBase,
} from 'n8n-workflow';
import { setSafeRegexEngine, Workflow } from 'n8n-workflow';

import { Container } from './core-container';
import { createAdditionalData } from './additional-data';
import { type CredentialRecords, CredentialStore } from './credential-store';
import { EngineCredentialsHelper } from './credentials-helper';
import { createRegistry, type ExtraTypes } from './registry';
import { engineServices } from './services';
import './warm-up';
import { prepareNodes, type WorkflowSpec } from './workflow';

/**
 * n8n-workflow runs every regular expression in a vm with a 250 ms wall-clock limit. The engine checks the
 * pack's own resource-locator patterns before each run, and on a loaded machine a pause of the test process
 * (a collection, another job) exceeded that limit and failed a run for nothing the pack did. The patterns are
 * fixed and linear, so the harness runs them without the vm.
 */
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) =>
		Array.from(
			input.matchAll(new RegExp(pattern, `${flags ?? ''}${flags?.includes('g') ? '' : 'g'}`)),
		),
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});

export interface RunOptions extends ExtraTypes {
	/**
	 * Stored credentials by credential type. Acts as n8n's credentials table: values the run persists
	 * (e.g. a session token from `preAuthentication`) are written back into this object.
	 */
	credentials?: CredentialRecords;
	/** Name of the node to start from; defaults to the workflow's trigger. */
	startNode?: string;
}

export interface RunResult {
	run: IRun;
	runData: IRunData;
	/**
	 * The execution's error when a node failed without Continue On Fail: a plain copy of the error
	 * (`name`, `message`, `description`, `httpCode`, `node`...), as n8n stores it with the execution.
	 */
	error?: ExecutionBaseError;
	/** Items of a node's output (json, binary metadata, pairedItem, error); [] if the node did not run. */
	nodeOutput(nodeName: string, outputIndex?: number, runIndex?: number): INodeExecutionData[];
	/** The bytes of an item's binary property, read from n8n's binary data store. */
	readBinary(item: INodeExecutionData, property?: string): Promise<Buffer>;
}

let executionCounter = 0;

export async function runWorkflow(
	spec: WorkflowSpec,
	options: RunOptions = {},
): Promise<RunResult> {
	await engineServices();
	const { nodeTypes, credentialTypes } = createRegistry(options);
	const credentialRecords = options.credentials ?? {};
	const credentialsHelper = new EngineCredentialsHelper(
		credentialTypes,
		new CredentialStore(credentialRecords),
	);

	const workflowId = 'engine-test-workflow';
	const executionId = String(++executionCounter);
	const nodes = prepareNodes(spec.nodes, nodeTypes, Object.keys(credentialRecords));
	const settings = { executionOrder: 'v1' as const, ...spec.settings };
	const workflow = new Workflow({
		id: workflowId,
		name: 'Engine test',
		nodes,
		connections: spec.connections,
		active: false,
		nodeTypes,
		settings,
	});

	const workflowData = {
		id: workflowId,
		name: workflow.name,
		nodes,
		connections: spec.connections,
		active: false,
		settings,
	} as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	const additionalData = createAdditionalData({
		credentialsHelper,
		hooks,
		executionId,
		workflowId,
	});

	const startNode = options.startNode
		? (workflow.getNode(options.startNode) ?? undefined)
		: workflow.getStartNode();
	if (!startNode)
		throw new Error('The workflow has no trigger to start from (add a Manual Trigger)');

	const run = await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode });
	const { runData, error } = run.data.resultData;

	return {
		run,
		runData,
		error,
		nodeOutput: (nodeName, outputIndex = 0, runIndex = 0) =>
			runData[nodeName]?.[runIndex]?.data?.main?.[outputIndex] ?? [],
		readBinary: async (item, property = 'data') => {
			const binary = item.binary?.[property];
			if (!binary) throw new Error(`Item has no binary property "${property}"`);
			return await Container.get(BinaryDataService).getAsBuffer(binary);
		},
	};
}
