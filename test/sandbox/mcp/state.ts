import { FixedWindowLimiter } from '../rate-limit.ts';
import type { Store } from '../store.ts';

export type LimitBucket = 'docs' | 'search' | 'read' | 'listing';

export interface Window {
	limit: number;
	windowMs: number;
}

/** The spec's MCP limits: fixed windows per minute and per hour; docs per IP, the rest per bearer token. */
export function defaultLimits(): Record<LimitBucket, Window[]> {
	return {
		docs: [
			{ limit: 120, windowMs: 60_000 },
			{ limit: 2400, windowMs: 3_600_000 },
		],
		search: [
			{ limit: 30, windowMs: 60_000 },
			{ limit: 600, windowMs: 3_600_000 },
		],
		read: [
			{ limit: 40, windowMs: 60_000 },
			{ limit: 700, windowMs: 3_600_000 },
		],
		listing: [
			{ limit: 90, windowMs: 60_000 },
			{ limit: 1800, windowMs: 3_600_000 },
		],
	};
}

export class McpState {
	limits = defaultLimits();
	private limiter = new FixedWindowLimiter();
	/** Window starts per key, to tell a limited client how long to wait. */
	private starts = new Map<string, number>();
	/** Clients (bearer token, else IP) that ran the initialize handshake: older revisions need it first. */
	readonly initialized = new Set<string>();

	reset(): void {
		this.initialized.clear();
		this.limits = defaultLimits();
		this.limiter.clear();
		this.starts.clear();
	}

	/** Seconds to wait when `key` is over a limit of `bucket`, else undefined (and the hit is counted). */
	hit(bucket: LimitBucket, key: string, now: number): number | undefined {
		let wait: number | undefined;
		for (const window of this.limits[bucket]) {
			const windowKey = `${bucket}/${window.windowMs}/${key}`;
			const start = this.starts.get(windowKey);
			if (start === undefined || now - start >= window.windowMs) this.starts.set(windowKey, now);
			if (!this.limiter.hit(windowKey, window.limit, window.windowMs, now)) {
				const left = window.windowMs - (now - this.starts.get(windowKey)!);
				wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(left / 1000)));
			}
		}
		return wait;
	}
}

const states = new WeakMap<Store, McpState>();

export function mcpOf(store: Store): McpState {
	let state = states.get(store);
	if (!state) states.set(store, (state = new McpState()));
	return state;
}
