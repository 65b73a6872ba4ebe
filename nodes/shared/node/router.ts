import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeError } from './node-error';
import { refusePlaceholders } from './placeholders';

export type OperationExecute = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

/** resource → operation → module exporting `execute`, as the `actions/<resource>/<Resource>.resource.ts` files do. */
export type OperationMap = Record<string, Record<string, unknown>>;

function executeOf(operations: OperationMap, resource: string, operation: string): OperationExecute | undefined {
	const entry = operations[resource]?.[operation] as { execute?: OperationExecute } | undefined;
	return typeof entry?.execute === 'function' ? entry.execute : undefined;
}

/**
 * The item loop every action node shares: one operation call per input item, outputs paired to their
 * item, and Continue On Fail turning a failure into an error item that keeps its pairing.
 */
export async function routeItems(this: IExecuteFunctions, operations: OperationMap): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const results: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			refusePlaceholders(this.getNode().parameters, itemIndex);
			const execute = executeOf(operations, resource, operation);
			if (!execute) {
				throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
					itemIndex,
				});
			}
			const output = await execute.call(this, itemIndex);
			results.push(...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }));
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			results.push({
				json: { error: nodeError.message, ...(nodeError.description ? { description: nodeError.description } : {}) },
				pairedItem: { item: itemIndex },
			});
		}
	}
	return [results];
}
