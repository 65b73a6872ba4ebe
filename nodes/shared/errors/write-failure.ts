import { outcomeOf, withOutcome } from './outcome';

/**
 * A write's failure with its outcome: as a proof marked it, else "unknown" where the transport said the write
 * may have been applied (its answer was lost and nothing settled it), else "not-applied" (the service refused
 * it, or it never left: the transport sends a write again only when nothing reached the service).
 */
export function markedWriteFailure(error: unknown): unknown {
	if (typeof error !== 'object' || error === null || outcomeOf(error)) return error;
	return withOutcome(error, saidMayHaveBeenApplied(error) ? 'unknown' : 'not-applied');
}

/** Whether an error's message says the write may have been applied (the transport's words for a lost answer). */
export function saidMayHaveBeenApplied(error: unknown): boolean {
	if (typeof error !== 'object' || error === null) return false;
	return /may (or may not )?have been applied/i.test(String((error as Error).message ?? ''));
}
