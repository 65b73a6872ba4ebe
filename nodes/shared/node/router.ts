import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from './node-error';
import { findPlaceholder, placeholderError } from './placeholders';
import { runNodeParameters, runParameter } from './run-parameters';

export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

/** An `actions/<resource>/<op>.operation.ts` module: its form fields beside the code that runs it. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
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

function executeOf(
	operations: OperationMap,
	resource: string,
	operation: string,
): OperationExecute | undefined {
	const module =
		Object.hasOwn(operations, resource) && Object.hasOwn(operations[resource], operation)
			? operations[resource][operation]
			: undefined;
	return typeof module?.execute === 'function' ? module.execute : undefined;
}

/**
 * The item loop every action node shares: one operation call per input item, outputs paired to their
 * item, and Continue On Fail turning a failure into an error item that keeps its pairing.
 */
export async function routeItems(
	this: IExecuteFunctions,
	operations: OperationMap,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const results: INodeExecutionData[] = [];
	// The stored parameters are the same for every item: looked at once, reported for each item.
	const placeholder = findPlaceholder(runNodeParameters(this));
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = runParameter<string>(this, 'resource', itemIndex);
			const operation = runParameter<string>(this, 'operation', itemIndex);
			if (placeholder) throw placeholderError(placeholder, itemIndex);
			const execute = executeOf(operations, resource, operation);
			if (!execute) {
				throw new NodeOperationError(
					this.getNode(),
					`The operation "${operation}" of "${resource}" is not supported`,
					{
						itemIndex,
					},
				);
			}
			const output = await execute.call(this, itemIndex);
			results.push(
				...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }),
			);
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			results.push({
				json: {
					error: nodeError.message,
					...(nodeError.description ? { description: nodeError.description } : {}),
				},
				pairedItem: { item: itemIndex },
			});
		}
	}
	return [results];
}
