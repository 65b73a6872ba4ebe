import { Agent, Client, Pool, ProxyAgent, type Dispatcher } from 'undici';

/** undici's own limits are off (they would also cut a connect after 10 s): the node's Timeout is `IdleLimit`'s. */
const NO_LIMITS = { headersTimeout: 0, bodyTimeout: 0 };
const NO_CONNECT_LIMIT = { timeout: 0 };

/** Idle connections close after 4 s, or the server's `Keep-Alive: timeout=` less 1 s: before most servers do. */
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
 * An http target through an http proxy as a forwarded absolute-URI request (`GET http://host/path`, as n8n's
 * helper sends it: squid's default refuses CONNECT to ports but 443), else a CONNECT tunnel. The URL's credentials
 * become Proxy-Authorization. Every pool on the way gets the direct one's settings, not undici's limits.
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
 * `pooled` (reads): the kept connections, direct or the proxy's pool. Else (writes, a read sent again after a
 * stale connection) a connection of its own, closed by `release`: through a proxy a new connection to it, for
 * https a new tunnel. A forwarded http write may ride the proxy's kept connection to the service, but a proxy
 * must not repeat it (RFC 9110 9.2.2): a failed forward comes back as its 502, an uncertain outcome for a write.
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

/** Whether a read may have taken a kept connection (undici does not say): one idle here, or a proxy pool that answered. */
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
 * Drops the reads' pool through `proxy` after a read whose answer never started: undici would queue the next
 * reads behind a CONNECT never answered. Reads still on the old pool end as dropped and are sent again.
 */
export function retireProxyPool(proxy: string): void {
	const kept = throughProxy.get(proxy);
	if (!kept) return;
	throughProxy.delete(proxy);
	void kept.agent.destroy().catch(() => undefined);
}
