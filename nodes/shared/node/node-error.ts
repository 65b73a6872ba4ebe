import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { outcomeOf, withOutcome } from '../errors/outcome';
import { packErrorOf } from '../errors/pack-error';

/**
 * The single place a PackError becomes an n8n error; n8n errors pass through unchanged, anything else becomes
 * a NodeOperationError wrapping it as n8n does. Called by the router (action nodes), the poll wrapper
 * (triggers), `supplyData` (sub-nodes) and the list-search, load-options and resource-mapping methods
 * (`convertingErrors`).
 */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const converted = convert(node, error, itemIndex);
	// The write outcome an error was marked with stays with the n8n error that replaces it.
	const outcome = outcomeOf(error);
	return outcome && converted !== error ? withOutcome(converted, outcome) : converted;
}

function convert(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	const packError = packErrorOf(error);
	if (packError) {
		const index = packError.itemIndex ?? itemIndex;
		if (packError.kind === 'input') {
			return new NodeOperationError(node, packError.message, {
				description: packError.description,
				itemIndex: index,
			});
		}
		const httpCode = packError.httpCode === undefined ? undefined : String(packError.httpCode);
		const response: JsonObject = {
			message: packError.message,
			...(packError.description ? { description: packError.description } : {}),
			...(httpCode ? { httpCode } : {}),
			...(packError.data ?? {}),
		};
		return new NodeApiError(node, response, {
			message: packError.message,
			description: packError.description,
			httpCode,
			itemIndex: index,
		});
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
