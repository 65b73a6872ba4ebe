/** Fixed-window counters per key (e.g. client IP). */
export class FixedWindowLimiter {
	private readonly windows = new Map<string, { start: number; count: number }>();

	/** Counts one hit; false when the key is over `limit` within the current window. */
	hit(key: string, limit: number, windowMs: number, now: number): boolean {
		const window = this.windows.get(key);
		if (!window || now - window.start >= windowMs) {
			this.windows.set(key, { start: now, count: 1 });
			return limit >= 1;
		}
		window.count++;
		return window.count <= limit;
	}

	clear(): void {
		this.windows.clear();
	}
}

export interface RateLimiters {
	anonymousListing: FixedWindowLimiter;
}

export function newLimiters(): RateLimiters {
	return { anonymousListing: new FixedWindowLimiter() };
}
