import type { AuthOutcome } from './auth.ts';
import type { SandboxConfig } from './config.ts';
import type { Faults } from './faults.ts';
import type { BodyMode, SandboxRequest } from './http/request.ts';
import type { Reply } from './http/reply.ts';
import type { RateLimiters } from './rate-limit.ts';
import type { LoggedRequest, RequestLog } from './request-log.ts';
import type { Sessions } from './sessions.ts';
import type { Store } from './store.ts';

/** Long-lived parts of a running sandbox, shared by all route modules. */
export interface Services {
	store: Store;
	sessions: Sessions;
	config: SandboxConfig;
	faults: Faults;
	requests: RequestLog;
	limiters: RateLimiters;
	baseUrl: string;
	webUrl: string;
}

export interface Ctx extends Services {
	auth: AuthOutcome;
	entry: LoggedRequest;
}

export type Handler = (req: SandboxRequest, ctx: Ctx) => Reply | Promise<Reply>;

/**
 * One entry of the routing table. A new interface (DMS, MCP, DAV, AI) is a module exporting a list of
 * these; `server.ts` concatenates the lists, and the first match wins.
 */
export interface Route {
	/** Interface name shown in the request log. */
	api: string;
	methods: readonly string[] | '*';
	/** Exact path, or a pattern whose captures land in `req.params`. */
	path: string | RegExp;
	body: BodyMode;
	/** Name used by fault rules and the request log, known once the body is read. */
	action?: (req: SandboxRequest) => string | null;
	handle: Handler;
}

export interface RouteMatch {
	route: Route;
	params: string[];
	methodAllowed: boolean;
}

export function matchRoute(
	routes: readonly Route[],
	method: string,
	pathname: string,
): RouteMatch | undefined {
	let pathOnly: RouteMatch | undefined;
	for (const route of routes) {
		let params: string[] | undefined;
		if (typeof route.path === 'string') params = route.path === pathname ? [] : undefined;
		else params = route.path.exec(pathname)?.slice(1);
		if (!params) continue;
		const methodAllowed = route.methods === '*' || route.methods.includes(method);
		if (methodAllowed) return { route, params, methodAllowed };
		pathOnly ??= { route, params, methodAllowed };
	}
	return pathOnly;
}
