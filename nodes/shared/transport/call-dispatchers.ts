import { Agent, Client, Pool, ProxyAgent, type Dispatcher } from 'undici';

/**
 * undici's own limits are off: the node's Timeout is counted by the transport's timers (`IdleLimit`), the
 * same on every path and driven by fake timers in tests. undici's would also cut a connect after 10 s.
 */
const NO_LIMITS = { headersTimeout: 0, bodyTimeout: 0 };
const NO_CONNECT_LIMIT = { timeout: 0 };

/**
 * Idle connections close after 4 s, or earlier when the server's `Keep-Alive: timeout=` says so, less a
 * second: below the 5 s most servers keep them, so a read seldom meets a connection the server is closing.
 */
const KEPT_ALIVE = {
	keepAliveTimeout: 4000,
	keepAliveMaxTimeout: 4000,
	keepAliveTimeoutThreshold: 1000,
};

/** undici opens as many connections per server as calls run at once: no call waits for another's to end. */
const direct = new Agent({ ...NO_LIMITS, ...KEPT_ALIVE, connect: NO_CONNECT_LIMIT });

/** The reads' pools through each proxy (by its URL), kept like the direct one. */
const throughProxy = new Map<string, { agent: ProxyAgent; answered: boolean }>();

/**
 * Through a proxy, the proxy's way for each target: an http target as an absolute-URI request forwarded by an
 * http proxy (`GET http://host/path`, as n8n's helper sends it: many proxies, squid's default among them,
 * refuse CONNECT to ports other than 443), an https target (or any target of an https proxy) through a CONNECT
 * tunnel. Credentials in the proxy's URL become its Proxy-Authorization (undici reads them from the URL). Every
 * pool undici makes on the way gets the same settings as the direct one: its defaults would add limits of its own.
 */
function proxyAgent(proxy: string, pooled: boolean): ProxyAgent {
	const settings = pooled ? { ...NO_LIMITS, ...KEPT_ALIVE } : NO_LIMITS;
	return new ProxyAgent({
		uri: proxy,
		proxyTunnel: false,
		...settings,
		proxyTls: NO_CONNECT_LIMIT,
		requestTls: NO_CONNECT_LIMIT,
		// The pools to a target (through a tunnel) and to the proxy (forwarding).
		factory: (origin, options) => new Pool(origin, { ...options, ...settings }),
		// The proxy's side of each tunnel, while CONNECT is answered: its wait is the node's Timeout too.
		clientFactory: (origin, options) => new Pool(origin, { ...options, ...NO_LIMITS }),
	});
}

/**
 * Where a call goes: `pooled` (reads) over the kept connections, directly or through the proxy's pool; else
 * (writes, and a read sent again after a stale connection) over a connection of its own, closed with `release`
 * once the answer is read. Through a proxy "of its own" means a new connection to the proxy, and for an https
 * target a new CONNECT tunnel, so a new connection to the service. An http target's request is forwarded: the
 * proxy chooses its connection to the service, and HTTP forbids a proxy to repeat a request that is not
 * idempotent on its own (RFC 9110 9.2.2; squid by default opens a new connection for a request it cannot
 * retry, `server_pconn_for_nonretriable`), so a failed forward comes back as the proxy's 502, which a write
 * treats as an uncertain outcome, never repeated.
 */
export function dispatcherFor(
	origin: string,
	pooled: boolean,
	proxy: string | undefined,
): { dispatcher: Dispatcher; release: () => void } {
	if (pooled) {
		if (!proxy) return { dispatcher: direct, release: () => undefined };
		let kept = throughProxy.get(proxy);
		if (!kept)
			throughProxy.set(proxy, (kept = { agent: proxyAgent(proxy, true), answered: false }));
		return { dispatcher: kept.agent, release: () => undefined };
	}
	const own = proxy
		? proxyAgent(proxy, false)
		: new Client(origin, { ...NO_LIMITS, connect: NO_CONNECT_LIMIT });
	return { dispatcher: own, release: () => void own.destroy().catch(() => undefined) };
}

/**
 * Whether a read may have taken a connection an earlier call left open (undici does not say which connection
 * a request took): an idle one kept for this server, or through a proxy, a pool that has answered before.
 */
export function mayReuse(origin: string, proxy: string | undefined): boolean {
	if (proxy) return throughProxy.get(proxy)?.answered ?? false;
	const kept = direct.stats[origin];
	return kept !== undefined && 'free' in kept && kept.free > 0;
}

/** A read through the proxy's pool was answered: its connection may be kept. */
export function answeredThrough(proxy: string): void {
	const kept = throughProxy.get(proxy);
	if (kept) kept.answered = true;
}

/**
 * Drops the reads' pool through `proxy` after a read whose answer never started: a CONNECT the proxy never
 * answers holds its connection, and undici would queue the next reads behind it (undici's own limit on it is
 * off). The next read starts a new pool; reads still running on the old one end as dropped and are sent again.
 */
export function retireProxyPool(proxy: string): void {
	const kept = throughProxy.get(proxy);
	if (!kept) return;
	throughProxy.delete(proxy);
	void kept.agent.destroy().catch(() => undefined);
}
