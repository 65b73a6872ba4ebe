import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as file from './file/File.resource';
import * as folder from './folder/Folder.resource';

type Operation = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

const operations: Record<string, Record<string, { execute: Operation }>> = {
	file: file as unknown as Record<string, { execute: Operation }>,
	folder: folder as unknown as Record<string, { execute: Operation }>,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const results: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operation = this.getNodeParameter('operation', itemIndex) as string;
		const handler = operations[resource]?.[operation]?.execute;
		try {
			if (!handler) {
				throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, { itemIndex });
			}
			const output = await handler.call(this, itemIndex);
			results.push(...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }));
		} catch (error) {
			const nodeError =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (!this.continueOnFail()) throw nodeError;
			results.push({ json: { error: nodeError.message }, pairedItem: { item: itemIndex } });
		}
	}
	return [results];
}
