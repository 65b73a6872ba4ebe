import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { EsignatureInputError } from '../../../shared/esignature/input';

/** Runs a pure input check, reporting its problem as n8n reports bad input: before any request, on the item. */
export function checked<T>(ctx: IExecuteFunctions, itemIndex: number, check: () => T): T {
	let outcome: { value: T } | { error: unknown };
	try {
		outcome = { value: check() };
	} catch (error) {
		outcome = { error };
	}
	if ('value' in outcome) return outcome.value;
	const { error } = outcome;
	if (error instanceof EsignatureInputError) throw new NodeOperationError(ctx.getNode(), error.message, { itemIndex, description: error.hint });
	throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
