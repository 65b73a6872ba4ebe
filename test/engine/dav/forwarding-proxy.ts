import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy saw it (a precondition header only when the request carried it). */
export interface SeenRequest {
	method: string;
	ifMatch?: string;
	ifNoneMatch?: string;
}

/** The request a lost one carried, for another client to act on meanwhile. */
export interface LostRequest {
	method: string;
	/** The server's URL of the request. */
	url: URL;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/**
 * What happens to one exchange instead of passing through:
 * - `lose: 'request'`: it never reaches the server; once it has arrived, `meanwhile` runs (another client's
 *   change), then the connection is closed without an answer;
 * - `lose: 'answer'`: the server applies it, and the connection is closed without its answer;
 * - `answer`: the server applies it, and the client gets this status (and headers) instead of its answer.
 */
export type Fault =
	| { lose: 'request'; meanwhile?: (request: LostRequest) => Promise<unknown> }
	| { lose: 'answer' }
	| { answer: { status: number; headers?: Record<string, string> } };

/** Where the answer is lost: after the server applied the request, or before the request reached it. */
export type Drop = 'after-applied' | 'before-sent';

export interface ForwardingProxy {
	url: string;
	/** The next request that `matches` meets `fault`; the record of requests starts afresh. */
	faultNext(matches: (request: SeenRequest) => boolean, fault: Fault): void;
	/** The next request of this method loses its answer; `meanwhile` lands first (another client's change). */
	dropNext(method: string, drop: Drop, meanwhile?: () => Promise<unknown>): void;
	/** The requests of this method since the last faultNext or dropNext. */
	requests(method: string): SeenRequest[];
	close(): Promise<void>;
}

function seenOf(method: string, headers: IncomingHttpHeaders): SeenRequest {
	const seen: SeenRequest = { method };
	if (headers['if-match'] !== undefined) seen.ifMatch = String(headers['if-match']);
	if (headers['if-none-match'] !== undefined) seen.ifNoneMatch = String(headers['if-none-match']);
	return seen;
}

/**
 * A loopback proxy that passes every exchange through to the DAV server, but the one a hook picks: the one
 * shape behind every lost-answer and wrong-answer test of the DAV nodes.
 */
export async function startForwardingProxy(target: string): Promise<ForwardingProxy> {
	let armed: { matches: (request: SeenRequest) => boolean; fault: Fault } | undefined;
	const seen: SeenRequest[] = [];
	/** The per-exchange hook: the armed fault for the first request it matches, once. */
	const faultFor = (request: SeenRequest): Fault | undefined => {
		if (!armed?.matches(request)) return undefined;
		const { fault } = armed;
		armed = undefined;
		return fault;
	};
	const server: Server = createServer((req, res) => {
		const request_ = seenOf(req.method ?? '', req.headers);
		seen.push(request_);
		const fault = faultFor(request_);
		const url = new URL(req.url ?? '/', target);
		if (fault && 'lose' in fault && fault.lose === 'request') {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const lost = {
					method: request_.method,
					url,
					headers: req.headers,
					body: Buffer.concat(chunks),
				};
				void (fault.meanwhile?.(lost) ?? Promise.resolve()).then(() => req.socket.destroy());
			});
			return;
		}
		const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
			if (!fault) {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				return;
			}
			answer.resume();
			if ('answer' in fault) {
				res.writeHead(fault.answer.status, fault.answer.headers);
				res.end();
			} else answer.on('end', () => req.socket.destroy());
		});
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const faultNext = (matches: (request: SeenRequest) => boolean, fault: Fault) => {
		armed = { matches, fault };
		seen.length = 0;
	};
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		faultNext,
		dropNext: (method, drop, meanwhile) =>
			faultNext(
				(request) => request.method === method,
				drop === 'before-sent'
					? { lose: 'request', meanwhile: meanwhile && (async () => await meanwhile()) }
					: { lose: 'answer' },
			),
		requests: (method) => seen.filter((entry) => entry.method === method),
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
