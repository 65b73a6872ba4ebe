import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { outcomeOf, type WriteOutcome } from '../errors/outcome';
import { saidMayHaveBeenApplied } from '../errors/write-failure';
import type { OperationMap, OperationModule } from './router';

/**
 * n8n's Retry On Fail runs the whole node again, with the same input, after it threw, and also after it
 * returned when item 0 of its output is an error item (Continue On Fail): up to 5 tries of one node run,
 * the run index unchanged (n8n-core 2.41 `WorkflowExecute.processRunExecutionData`). Without a memory, every
 * write of the node would be sent again: one whose answer was lost and that no read settled, and one that
 * was applied. So, for a node with Retry On Fail on, each item whose write was applied or may have been is
 * remembered per execution, node and run index, and a later try of the same run returns that item's output
 * (or throws its error) instead of sending the write again. Items that were not applied, and reads, run again.
 * Memory is bounded: a node's earlier runs are dropped when its next run starts, and at most MAX_RUNS node
 * runs (MAX_ITEMS items each) are kept, the least recently used going first.
 */

type Remembered = { output: INodeExecutionData[] } | { error: unknown };

const MAX_RUNS = 64;
const MAX_ITEMS = 5000;
/** Outcomes a write must never be sent again after. */
const SETTLED_OR_UNKNOWN: ReadonlySet<WriteOutcome> = new Set([
	'applied',
	'applied-after-lost-answer',
	'unknown',
]);

/** Node run (execution, node, run index) → item index → what its write did; Map order is recency. */
const runs = new Map<string, Map<number, Remembered>>();

export const NOT_SENT_AGAIN =
	"n8n's Retry On Fail ran this node again; this item's write had been applied or may have been, so it was not sent again.";

function runKey(
	ctx: IExecuteFunctions,
): { key: string; node: string; runIndex: number } | undefined {
	const node = ctx.getNode();
	if (node.retryOnFail !== true) return undefined;
	const executionId = ctx.getExecutionId?.();
	const runIndex = (ctx as unknown as { runIndex?: unknown }).runIndex;
	// Without both, a later run of the node (a loop) could not be told from a retry: nothing is remembered.
	if (!executionId || typeof runIndex !== 'number') return undefined;
	const node_ = `${executionId}\u0000${node.name}`;
	return { key: `${node_}\u0000${runIndex}`, node: node_, runIndex };
}

function itemsOf(key: { key: string; node: string; runIndex: number }): Map<number, Remembered> {
	let items = runs.get(key.key);
	if (items) {
		runs.delete(key.key);
		runs.set(key.key, items);
		return items;
	}
	// A new run of this node: its earlier runs' tries are over.
	for (const other of runs.keys())
		if (other.startsWith(`${key.node}\u0000`) && other !== key.key) runs.delete(other);
	items = new Map();
	runs.set(key.key, items);
	while (runs.size > MAX_RUNS) runs.delete(runs.keys().next().value as string);
	return items;
}

const noted_ = new WeakSet<object>();

/** The remembered error, its description saying once why this try did not send the write. */
function noted(error: unknown): unknown {
	if (typeof error !== 'object' || error === null || noted_.has(error)) return error;
	noted_.add(error);
	const described = error as { description?: unknown };
	if (typeof described.description === 'string' || described.description == null)
		described.description = [described.description, NOT_SENT_AGAIN].filter(Boolean).join(' ');
	return error;
}

const outcomeOfOutput = (output: INodeExecutionData[]): unknown =>
	output.find((item) => item.json?.outcome !== undefined)?.json.outcome;

function guarded(module: OperationModule): OperationModule {
	// A module that says it writes does; one that says nothing is taken as a write unless it declares
	// concurrency (only reads run several items at once); reads may run again.
	const write = module.write ?? module.concurrency === undefined;
	const execute = module.execute;
	return {
		...module,
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
			const key = runKey(this);
			if (!key) return await execute.call(this, itemIndex);
			const items = itemsOf(key);
			const before = items.get(itemIndex);
			if (before) {
				if ('output' in before) return before.output;
				throw noted(before.error);
			}
			const remember = (entry: Remembered) => {
				if (items.size < MAX_ITEMS) items.set(itemIndex, entry);
			};
			const running = execute.call(this, itemIndex);
			// Observed, not caught: the caller sees the same result or error; this reaction runs first.
			void running.then(
				(output) => {
					const outcome = outcomeOfOutput(output);
					// Without an outcome only a write's output is kept, and never one holding file data (a download's).
					if (
						outcome !== undefined
							? SETTLED_OR_UNKNOWN.has(outcome as WriteOutcome)
							: write && !output.some((item) => item.binary)
					)
						remember({ output });
				},
				(error: unknown) => {
					const outcome =
						outcomeOf(error) ?? (write && saidMayHaveBeenApplied(error) ? 'unknown' : undefined);
					if (outcome && SETTLED_OR_UNKNOWN.has(outcome)) remember({ error });
				},
			);
			return await running;
		},
	};
}

/**
 * The node's operations, each write guarded against being sent again by a retry of the same node run
 * (above). Every action node's router hands its operations through this before `routeItems`.
 */
export function guardReruns<T extends OperationMap>(operations: T): T {
	return Object.fromEntries(
		Object.entries(operations).map(([resource, modules]) => [
			resource,
			Object.fromEntries(
				Object.entries(modules).map(([operation, module]) => [operation, guarded(module)]),
			),
		]),
	) as T;
}

/** For tests: how many node runs are remembered. */
export function rememberedRuns(): number {
	return runs.size;
}
