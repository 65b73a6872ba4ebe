import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runParameter } from './run-parameters';

export const MAX_PARALLEL_REQUESTS = 16;

/**
 * The "Parallel Requests" option of a read-only operation's Options collection. Only operations that
 * read declare it: a write whose outcome is uncertain is reconciled before the next item starts.
 */
export const parallelRequestsField: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
	default: 1,
	description:
		"How many items' requests to send at once (the first item's value counts for the whole run). Output order stays that of the input. Higher is faster for many items, and makes rate limits (429) more likely; they are waited out automatically.",
};

/**
 * The `concurrency` export of such an operation module: the option as set for `itemIndex`, clamped to
 * the field's range. The item loop asks it once per run, for item 0.
 */
export function parallelRequests(this: IExecuteFunctions, itemIndex: number): number {
	const options = runParameter<{ concurrency?: unknown }>(this, 'options', itemIndex, {});
	const value = Math.floor(Number(options?.concurrency ?? 1));
	return Number.isFinite(value) ? Math.min(MAX_PARALLEL_REQUESTS, Math.max(1, value)) : 1;
}
