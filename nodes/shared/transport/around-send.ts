import { sleep } from 'n8n-workflow';

import { RAISE_TIMEOUT, repeatedFailure } from './errors';
import type { ApiResponse, Write } from './request-types';
import { backoffDelay, type RetryPolicy } from './retry';
import { secondLook, secondLookDelayMs } from './second-look';
import { TransportError } from './transport-error';
import { MAY_HAVE_BEEN_APPLIED, outcomeOf, withOutcome } from '../errors/outcome';

/**
 * What one attempt came to: an answer, a failure worth another attempt, or a write whose outcome is unknown.
 * `unsettled`: a write a read proved not applied, so it may go again, and stays in doubt if that fails too.
 */
export type Step<T> =
	| { done: ApiResponse<T> }
	| {
			retry: Error;
			hintMs?: number;
			/** A 500 answer: status and body, to notice the same failure repeated. */ repeatKey?: string;
			unsettled?: boolean;
	  }
	| {
			uncertain: Error;
			timedOut?: boolean;
			/** A setting that keeps it from happening again: kept after a caller's `hint`. */ wayRound?: string;
	  };

type Attempt<T> = () => Promise<Step<T>>;

/** The back-off wait between attempts; an object so a test can replace it instead of racing the clock. */
export const backoff = {
	wait: async (ms: number): Promise<void> => await sleep(ms),
};

/**
 * Lost-answer reconcile, around an attempt: a write whose outcome is unknown is proven with the caller's read
 * (`reconcile`), once more after a wait when it timed out (the service may still be applying it). Applied: its
 * result. Proven not applied: another attempt may send it. Unproven: "may have been applied", never sent again.
 */
export function reconciling<T>(
	attempt: Attempt<T>,
	write: Write | undefined,
	timeoutMs: number,
): Attempt<T> {
	return async () => {
		const step = await attempt();
		if (!('uncertain' in step)) return step;
		const { uncertain } = step;
		const hint = write?.hint;
		if (hint && uncertain instanceof TransportError)
			uncertain.description = [hint, step.timedOut && RAISE_TIMEOUT, step.wayRound]
				.filter(Boolean)
				.join(' ');
		const reconcile = write?.reconcile;
		if (!reconcile) throw unknownOutcome(uncertain);
		const timedOut = step.timedOut === true;
		let applied = await proven(async () => await reconcile({ timedOut }), uncertain);
		if (applied === undefined && timedOut) {
			// The service may still be applying it: look once more, later, and never send it again.
			await secondLook.wait(secondLookDelayMs(timeoutMs));
			applied = await proven(async () => await reconcile({ timedOut }), uncertain);
			if (applied === undefined) throw unknownOutcome(uncertain, LOOKED_TWICE);
		}
		if (applied !== undefined)
			return { done: { status: 200, headers: {}, body: applied as T, reconciled: true } };
		return { retry: uncertain, unsettled: true };
	};
}

/**
 * Retries with back-off and rate-limit waits (`Retry-After`), around an attempt, bounded in attempts and in time.
 * A 500 answered twice word for word ends it early. A write goes again only when nothing reached the service
 * (a 429, a refused connection: not applied at the end) or a read proved it was not applied.
 */
export async function retrying<T>(
	attempt: Attempt<T>,
	policy: RetryPolicy,
	write: boolean,
): Promise<ApiResponse<T>> {
	let waitedMs = 0;
	let lastRepeatKey: string | undefined;
	for (let attemptNo = 1; ; attemptNo++) {
		const step = await attempt();
		if ('done' in step) return step.done;
		// Not reconciled (no wrapper around): its outcome stays unknown.
		if ('uncertain' in step) throw unknownOutcome(step.uncertain);
		const failure = step.retry;
		if (!step.unsettled) {
			// A 500 answered twice word for word is the server failing this request every time, not a passing
			// hiccup (502/503/504 are): more attempts would only delay the error.
			if (step.repeatKey !== undefined && step.repeatKey === lastRepeatKey)
				throw repeatedFailure(failure);
			lastRepeatKey = step.repeatKey;
		}
		const delay = backoffDelay(policy, attemptNo, step.hintMs);
		if (attemptNo >= policy.maxAttempts || waitedMs + delay > policy.maxTotalWaitMs)
			throw !write
				? failure
				: step.unsettled
					? unknownOutcome(failure)
					: withOutcome(failure, 'not-applied');
		waitedMs += delay;
		await backoff.wait(delay);
	}
}

const LOOKED_TWICE =
	'The service did not answer within the Timeout and may still have been applying it: a read found nothing, and again after waiting. The node did not send it again.';

/**
 * The outcome of a write that ended with an error the transport raised: a refusal by status (4xx) changed
 * nothing; anything else (a redirect, a broken answer, a retried write that failed again) may have been
 * applied. Errors already marked keep their outcome.
 */
export function settledWrite(error: unknown): unknown {
	if (typeof error !== 'object' || error === null || outcomeOf(error)) return error;
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return withOutcome(error, status >= 400 && status < 500 ? 'not-applied' : 'unknown');
}

/** An uncertain write no read settled: its message opens with the one wording, its outcome is unknown. */
function unknownOutcome(error: Error, why?: string): Error {
	if (!error.message.startsWith(MAY_HAVE_BEEN_APPLIED))
		error.message = `${MAY_HAVE_BEEN_APPLIED}: ${error.message}`;
	if (why && error instanceof TransportError)
		error.description = `${why} ${error.description ?? ''}`.trim();
	return withOutcome(error, 'unknown');
}

/**
 * The caller's read that proves a lost write's outcome. When that read fails too (a 500, a 405, a timeout),
 * nothing is proven: the write's own uncertainty is reported, naming the read's failure, never the read's
 * "nothing was changed". A read that settled the question itself (an error already marked) stands.
 */
async function proven(reconcile: () => Promise<unknown>, uncertain: Error): Promise<unknown> {
	try {
		return await reconcile();
	} catch (error) {
		// Already settled by the read itself (its own "may have been applied"): passed on as it is.
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error
		if (outcomeOf(error)) throw error;
		const reason = error instanceof Error ? error.message : String(error);
		throw unknownOutcome(
			uncertain,
			`The read that was to check it failed too (${reason}), so the node could not tell whether it was applied and did not send it again.`,
		);
	}
}
