import { buildConnector, Client, Pool, ProxyAgent, type Dispatcher } from 'undici';

import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import { failure, handshakeCode } from './failures';

/** undici's own limits are off (they would also cut a connect after 10 s): the node's Timeout is `IdleLimit`'s. */
const NO_LIMITS = { headersTimeout: 0, bodyTimeout: 0 };
const NO_CONNECT_LIMIT = { timeout: 0 };

const connector = buildConnector(NO_CONNECT_LIMIT);
const RESET = new Set(['ECONNRESET', 'EPIPE']);

/**
 * undici's connector, with a failed TLS handshake named (`handshakeCode`): undici reports a reset during the
 * handshake as one during the request, though nothing of the request can have left. The sockets still
 * connecting are kept in `connecting`: undici never closes one whose handshake stalls (there is no connect limit,
 * the node's Timeout is the transport's), so `retirePool` and `release` do.
 */
function connectTracked(connecting: Set<Socket>): buildConnector.connector {
	return (options, callback) => {
		const socket = (connector as (...args: unknown[]) => unknown)(
			options,
			(...[error, connected]: buildConnector.CallbackArgs) => {
				connecting.delete(socket);
				if (!error) return callback(null, connected);
				const code =
					handshakeCode(error) ??
					(options.protocol === 'https:' && RESET.has(String((error as { code?: string }).code))
						? 'ERR_TLS_HANDSHAKE_RESET'
						: undefined);
				callback(code ? failure(code, 'the TLS handshake failed') : error, null);
			},
		) as Socket;
		connecting.add(socket);
	};
}

/** A dispatcher and the sockets it is still connecting: closing it closes those too. */
interface Tracked {
	dispatcher: Pool | Client;
	connecting: Set<Socket>;
}

function tracked(make: (connect: buildConnector.connector) => Pool | Client): Tracked {
	const connecting = new Set<Socket>();
	return { dispatcher: make(connectTracked(connecting)), connecting };
}

function close({ dispatcher, connecting }: Tracked): void {
	void dispatcher.destroy().catch(() => undefined);
	for (const socket of connecting) socket.destroy();
	connecting.clear();
}

/** Idle connections close after 4 s, or the server's `Keep-Alive: timeout=` less 1 s: before most servers do. */
const KEPT_ALIVE = {
	keepAliveTimeout: 4000,
	keepAliveMaxTimeout: 4000,
	keepAliveTimeoutThreshold: 1000,
};

/**
 * The reads' kept connections to each server (by origin). undici opens as many per server as calls run at once:
 * no call waits for another's to end.
 */
const direct = new Map<string, Tracked>();

function directPool(origin: string): Dispatcher {
	let pool = direct.get(origin);
	if (!pool)
		direct.set(
			origin,
			(pool = tracked((connect) => new Pool(origin, { ...NO_LIMITS, ...KEPT_ALIVE, connect }))),
		);
	return pool.dispatcher;
}

/** The reads' pools through each proxy (by its URL), kept like the direct one. */
const throughProxy = new Map<
	string,
	{ agent: ProxyAgent; answered: boolean; watch: TunnelWatch }
>();

/** What a proxy agent tells about its tunnels (`keepingTunnels`, `connectNoted`). */
interface TunnelWatch {
	/** The open tunnels (CONNECT answered 200): undici hands them on and does not close one still in its handshake. */
	tunnels: Set<Duplex>;
	/** A write's connection is ready (through a tunnel: its TLS handshake with the service completed) or failed. */
	connected: boolean;
	/** CONNECTs asked of the proxy (their connection to it included) and not yet answered. */
	opening: number;
}

/**
 * undici's interceptor shape (`compose`): the proxy's side hands each CONNECT's tunnel to `watch` as undici's
 * own handler gets it, so a handshake with the service that stalls inside it can be closed.
 */
function keepingTunnels(watch: TunnelWatch): Dispatcher.DispatcherComposeInterceptor {
	return (dispatch) => (options, handler) => {
		watch.opening++;
		let unanswered = true;
		const answered = () => {
			if (unanswered) watch.opening--;
			unanswered = false;
		};
		return dispatch(options, {
			...forwarding(handler),
			onRequestUpgrade: (controller, statusCode, headers, socket) => {
				answered();
				watch.tunnels.add(socket);
				socket.once('close', () => watch.tunnels.delete(socket));
				handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
			},
			onResponseStart: (controller, statusCode, headers, message) => {
				answered();
				return handler.onResponseStart?.(controller, statusCode, headers, message);
			},
			onResponseError: (controller, error) => {
				answered();
				handler.onResponseError?.(controller, error);
			},
		});
	};
}

/** A handler that hands every call on to `handler` (its methods may need it as `this`, so no spread of it). */
function forwarding(handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
	return {
		onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
		onRequestUpgrade: (controller, statusCode, headers, socket) =>
			handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
		onResponseStart: (controller, statusCode, headers, message) =>
			handler.onResponseStart?.(controller, statusCode, headers, message),
		onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
		onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
		onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
	};
}

/**
 * The dispatcher with `onStart` called once undici hands the request to a connection (`onRequestStart`, before
 * its first byte is written): until then it waits for its way to the service, through a proxy for the proxy.
 */
export function noteStart(dispatcher: Dispatcher, onStart: () => void): Dispatcher {
	return dispatcher.compose(
		(dispatch) => (options, handler) =>
			dispatch(options, {
				...forwarding(handler),
				onRequestStart: (controller, context) => {
					onStart();
					handler.onRequestStart?.(controller, context);
				},
			}),
	);
}

