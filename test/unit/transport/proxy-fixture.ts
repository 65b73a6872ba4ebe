// A small forwarding proxy on loopback for the tests of calls behind a proxy, as real proxies work: absolute-URI
// requests (`POST http://host/path`, how clients send plain-http requests through a proxy) are forwarded with
// node:http, CONNECT opens a TCP tunnel (how clients reach an https service). It counts the connections clients
// open to it and what passed, and can require credentials (407), refuse tunnels with a status, or stall.
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface Forwarded {
	method?: string;
	/** The request target as the client sent it: an absolute URI when forwarded. */
	url?: string;
	proxyAuthorization?: string;
	connection?: string;
	/** Which client connection it came on (1 = the first the proxy accepted). */
	on: number;
}

export interface Tunnel {
	/** `host:port` asked for. */
	target: string;
	proxyAuthorization?: string;
	on: number;
}

export interface ProxyFixture {
	url: string;
	port: number;
	/** Connections clients opened to the proxy, and how many of them have closed. */
	connections(): number;
	closed(): number;
	forwarded: Forwarded[];
	tunnels: Tunnel[];
	/** Require these credentials (`Basic` user:password), answering 407 otherwise. */
	requireCredentials(userAndPassword: string | undefined): void;
	/** Answer every CONNECT with this status instead of opening the tunnel. */
	refuseTunnels(status: number | undefined): void;
	/** Accept requests and CONNECTs but answer none (until set to false); `onStall` fires for each held one. */
	stall(on: boolean, onStall?: () => void): void;
	reset(): void;
	close(): Promise<void>;
}

/** `tls`: the proxy itself speaks TLS with this certificate (an `https://` proxy URL). */
export async function startProxy(tls?: { cert: string; key: Buffer }): Promise<ProxyFixture> {
	let credentials: string | undefined;
	let refusal: number | undefined;
	let stalling = false;
	let onStall: (() => void) | undefined;
	let accepted = 0;
	let closed = 0;
	const connectionNumber = new WeakMap<Socket, number>();
	const sockets = new Set<Socket>();
	const forwarded: Forwarded[] = [];
	const tunnels: Tunnel[] = [];

	const authorised = (req: IncomingMessage) =>
		credentials === undefined ||
		req.headers['proxy-authorization'] === `Basic ${Buffer.from(credentials).toString('base64')}`;

	const handle = (req: IncomingMessage, res: ServerResponse) => {
		forwarded.push({
			method: req.method,
			url: req.url,
			proxyAuthorization: req.headers['proxy-authorization'],
			connection: req.headers.connection,
			on: connectionNumber.get(req.socket) ?? 0,
		});
		if (stalling) return void onStall?.();
		if (!authorised(req))
			return void res
				.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-length': 0 })
				.end();
		if (!/^http:\/\//i.test(req.url ?? '')) return void res.writeHead(400).end();
		const target = new URL(req.url!);
		// Hop-by-hop headers stay here (RFC 9110 7.6.1); the rest goes on as the client sent it.
		const headers = { ...req.headers };
		for (const name of ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'])
			delete headers[name];
		// A connection of its own to the service per request: what the tests count is the client's side.
		const upstream = httpRequest(
			{
				host: target.hostname,
				port: target.port || 80,
				method: req.method,
				path: `${target.pathname}${target.search}`,
				headers,
				agent: false,
			},
			(answer) => {
				const back = { ...answer.headers };
				for (const name of ['connection', 'keep-alive', 'proxy-connection']) delete back[name];
				res.writeHead(answer.statusCode ?? 502, back);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => {
			if (!res.headersSent) res.writeHead(502, { 'content-length': 0 }).end();
			else res.destroy();
		});
		req.pipe(upstream);
	};
	const server: Server = tls ? createTlsServer(tls, handle) : createServer(handle);
	server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
		connectionNumber.set(socket, ++accepted);
		sockets.add(socket);
		socket.once('close', () => {
			sockets.delete(socket);
			closed++;
		});
	});
	server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
		tunnels.push({
			target: req.url ?? '',
			proxyAuthorization: req.headers['proxy-authorization'],
			on: connectionNumber.get(client) ?? 0,
		});
		client.on('error', () => undefined);
		// A CONNECT's socket is the handler's, held half-open by node:http: closed here once the client closes it.
		client.once('end', () => client.destroy());
		if (stalling) return void onStall?.();
		const answer = (status: number, extra = '') =>
			void client.end(`HTTP/1.1 ${status} Refused\r\n${extra}content-length: 0\r\n\r\n`);
		if (!authorised(req)) return answer(407, 'proxy-authenticate: Basic realm="test"\r\n');
		if (refusal !== undefined) return answer(refusal);
		const [host, port] = (req.url ?? '').split(':');
		const upstream = connect(Number(port) || 443, host, () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		const close = () => {
			upstream.destroy();
			client.destroy();
		};
		upstream.on('error', close);
		client.on('close', close);
		upstream.on('close', close);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `${tls ? 'https://localhost' : 'http://127.0.0.1'}:${port}`,
		port,
		connections: () => accepted,
		closed: () => closed,
		forwarded,
		tunnels,
		requireCredentials: (value) => (credentials = value),
		refuseTunnels: (status) => (refusal = status),
		stall: (on, callback) => {
			stalling = on;
			onStall = callback;
		},
		reset: () => {
			accepted = 0;
			closed = 0;
			forwarded.length = 0;
			tunnels.length = 0;
			credentials = undefined;
			refusal = undefined;
			stalling = false;
		},
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
