/**
 * What a write did, said machine-readably on its output item, on success and on error items alike, so a
 * workflow can route an unknown outcome with an IF node (README, "How requests behave"):
 * - applied: the service confirmed the write;
 * - applied-after-lost-answer: the answer was lost, and a read proved the write happened;
 * - not-applied: nothing was changed (refused before or by the service, or a read proved it did not happen);
 * - unknown: the write may have been applied and no read could settle it; it is never sent again.
 * Free of n8n types so protocol layers can set it.
 */
export type WriteOutcome = 'applied' | 'applied-after-lost-answer' | 'not-applied' | 'unknown';

/** The one opening, on every node, of a message about a write no read could settle. */
export const MAY_HAVE_BEEN_APPLIED = 'The write may have been applied';

/** One of several items a write's outcome could be (say, files an upload whose answer was lost may have become). */
export type OutcomeCandidate = Record<string, string | number | null>;

const outcomes = new WeakMap<object, WriteOutcome>();
const candidatesByError = new WeakMap<object, OutcomeCandidate[]>();

/**
 * Marks an error with the outcome of the write that failed, and the candidates when several items could be
 * its result; returns the error for `throw withOutcome(…)`.
 */
export function withOutcome<E extends object>(
	error: E,
	outcome: WriteOutcome,
	candidates?: OutcomeCandidate[],
): E {
	outcomes.set(error, outcome);
	if (candidates?.length) candidatesByError.set(error, candidates);
	return error;
}

/** The candidates an error was marked with; undefined when there were none. */
export function candidatesOf(error: unknown): OutcomeCandidate[] | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	return candidatesByError.get(error);
}

/** The outcome an error was marked with (or a PackError carries); undefined for reads and unmarked errors. */
export function outcomeOf(error: unknown): WriteOutcome | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	return outcomes.get(error) ?? (error as { outcome?: WriteOutcome }).outcome;
}