/**
 * An http target through an http proxy as a forwarded absolute-URI request (`GET http://host/path`, as n8n's
 * helper sends it: squid's default refuses CONNECT to ports but 443), else a CONNECT tunnel. The URL's credentials
 * become Proxy-Authorization. Every pool on the way gets the direct one's settings, not undici's limits. Its
 * tunnels and the end of each connect are noted in `watch`.
 */
function proxyAgent(proxy: string, pooled: boolean, watch: TunnelWatch): ProxyAgent {
	const settings = pooled ? { ...NO_LIMITS, ...KEPT_ALIVE } : NO_LIMITS;
	return new ProxyAgent({
		uri: proxy,
		proxyTunnel: false,
		...settings,
		proxyTls: NO_CONNECT_LIMIT,
		requestTls: NO_CONNECT_LIMIT,
		// The pools to a target (through a tunnel: its connect is the proxy agent's CONNECT, then TLS inside) and to
		// the proxy (forwarding).
		factory: (origin, options) =>
			new Pool(origin, {
				...options,
				...settings,
				connect: connectNoted((options as { connect?: buildConnector.connector }).connect, watch),
			}),
		// The proxy's side of each tunnel, while CONNECT is answered: its wait is the node's Timeout too.
		clientFactory: (origin, options) =>
			new Pool(origin, { ...options, ...NO_LIMITS }).compose(
				keepingTunnels(watch),
			) as unknown as Pool,
	});
}

function connectNoted(
	connect: buildConnector.connector | undefined,
	watch: TunnelWatch,
): buildConnector.connector | undefined {
	if (typeof connect !== 'function') return connect;
	return (options, callback) =>
		connect(options, (...args: buildConnector.CallbackArgs) => {
			watch.connected = true;
			callback(...args);
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
): {
	dispatcher: Dispatcher;
	release: () => void;
	/**
	 * A connection of its own still connecting (TLS: in its handshake): nothing of the request has left. Through
	 * the proxy's pool: asked only of a read that no connection took, whose tunnel is then open.
	 */
	connecting?: () => boolean;
	/**
	 * The proxy has not yet opened the way to the service (no CONNECT answered): nothing has left. Through the
	 * proxy's pool: asked only of a read that no connection took; forwarded, its connection to the proxy never opened.
	 */
	tunnelling?: () => boolean;
} {
	if (pooled) {
		if (!proxy) return { dispatcher: directPool(origin), release: () => undefined };
		let kept = throughProxy.get(proxy);
		if (!kept) {
			const watch: TunnelWatch = { tunnels: new Set(), connected: false, opening: 0 };
			kept = { agent: proxyAgent(proxy, true, watch), answered: false, watch };
			throughProxy.set(proxy, kept);
		}
		const { watch } = kept;
		const tunnelled = origin.startsWith('https:');
		return {
			dispatcher: kept.agent,
			release: () => undefined,
			connecting: () => tunnelled && watch.opening === 0,
			tunnelling: () => !tunnelled || watch.opening > 0,
		};
	}
	if (proxy) {
		const watch: TunnelWatch = { tunnels: new Set(), connected: false, opening: 0 };
		const own = proxyAgent(proxy, false, watch);
		return {
			dispatcher: own,
			release: () => {
				void own.destroy().catch(() => undefined);
				for (const tunnel of watch.tunnels) tunnel.destroy();
			},
			// The tunnel is open, and the TLS handshake with the service inside it has not completed.
			connecting: () => watch.tunnels.size > 0 && !watch.connected,
			tunnelling: () => watch.tunnels.size === 0 && !watch.connected,
		};
	}
	const own = tracked((connect) => new Client(origin, { ...NO_LIMITS, connect }));
	return {
		dispatcher: own.dispatcher,
		release: () => close(own),
		connecting: () => own.connecting.size > 0,
	};
}

/** Whether a read may have taken a kept connection (undici does not say): one idle here, or a proxy pool that answered. */
export function mayReuse(origin: string, proxy: string | undefined): boolean {
	if (proxy) return throughProxy.get(proxy)?.answered ?? false;
	return ((direct.get(origin)?.dispatcher as Pool | undefined)?.stats.free ?? 0) > 0;
}

/** A read through the proxy's pool was answered: its connection may be kept. */
export function answeredThrough(proxy: string): void {
	const kept = throughProxy.get(proxy);
	if (kept) kept.answered = true;
}

/**
 * Drops the reads' pool to `origin` (directly or through `proxy`) after a read whose answer never started:
 * undici aborts a request only once a connection took it, so a connection whose handshake (or a proxy's CONNECT)
 * stalls would stay open, and undici would queue the next reads behind it. Reads still on the old pool end as
 * dropped and are sent again.
 */
export function retirePool(origin: string, proxy: string | undefined): void {
	if (!proxy) {
		const kept = direct.get(origin);
		direct.delete(origin);
		if (kept) close(kept);
		return;
	}
	const kept = throughProxy.get(proxy);
	if (!kept) return;
	throughProxy.delete(proxy);
	void kept.agent.destroy().catch(() => undefined);
	// A tunnel whose TLS handshake with the service stalls is no connection of the pool's yet.
	for (const tunnel of kept.watch.tunnels) tunnel.destroy();
}
