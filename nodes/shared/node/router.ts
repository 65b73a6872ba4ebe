import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { candidatesOf, outcomeOf } from '../errors/outcome';
import { toNodeError } from './node-error';
import { findPlaceholder, placeholderError } from './placeholders';
import { holdsExpression, readAhead, runNodeParameters, runParameter } from './run-parameters';

export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

/** An `actions/<resource>/<op>.operation.ts` module: its form fields beside the code that runs it. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
	/**
	 * Declared only by operations that just read: how many items may be in flight at once (see
	 * `parallelRequests`). Writes never declare it, so their items run one after the other.
	 */
	concurrency?: (this: IExecuteFunctions, itemIndex: number) => number;
	/**
	 * Declared by operations that write: every item they output carries `outcome`. A success item without
	 * one is `applied`; an error that carries none was raised before the write was sent (bad input, a read
	 * that failed) or by the service's refusal, so it is `not-applied`. Operations mark any other error.
	 */
	write?: boolean;
}

/**
 * resource option value → operation option value → module, as the `actions/<Resource>.resource.ts` files
 * export them (`operations`) and each node's router assembles them (`resources`).
 */
export type OperationMap = Record<string, Record<string, OperationModule>>;

/**
 * The options of a Resource or Operation parameter, checked by the compiler against the modules they
 * select: a value without a module does not type-check, and a module without an option leaves this call
 * one argument short, the expected argument's type naming the module.
 */
export function optionsFor<Modules extends object, Value extends keyof Modules & string>(
	_modules: Modules,
	options: Array<INodePropertyOptions & { value: Value }>,
	// Never passed: its type alone makes a module without an option a compile error.
	// eslint-disable-next-line @typescript-eslint/no-unused-vars
	..._everyModuleHasAnOption: [Exclude<keyof Modules, Value>] extends [never]
		? []
		: [moduleWithoutOption: Exclude<keyof Modules, Value>]
): INodePropertyOptions[] {
	return options;
}

function moduleOf(
	operations: OperationMap,
	resource: string,
	operation: string,
): OperationModule | undefined {
	return Object.hasOwn(operations, resource) && Object.hasOwn(operations[resource], operation)
		? operations[resource][operation]
		: undefined;
}

/**
 * How many items may run at once in this run, decided once from item 0: more than one only when the
 * resource and operation are the same for every item (no expression) and that operation declares
 * `concurrency`. Anything unexpected here means one at a time; the item itself then reports it.
 */
function runConcurrency(
	ctx: IExecuteFunctions,
	operations: OperationMap,
	itemCount: number,
	placeholder: unknown,
): number {
	if (itemCount < 2 || placeholder) return 1;
	const stored = runNodeParameters(ctx);
	if (holdsExpression(stored.resource) || holdsExpression(stored.operation)) return 1;
	try {
		const module = moduleOf(
			operations,
			runParameter<string>(ctx, 'resource', 0),
			runParameter<string>(ctx, 'operation', 0),
		);
		if (typeof module?.concurrency !== 'function') return 1;
		const limit = Math.floor(module.concurrency.call(ctx, 0));
		return Number.isFinite(limit) && limit > 1 ? limit : 1;
	} catch {
		return 1;
	}
}

/** Whether the item's operation declares that it writes; false when its parameters cannot be read. */
function writes(operations: OperationMap, ctx: IExecuteFunctions, itemIndex: number): boolean {
	try {
		return (
			moduleOf(
				operations,
				runParameter<string>(ctx, 'resource', itemIndex),
				runParameter<string>(ctx, 'operation', itemIndex),
			)?.write === true
		);
	} catch {
		return false;
	}
}

/**
 * The item loop every action node shares: one operation call per input item, outputs paired to their
 * item, and Continue On Fail turning a failure into an error item that keeps its pairing.
 *
 * An operation declaring `concurrency` may have several items in flight: item 0 runs alone first (it
 * settles the login and the credential every later item reuses), then up to the limit at once. Outputs
 * keep input order. Without Continue On Fail, a failure stops new items from starting; those in flight
 * settle, and the failure of the lowest item index is thrown, as the one-at-a-time loop would have.
 */
export async function routeItems(
	this: IExecuteFunctions,
	operations: OperationMap,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const slots: INodeExecutionData[][] = new Array(items.length);
	// The stored parameters are the same for every item: looked at once, reported for each item.
	const placeholder = findPlaceholder(runNodeParameters(this));
	const limit = runConcurrency(this, operations, items.length, placeholder);
	let failure: { itemIndex: number; error: Error } | undefined;

	const runItem = async (itemIndex: number): Promise<void> => {
		try {
			const resource = runParameter<string>(this, 'resource', itemIndex);
			const operation = runParameter<string>(this, 'operation', itemIndex);
			if (placeholder) throw placeholderError(placeholder, itemIndex);
			const module = moduleOf(operations, resource, operation);
			const execute = typeof module?.execute === 'function' ? module.execute : undefined;
			if (!execute) {
				throw new NodeOperationError(
					this.getNode(),
					`The operation "${operation}" of "${resource}" is not supported`,
					{
						itemIndex,
					},
				);
			}
			const running = execute.call(this, itemIndex);
			// One at a time, a read's next item has its parameters resolved while this one waits for its
			// answer. Twice deferred: undici writes this item's request in the next turn of the event loop.
			if (limit === 1 && module?.concurrency && itemIndex + 1 < items.length)
				setImmediate(() => setImmediate(() => failure || readAhead(this, itemIndex + 1)));
			const output = await running;
			if (module?.write)
				for (const item of output) item.json = { outcome: 'applied', ...item.json };
			slots[itemIndex] = this.helpers.constructExecutionMetaData(output, {
				itemData: { item: itemIndex },
			});
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			const outcome =
				outcomeOf(error) ??
				outcomeOf(nodeError) ??
				(writes(operations, this, itemIndex) ? 'not-applied' : undefined);
			const candidates = candidatesOf(error) ?? candidatesOf(nodeError);
			if (!this.continueOnFail()) {
				if (!failure || itemIndex < failure.itemIndex) failure = { itemIndex, error: nodeError };
				return;
			}
			const facts = {
				...(nodeError.description ? { description: nodeError.description } : {}),
				// What the write did, for a workflow to branch on (an IF node on outcome = unknown).
				...(outcome ? { outcome } : {}),
				...(outcome && nodeError instanceof NodeApiError && nodeError.httpCode
					? { httpCode: Number(nodeError.httpCode) || nodeError.httpCode }
					: {}),
				...(candidates ? { candidates } : {}),
			};
			// n8n 2.41 (WorkflowExecute) sends an item to the error output ("On Error: Continue (using error
			// output)") when it carries the error itself, but then keeps only its message; or when its json holds
			// no key but error, message and details. So there the facts go under `details`.
			const json =
				this.getNode().onError === 'continueErrorOutput'
					? {
							error: nodeError.message,
							...(Object.keys(facts).length ? { details: facts } : {}),
						}
					: { error: nodeError.message, ...facts };
			slots[itemIndex] = [{ json, pairedItem: { item: itemIndex } }];
		}
	};

	let next = 0;
	const worker = async () => {
		while (!failure && next < items.length) await runItem(next++);
	};
	if (limit > 1) await runItem(next++);
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	if (failure) throw failure.error;
	return [slots.flat()];
}
