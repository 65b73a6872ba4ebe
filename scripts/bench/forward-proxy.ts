// A small forwarding proxy for the benchmark's proxy rows, run as its own process (so its copying does not
// share the sandbox's event loop): absolute-URI requests (`GET http://host/path`, how clients send plain-http
// requests through a proxy) are forwarded with node:http, CONNECT opens a TCP tunnel (how clients reach an https
// service, and how some proxy agents send every request). It counts what passed, per path, so the benchmark can
// prove a row really went through it. Its own address answers `GET /__counts` (JSON) and `POST /__reset`.
// Prints its port on stdout once listening. Usage: node forward-proxy.ts
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type ServerResponse,
} from 'node:http';
import { connect } from 'node:net';

type Counts = { requests: Record<string, number>; tunnels: number; bytesDown: number };
let counts: Counts = { requests: {}, tunnels: 0, bytesDown: 0 };

const server = createServer((req, res) => {
	if (!/^https?:\/\//i.test(req.url ?? '')) {
		own(req, res);
		return;
	}
	const target = new URL(req.url!);
	counts.requests[target.pathname] = (counts.requests[target.pathname] ?? 0) + 1;
	// Hop-by-hop headers stay here (RFC 9110 7.6.1); the rest goes on as the client sent it.
	const headers = { ...req.headers };
	for (const name of ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'])
		delete headers[name];
	const upstream = httpRequest(
		{
			host: target.hostname,
			port: target.port || 80,
			method: req.method,
			path: `${target.pathname}${target.search}`,
			headers,
		},
		(answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.on('data', (chunk: Buffer) => {
				counts.bytesDown += chunk.length;
			});
			answer.pipe(res);
		},
	);
	upstream.on('error', () => {
		if (!res.headersSent) res.writeHead(502).end();
		else res.destroy();
	});
	req.pipe(upstream);
});

server.on('connect', (req: IncomingMessage, client, head: Buffer) => {
	counts.tunnels++;
	const [host, port] = (req.url ?? '').split(':');
	const upstream = connect(Number(port) || 443, host, () => {
		client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) upstream.write(head);
		upstream.pipe(client);
		client.pipe(upstream);
	});
	upstream.on('data', (chunk: Buffer) => {
		counts.bytesDown += chunk.length;
	});
	const close = () => {
		upstream.destroy();
		client.destroy();
	};
	upstream.on('error', close);
	client.on('error', close);
});

function own(req: IncomingMessage, res: ServerResponse): void {
	if (req.method === 'POST' && req.url === '/__reset') {
		counts = { requests: {}, tunnels: 0, bytesDown: 0 };
		res.writeHead(204).end();
	} else if (req.url === '/__counts') {
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
	} else res.writeHead(400).end('not a proxy request');
}

server.listen(0, '127.0.0.1', () => {
	const address = server.address();
	process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
