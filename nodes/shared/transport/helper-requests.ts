import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

import { classifyFailure, failure } from './failures';
import { proxyFor } from './proxy';
import { proxySilence } from './proxy-failures';

/**
 * A request n8n's helper sent for the transport, as Node's http reports it (`http.client.request.start`): n8n hands
 * on neither the request's socket nor its own errors, so without this a handshake cut short looks like a dropped
 * request, an answer that broke HTTP/1.1 mid-body like a dropped connection ("aborted"), and a request given up
 * on keeps its socket open.
 */
export interface HelperRequest {
	/** Before the TLS handshake completed no byte of the request left (plain http: taken as sent). */
	sent: boolean;
	/** Node handed it its socket: through a proxy's tunnel (n8n's agent) only once the proxy answered CONNECT. */
	socketed: boolean;
	/** Scheme, host and port it went to. */
	target?: URL;
	/** The request's own failure (llhttp's code for an answer that broke HTTP/1.1). */
	failed?: Error;
	close(): void;
}

const sending = new AsyncLocalStorage<HelperRequest[]>();
/** The sends under way per target (`host` + path): for a request started where the async context was lost. */
const byTarget = new Map<string, Set<HelperRequest[]>>();
let listening = false;

const targetOf = (host: string, path: string) => `${host}${path.replace(/\?.*$/, '')}`;

/** A TLS client has sent its Finished message only once its handshake completed. */
function secured(socket: Socket): boolean {
	return !(socket instanceof TLSSocket) || socket.getFinished() !== undefined;
}

/** Never throws: this runs in a diagnostics channel's subscriber, where an error would be uncaught. */
function targetOfRequest(request: ClientRequest): URL | undefined {
	try {
		return new URL(`${request.protocol}//${String(request.getHeader('host') ?? request.host)}`);
	} catch {
		return undefined;
	}
}

/** Requests already noted: Node announces each twice (created, then started once its body ends). */
const noted = new WeakSet<ClientRequest>();

function started({ request }: { request: ClientRequest }): void {
	if (noted.has(request)) return;
	noted.add(request);
	// A request started from a stream's event (form-data's) may run in the stream's context: then the one send
	// under way to its target, if only one is.
	const alike = byTarget.get(targetOf(request.host, request.path));
	const seen = sending.getStore() ?? (alike?.size === 1 ? [...alike][0] : undefined);
	if (!seen) return;
	const entry: HelperRequest = {
		sent: request.protocol !== 'https:',
		socketed: false,
		target: targetOfRequest(request),
		close: () => {
			request.destroy();
			for (const connection of opened.get(seen) ?? []) connection.destroy();
		},
	};
	seen.push(entry);
	const watch = (socket: Socket) => {
		entry.socketed = true;
		entry.sent ||= secured(socket);
		if (!entry.sent) socket.once('secureConnect', () => (entry.sent = true));
	};
	// Node may have given it its socket already (an https request's, created at once).
	if (request.socket) watch(request.socket);
	else request.once('socket', watch);
	request.once('error', (error) => (entry.failed ??= error));
}

/**
 * The connections Node opened for a send (`net.connect`), noted before its request is announced: n8n's proxy agent
 * connects to the proxy first, and does not close that connection when the request is destroyed while CONNECT is
 * unanswered.
 */
const opened = new WeakMap<HelperRequest[], Socket[]>();

function connecting({ socket }: { socket: Socket }): void {
	const seen = sending.getStore();
	if (!seen) return;
	const connections = opened.get(seen) ?? [];
	opened.set(seen, [...connections.filter((connection) => !connection.destroyed), socket]);
}

/** Runs `send` (a call of n8n's helper), noting in `seen` every request Node's http starts for it. */
export async function watchingHelper<T>(
	seen: HelperRequest[],
	url: string,
	send: () => Promise<T>,
): Promise<T> {
	if (!listening) {
		listening = true;
		// `created` comes as the request is made (Node 22.12+), `start` only once its body has been written: a
		// multipart upload whose handshake fails before then would go unseen, and pass for a dropped request.
		subscribe('http.client.request.created', started as (message: unknown) => void);
		subscribe('http.client.request.start', started as (message: unknown) => void);
		subscribe('net.client.socket', connecting as (message: unknown) => void);
	}
	const { hostname, pathname } = new URL(url);
	const target = targetOf(hostname, pathname);
	const alike = byTarget.get(target) ?? new Set();
	byTarget.set(target, alike.add(seen));
	try {
		return await sending.run(seen, send);
	} finally {
		alike.delete(seen);
		if (alike.size === 0) byTarget.delete(target);
	}
}

const code = (error: unknown) => String((error as { code?: unknown })?.code ?? '');

/**
 * The failure n8n's helper reported, made precise by what its request saw: the answer's breach of HTTP/1.1, or a
 * handshake that never completed (nothing was sent).
 */
export function helperFailure(seen: HelperRequest[], error: unknown): unknown {
	const request = seen.at(-1);
	if (!request) return error;
	if (request.failed && code(request.failed).startsWith('HPE_')) return request.failed;
	if (request.sent) return error;
	const kind = classifyFailure(error).kind;
	if (kind === 'dropped')
		return failure('ERR_TLS_HANDSHAKE_RESET', 'the connection closed during the TLS handshake');
	if (kind !== 'timeout') return error;
	// n8n's own timeout destroyed the request, not a connection its proxy agent still holds open.
	request.close();
	// Waiting for its socket behind a proxy: the proxy never opened the tunnel.
	const proxy = request.socketed || !request.target ? undefined : proxyFor(request.target.href);
	if (proxy && request.target) return proxySilence(proxy, request.target);
	return failure('ERR_TLS_HANDSHAKE_TIMEOUT', 'the TLS handshake did not complete');
}
