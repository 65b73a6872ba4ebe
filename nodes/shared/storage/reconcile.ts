import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	MAY_HAVE_BEEN_APPLIED,
	withOutcome,
	type OutcomeCandidate,
	type WriteOutcome,
} from '../errors/outcome';
import type { ApiResponse } from '../transport';

/**
 * Helpers for proving the outcome of a write whose answer was lost. The documents offer no idempotency key
 * ("Uncertain writes must be reconciled before retry"), so a write is proven by a read or reported as
 * "may have been applied"; it is never sent again unless the read shows it did not happen.
 */

/**
 * The error for a write no read could settle: the message says so, the description names what to check;
 * its outcome is unknown, with the candidates when several items could be the write's result.
 */
export function mayHaveBeenApplied(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
	candidates?: OutcomeCandidate[],
): NodeApiError {
	const full = `${MAY_HAVE_BEEN_APPLIED}: ${message}`;
	return withOutcome(
		new NodeApiError(
			ctx.getNode(),
			{ message: full, description },
			{ message: full, description, itemIndex },
		),
		'unknown',
		candidates,
	);
}

/**
 * The outcome fields of a write's output item: applied with the service's status, or applied after a lost
 * answer when a read proved it (no status then: the answer never arrived).
 */
export function writeOutcome(response: Pick<ApiResponse, 'status' | 'reconciled'>): IDataObject {
	const outcome: WriteOutcome = response.reconciled ? 'applied-after-lost-answer' : 'applied';
	return response.reconciled ? { outcome } : { outcome, httpCode: response.status };
}

/**
 * Files this node run stored (or proved stored), per run: a reconciling read never adopts one of them for
 * another item. n8n makes one context object per node run, so nothing outlives the run.
 */
const claimedByRun = new WeakMap<object, Set<string>>();

export function claimed(ctx: object): Set<string> {
	let set = claimedByRun.get(ctx);
	if (!set) {
		set = new Set<string>();
		claimedByRun.set(ctx, set);
	}
	return set;
}
