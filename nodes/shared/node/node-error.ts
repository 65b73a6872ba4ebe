import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PackError } from '../errors/pack-error';

/**
 * The single place a PackError becomes an n8n error; n8n errors pass through unchanged, anything else becomes
 * a NodeOperationError wrapping it as n8n does.
 */
export function toNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof PackError) {
		const index = error.itemIndex ?? itemIndex;
		if (error.kind === 'input') {
			return new NodeOperationError(node, error.message, { description: error.description, itemIndex: index });
		}
		const httpCode = error.httpCode === undefined ? undefined : String(error.httpCode);
		const response: JsonObject = { message: error.message, ...(error.description ? { description: error.description } : {}) };
		if (httpCode) response.httpCode = httpCode;
		return new NodeApiError(node, response, { message: error.message, description: error.description, httpCode, itemIndex: index });
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
