import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the answer is lost: after the server applied the request, or before the request reached it. */
export type Drop = 'after-applied' | 'before-sent';

export interface DropProxy {
	url: string;
	/** The next request of this method loses its answer; `meanwhile` lands first (another client's change). */
	dropNext(method: string, drop: Drop, meanwhile?: () => Promise<unknown>): void;
	/** The requests of this method since the last dropNext, with their If-Match. */
	requests(method: string): Array<{ method: string; ifMatch?: string }>;
	close(): Promise<void>;
}

/** A loopback proxy that passes everything through to the DAV server but the one request told to drop. */
export async function startDropProxy(target: string): Promise<DropProxy> {
	let next: { method: string; drop: Drop; meanwhile?: () => Promise<unknown> } | undefined;
	const seen: Array<{ method: string; ifMatch?: string }> = [];
	const server: Server = createServer((req, res) => {
		seen.push({ method: req.method ?? '', ifMatch: req.headers['if-match'] as string | undefined });
		const fault = next && req.method === next.method ? next : undefined;
		if (fault) next = undefined;
		if (fault?.drop === 'before-sent') {
			req.resume();
			req.on('end', () => {
				void (fault.meanwhile?.() ?? Promise.resolve()).then(() => req.socket.destroy());
			});
			return;
		}
		const upstream = request(
			new URL(req.url ?? '/', target),
			{ method: req.method, headers: req.headers },
			(answer) => {
				if (fault?.drop === 'after-applied') {
					answer.resume();
					answer.on('end', () => req.socket.destroy());
					return;
				}
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		dropNext(method, drop, meanwhile) {
			next = { method, drop, meanwhile };
			seen.length = 0;
		},
		requests: (method) => seen.filter((entry) => entry.method === method),
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
