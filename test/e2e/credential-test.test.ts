/**
 * The editor's Test button in a real n8n (`POST /rest/credentials/test`): n8n runs the pack's own Test for each
 * credential (the nodes' `testedBy`), which reports a redirect to another host instead of following it, so the
 * other host receives nothing, and words a refused port with its cause and fix.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startN8n, type N8nInstance } from './harness/n8n';

let n8n: N8nInstance;
const servers: Server[] = [];
const seen: Array<{ url?: string; headers: IncomingHttpHeaders; body: string }> = [];
let targetOrigin = '';
const redirectors: Record<number, string> = {};

async function listen(server: Server): Promise<number> {
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
	const targetPort = await listen(
		createServer((req, res) => {
			req.on('error', () => undefined);
			let body = '';
			req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
			req.on('end', () => {
				seen.push({ url: req.url, headers: req.headers, body });
				res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"Success":true}');
			});
		}),
	);
	// Another origin: another host name and another port.
	targetOrigin = `http://localhost:${targetPort}`;
	for (const status of [302, 307])
		redirectors[status] = `http://127.0.0.1:${await listen(
			createServer((req, res) => {
				req.on('error', () => undefined);
				req.resume();
				req.on('end', () => res.writeHead(status, { Location: `${targetOrigin}${req.url}` }).end());
			}),
		)}`;
	n8n = await startN8n({ mode: 'regular' });
});
afterAll(async () => {
	await n8n?.stop();
	for (const server of servers) {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});

const data = (type: string, url: string): Record<string, string> => {
	switch (type) {
		case 'cloudStorageTokenApi':
			return { baseUrl: url, webUrl: url, user: 'demo', accessToken: 'tok-secret-1' };
		case 'cloudStoragePasswordApi':
			return { baseUrl: url, webUrl: url, user: 'demo', password: 'pw-secret-1' };
		case 'cloudStorageBearerApi':
			return { userId: '1001', apiToken: 'bearer-secret-1', baseUrl: url, aiUrl: url };
		default:
			return { davUrl: `${url}/dav/`, username: 'alice', password: 'dav-secret-1' };
	}
};
const TYPES = [
	'cloudStorageTokenApi',
	'cloudStoragePasswordApi',
	'cloudStorageBearerApi',
	'cloudStorageDavApi',
];

it.each(TYPES.flatMap((type) => [302, 307].map((status) => [type, status] as const)))(
	'%s: a %i to another host is reported and the other host receives nothing',
	async (type, status) => {
		seen.length = 0;
		const credential = await n8n.client.createCredential(
			type,
			`${type} ${status}`,
			data(type, redirectors[status]),
		);
		const result = await n8n.client.testCredential(credential);
		expect(seen).toEqual([]);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(
			`answered with a redirect to ${new URL(targetOrigin).host} (${status})`,
		);
		expect(result.message).not.toMatch(/secret-1/);
	},
);

it.each(TYPES)('%s: a refused port names the cause and the fix', async (type) => {
	const closed = createServer();
	const port = await listen(closed);
	await new Promise((resolve) => closed.close(resolve));
	servers.splice(servers.indexOf(closed), 1);
	const credential = await n8n.client.createCredential(
		type,
		`${type} refused`,
		data(type, `http://127.0.0.1:${port}`),
	);
	const result = await n8n.client.testCredential(credential);
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(
		/Could not reach http:\/\/127\.0\.0\.1:\d+\S*: it refused the connection/,
	);
	expect(result.message).toMatch(/Check the URL in the credential/);
});
