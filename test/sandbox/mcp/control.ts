import { json, type Reply } from '../http/reply.ts';
import type { Services } from '../router.ts';
import { mcpOf, type LimitBucket, type Window } from './state.ts';

type ControlHandler = (body: Record<string, unknown>, services: Services) => Reply;

const BUCKETS: LimitBucket[] = ['docs', 'search', 'read', 'listing'];

/** `/__sandbox/mcp/limits`: read or replace the MCP rate-limit windows (e.g. `{"read": [{"limit": 1, "windowMs": 2000}]}`). */
export const mcpControl: Record<string, ControlHandler> = {
	'GET mcp/limits': (_b, s) => json(mcpOf(s.store).limits),
	'POST mcp/limits': (body, s) => {
		const state = mcpOf(s.store);
		for (const [bucket, windows] of Object.entries(body)) {
			if (!BUCKETS.includes(bucket as LimitBucket) || !Array.isArray(windows))
				throw new Error(`unknown bucket ${bucket}`);
			for (const window of windows as Window[]) {
				if (!(window?.limit >= 0) || !(window?.windowMs > 0))
					throw new Error('a window is {limit, windowMs}');
			}
			state.limits[bucket as LimitBucket] = windows as Window[];
		}
		return json(state.limits);
	},
};
