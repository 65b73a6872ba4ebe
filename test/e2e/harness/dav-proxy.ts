/**
 * A small proxy between n8n and a DAV server (Radicale or Xandikos) for the end-to-end tests: it sees every
 * request, and plays the server that refuses a sync-token or lacks sync-collection, or the other client that
 * changes an object between n8n's read and its conditional write or delete (If-Match).
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** stale-token: the sync-token n8n sends is swapped for one the server never issued; the server answers. */
export type ProxyMode = 'pass' | 'reject-token' | 'stale-token' | 'no-sync';
export interface Seen {
	method: string;
	path: string;
	/** A sync-collection REPORT, with the token it carried ('' for an initial sync). */
	sync?: string;
	status?: number;
	end?: number;
}
interface Upstream {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding'];

function forward(
	target: string,
	method: string,
	path: string,
	headers: IncomingMessage['headers'],
	body: Buffer,
): Promise<Upstream> {
	const url = new URL(path, target);
	const sent: Record<string, string | string[] | undefined> = {
		...headers,
		host: url.host,
		'content-length': String(body.length),
	};
	for (const name of HOP_BY_HOP) delete sent[name];
	return new Promise((resolve, reject) => {
		const upstream = request(url, { method, headers: sent }, (answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () =>
				resolve({
					status: answer.statusCode ?? 502,
					headers: answer.headers,
					body: Buffer.concat(chunks),
				}),
			);
		});
		upstream.on('error', reject);
		upstream.end(body);
	});
}

export async function davProxy(target: string) {
	const proxy = {
		url: '',
		mode: 'pass' as ProxyMode,
		log: [] as Seen[],
		/** Object path → writes another client makes just before n8n's next If-Match PUT or DELETE there (one each). */
		otherClient: new Map<string, { writes: string[]; etags: string[] }>(),
		/** Milliseconds the answer to the next request is held back (once), for a crash during a poll. */
		holdNextAnswerMs: 0,
		server: undefined as unknown as Server,
	};
	proxy.server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const body = Buffer.concat(chunks);
				const text = body.toString('utf8');
				const path = req.url ?? '/';
				const seen: Seen = { method: req.method ?? '?', path };
				if (req.method === 'REPORT' && text.includes('sync-collection'))
					seen.sync = /sync-token>([^<]*)</.exec(text)?.[1] ?? '';
				proxy.log.push(seen);
				const reply = (status: number, headers: Upstream['headers'], payload: Buffer | string) => {
					seen.status = status;
					const out = { ...headers };
					for (const name of HOP_BY_HOP) delete out[name];
					out['content-length'] = String(Buffer.byteLength(payload));
					res.writeHead(status, out).end(payload, () => (seen.end = Date.now()));
				};
				if (seen.sync !== undefined && proxy.mode === 'no-sync')
					return reply(501, { 'content-type': 'text/plain' }, 'sync-collection is not supported');
				if (seen.sync && proxy.mode === 'reject-token') {
					return reply(
						403,
						{ 'content-type': 'application/xml' },
						'<?xml version="1.0"?><D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>',
					);
				}
				const forwarded =
					seen.sync && proxy.mode === 'stale-token'
						? Buffer.from(
								text.replace(/(sync-token>)[^<]*</, '$1http://unknown.invalid/sync/0<'),
								'utf8',
							)
						: body;
				const other = proxy.otherClient.get(path);
				if (
					(req.method === 'PUT' || req.method === 'DELETE') &&
					req.headers['if-match'] &&
					other &&
					other.writes.length > 0
				) {
					const written = await forward(
						target,
						'PUT',
						path,
						{
							authorization: req.headers.authorization,
							'content-type': path.endsWith('.vcf') ? 'text/vcard' : 'text/calendar',
						},
						Buffer.from(other.writes.shift()!),
					);
					other.etags.push(String(written.headers.etag));
				}
				const answer = await forward(target, req.method ?? 'GET', path, req.headers, forwarded);
				const hold = proxy.holdNextAnswerMs;
				proxy.holdNextAnswerMs = 0;
				if (hold) await new Promise((resolve) => setTimeout(resolve, hold));
				reply(answer.status, answer.headers, answer.body);
			})().catch(() => res.destroy());
		});
	});
	await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
	proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}/`;
	return proxy;
}

export type DavProxy = Awaited<ReturnType<typeof davProxy>>;

export async function closeProxy(proxy: DavProxy | undefined): Promise<void> {
	if (!proxy) return;
	proxy.server.closeAllConnections();
	await new Promise((resolve) => proxy.server.close(resolve));
}
