/**
 * One tick of a polling trigger, as an active workflow runs it in n8n: the node's `poll()` is called
 * through n8n-core's PollContext (mode `trigger`) with the workflow's static data, and whatever it emits
 * would start an execution. Call it repeatedly, passing the returned static data back in, to simulate
 * consecutive polls; n8n keeps that data on the active workflow between polls and saves it to the database.
 */
import {
	commitStagedCursor,
	PollContext,
	runPollInStagingScope,
	TriggersAndPollers,
} from 'n8n-core';
import type { IDataObject, INodeExecutionData, WorkflowActivateMode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { Container } from './core-container';
import { createAdditionalData } from './additional-data';
import { CredentialStore } from './credential-store';
import { EngineCredentialsHelper } from './credentials-helper';
import { createRegistry } from './registry';
import type { RunOptions } from './run-workflow';
import { engineServices } from './services';
import './warm-up';
import { prepareNodes, type WorkflowSpec } from './workflow';

export interface PollOptions extends Omit<RunOptions, 'startNode'> {
	/** Workflow static data from the previous poll (`{}` or omitted for a freshly activated workflow). */
	staticData?: IDataObject;
	/** Name of the polling node; defaults to the only node with a `poll` method. */
	pollNode?: string;
	/** `activate` (the user activated the workflow) or `init` (n8n started with it active). */
	activation?: WorkflowActivateMode;
}

export interface PollResult {
	/** What `poll()` returned (and n8n would run the workflow with), or null when it emitted nothing. */
	emitted: INodeExecutionData[][] | null;
	/** The first output's items, [] when nothing was emitted. */
	items: INodeExecutionData[];
	/** Workflow static data after the poll, keyed as n8n stores it (`node:<node name>` per node). */
	staticData: IDataObject;
	/** The poll node's own static data, i.e. `getWorkflowStaticData('node')`. */
	nodeStaticData: IDataObject;
}

let pollCounter = 0;

export async function runPoll(spec: WorkflowSpec, options: PollOptions = {}): Promise<PollResult> {
	await engineServices();
	const { nodeTypes, credentialTypes } = createRegistry(options);
	const credentialRecords = options.credentials ?? {};
	const credentialsHelper = new EngineCredentialsHelper(
		credentialTypes,
		new CredentialStore(credentialRecords),
	);

	const nodes = prepareNodes(spec.nodes, nodeTypes, Object.keys(credentialRecords));
	const workflow = new Workflow({
		id: 'engine-test-workflow',
		name: 'Engine test',
		nodes,
		connections: spec.connections,
		active: true,
		nodeTypes,
		settings: { executionOrder: 'v1', ...spec.settings },
		staticData: structuredClone(options.staticData ?? {}),
	});
	const pollNodes = nodes.filter(
		(node) => nodeTypes.getByNameAndVersion(node.type, node.typeVersion).poll,
	);
	const node = options.pollNode
		? workflow.getNode(options.pollNode)
		: pollNodes.length === 1
			? pollNodes[0]
			: null;
	if (!node)
		throw new Error(`Name the polling node (found ${pollNodes.length}): runPoll(wf, { pollNode })`);

	const additionalData = createAdditionalData({
		credentialsHelper,
		executionId: `poll-${++pollCounter}`,
		workflowId: workflow.id,
	});
	let emitted: INodeExecutionData[][] | null = null;
	let emittedError: Error | undefined;
	const context = new PollContext(
		workflow,
		node,
		additionalData,
		'trigger',
		options.activation ?? 'activate',
		(data) => {
			emitted = data;
		},
		(error) => {
			emittedError = error;
		},
	);

	// The same sequence as n8n-core's PollTriggerExecutor; its errors are rethrown here for the test.
	await runPollInStagingScope(context, async () => {
		const response = await Container.get(TriggersAndPollers).runPollFunction(
			workflow,
			node,
			context,
		);
		if (response !== null) context.__emit(response);
		else await commitStagedCursor(context);
	});
	if (emittedError) throw emittedError;

	const staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
	const nodeStaticData = (staticData[`node:${node.name}`] as IDataObject | undefined) ?? {};
	const result: INodeExecutionData[][] | null = emitted;
	return { emitted: result, items: result?.[0] ?? [], staticData, nodeStaticData };
}
