export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	/** First back-off delay; doubles per attempt, with full jitter. */
	baseDelayMs: number;
	/** No single wait is longer than this. */
	maxDelayMs: number;
	/** Stop retrying once this much time has been spent waiting. */
	maxTotalWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 5,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	maxTotalWaitMs: 120_000,
};

/**
 * The back-off policy a request's `retry` sets: each limit it gives over the default, an undefined one keeping the
 * default. Only the policy's own fields: the request's retry `statuses` are read by the attempt (`request.ts`).
 */
export function policyOf(limits: Partial<RetryPolicy> = {}): RetryPolicy {
	return {
		maxAttempts: limits.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
		baseDelayMs: limits.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
		maxDelayMs: limits.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
		maxTotalWaitMs: limits.maxTotalWaitMs ?? DEFAULT_RETRY.maxTotalWaitMs,
	};
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** MCP rate-limit errors carry the wait in their message text ("retry after 12 seconds"). */
export function retrySecondsInText(text: string): number | undefined {
	const match = /(\d+(?:\.\d+)?)\s*(?:s\b|sec|second)/i.exec(text);
	return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

export function backoffDelay(
	policy: RetryPolicy,
	attempt: number,
	serverHintMs?: number,
	random = Math.random,
): number {
	if (serverHintMs !== undefined) return Math.min(serverHintMs, policy.maxDelayMs);
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
