/**
 * The editor's Test button for each of the pack's four credentials, run as n8n 2.41's CredentialsTester runs it
 * (`testCredential`): a Test never sends a credential to any host but the configured one (a redirect is reported,
 * not followed), and every failure says its cause and its fix.
 */
import { createServer as createHttpServer, type Server, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { RADICALE_USER, startRadicale } from '../dav/radicale';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { testCredential } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Handler = Parameters<typeof createHttpServer>[1];
type Kind = 'token' | 'password' | 'bearer' | 'dav';

const TYPE: Record<Kind, string> = {
	token: 'cloudStorageTokenApi',
	password: 'cloudStoragePasswordApi',
	bearer: 'cloudStorageBearerApi',
	dav: 'cloudStorageDavApi',
};
const SECRETS = ['tok-secret-1', 'pw-secret-1', 'sess-secret-1', 'bearer-secret-1', 'dav-secret-1'];

/** The credential of `kind` pointed at `url` (its Base URL or DAV URL), with secrets no answer may echo. */
function credential(kind: Kind, url: string, secret?: string): ICredentialDataDecryptedObject {
	switch (kind) {
		case 'token':
			return {
				baseUrl: url,
				webUrl: url,
				user: 'demo',
				accessToken: secret ?? 'tok-secret-1',
				sessionId: 'sess-secret-1',
			};
		case 'password':
			return {
				baseUrl: url,
				webUrl: url,
				user: 'demo',
				password: secret ?? 'pw-secret-1',
				sessionId: 'sess-secret-1',
			};
		case 'bearer':
			return {
				userId: String(DEMO_ACCOUNT.id),
				apiToken: secret ?? 'bearer-secret-1',
				baseUrl: url,
				aiUrl: url,
			};
		case 'dav':
			return { davUrl: url, username: 'alice', password: secret ?? 'dav-secret-1' };
	}
}

const servers: Server[] = [];
async function serve(
	handler: Handler,
	server: Server = createHttpServer(handler),
): Promise<string> {
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
/** A server that answers every request with `status`, `type` and `body`, after reading the request. */
const answering =
	(status: number, type: string, body: string): Handler =>
	(req, res) => {
		req.on('error', () => undefined);
		req.resume();
		req.on('end', () => res.writeHead(status, { 'Content-Type': type }).end(body));
	};

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => {
	await sandbox?.close();
	for (const server of servers) {
		server.closeAllConnections?.();
		await new Promise((resolve) => server.close(resolve));
	}
});

async function run(kind: Kind, url: string, secret?: string) {
	const result = await testCredential(TYPE[kind], credential(kind, url, secret));
	for (const value of SECRETS) expect(result.message).not.toContain(value);
	return result;
}

const KINDS: Kind[] = ['token', 'password', 'bearer', 'dav'];

describe('a redirect to another host is reported, never followed, and the other host receives nothing', () => {
	interface Seen {
		url?: string;
		headers: IncomingHttpHeaders;
		body: string;
	}
	const seen: Seen[] = [];
	let targetOrigin = '';
	const redirectors: Record<number, string> = {};

	beforeAll(async () => {
		const target = await serve((req, res) => {
			req.on('error', () => undefined);
			let body = '';
			req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
			req.on('end', () => {
				seen.push({ url: req.url, headers: req.headers, body });
				res
					.writeHead(200, { 'Content-Type': 'application/json' })
					.end('{"Success":true,"SessionID":"x"}');
			});
		});
		// Another origin: another host name and another port.
		targetOrigin = target.replace('127.0.0.1', 'localhost');
		for (const status of [301, 302, 307, 308])
			redirectors[status] = await serve((req, res) => {
				req.on('error', () => undefined);
				req.resume();
				req.on('end', () => res.writeHead(status, { Location: `${targetOrigin}${req.url}` }).end());
			});
	});
	beforeEach(() => (seen.length = 0));
	afterEach(() => delete process.env.CLOUD_STORAGE_KEEP_ALIVE);

	const cases = KINDS.flatMap((kind) =>
		[301, 302, 307, 308].flatMap((status) =>
			(['own connections', "n8n's helper"] as const).map((way) => [kind, status, way] as const),
		),
	);
	it.each(cases)('%s credential, %i, through %s', async (kind, status, way) => {
		// n8n's helper carries the Test where it carries the nodes' calls: SSRF protection, or this.
		if (way === "n8n's helper") process.env.CLOUD_STORAGE_KEEP_ALIVE = 'false';
		const url = kind === 'dav' ? `${redirectors[status]}/dav/` : redirectors[status];
		const result = await run(kind, url);
		expect(seen).toEqual([]);
		expect(result.status).toBe('Error');
		const host = new URL(targetOrigin).host;
		expect(result.message).toContain(`answered with a redirect to ${host} (${status})`);
		const field = kind === 'dav' ? 'DAV URL' : 'Base URL';
		const address = kind === 'dav' ? `${targetOrigin}/dav/` : targetOrigin;
		expect(result.message).toContain(`set ${field} to ${address}.`);
	});
});

describe('every failure names its cause and its fix', () => {
	afterEach(() => delete process.env.CLOUD_STORAGE_KEEP_ALIVE);
	let closedPort = '';
	beforeAll(async () => {
		const server = createHttpServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		closedPort = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		await new Promise((resolve) => server.close(resolve));
	});

	it.each(KINDS)('%s: a refused port', async (kind) => {
		const result = await run(kind, kind === 'dav' ? `${closedPort}/dav/` : closedPort);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/Could not reach http:\/\/127\.0\.0\.1:\d+.*: it refused the connection/,
		);
		expect(result.message).toMatch(/Check the URL in the credential/);
	});

	it.each(KINDS)('%s: an unknown host', async (kind) => {
		const result = await run(kind, 'https://no-such-host.invalid/');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Could not reach https:\/\/no-such-host\.invalid.*host name/);
		expect(result.message).toMatch(/Check the URL in the credential/);
	});

	it.each(KINDS)('%s: a TLS certificate this machine does not trust', async (kind) => {
		const fixtures = path.join(__dirname, '../unit/transport/fixtures');
		const server = createHttpsServer(
			{
				key: readFileSync(path.join(fixtures, 'loopback-key.pem')),
				cert: readFileSync(path.join(fixtures, 'loopback-cert.pem')),
			},
			answering(200, 'application/json', '{}'),
		);
		const origin = (await serve(() => undefined, server)).replace(/^http:/, 'https:');
		const result = await run(kind, kind === 'dav' ? `${origin}/dav/` : origin);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/TLS certificate of 127\.0\.0\.1 is not trusted by this machine/,
		);
		expect(result.message).toMatch(/NODE_EXTRA_CA_CERTS/);
	});

	it.each(
		KINDS.flatMap((kind) =>
			(['own connections', "n8n's helper"] as const).map((way) => [kind, way] as const),
		),
	)('%s: an https URL answered by a plain-http server, through %s', async (kind, way) => {
		if (way === "n8n's helper") process.env.CLOUD_STORAGE_KEEP_ALIVE = 'false';
		const plain = await serve(answering(200, 'application/json', '{}'));
		const origin = plain.replace(/^http:/, 'https:');
		const result = await run(kind, kind === 'dav' ? `${origin}/dav/` : origin);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(new URL(origin).host);
		expect(result.message).toMatch(/http:\/\//);
		expect(result.message).not.toMatch(/deps\/openssl|\n/);
	});

	it.each(['token', 'password', 'bearer'] as const)('%s: a wrong path (404)', async (kind) => {
		const origin = await serve(answering(404, 'text/plain', 'Not Found'));
		const result = await run(kind, `${origin}/somewhere`);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/Nothing at http:\/\/127\.0\.0\.1:\d+\/somewhere\/api\/\S+ answers as the service's (login|MCP endpoint) \(404\)/,
		);
		expect(result.message).toMatch(/not the service's API address: set it to/);
	});

	it.each(['token', 'password', 'bearer'] as const)(
		'%s: a web page (HTML) at the Base URL',
		async (kind) => {
			const origin = await serve(
				answering(200, 'text/html', '<!doctype html><html><body>Welcome</body></html>'),
			);
			const result = await run(kind, origin);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/answered with an HTML page where JSON was expected/);
			expect(result.message).toMatch(/points at the service's API/);
		},
	);

	it.each(['token', 'password', 'bearer'] as const)('%s: a wrong secret', async (kind) => {
		const result = await run(kind, sandbox.baseUrl, 'wrong-secret');
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the (login: wrong user or|User ID and API Token)/);
		expect(result.message).toMatch(/Check (User and|both)/);
	});

	it.each(
		(['token', 'password', 'bearer'] as const).flatMap((kind) =>
			(['own connections', "n8n's helper"] as const).map((way) => [kind, way] as const),
		),
	)('%s: the right secret passes through %s', async (kind, way) => {
		if (way === "n8n's helper") process.env.CLOUD_STORAGE_KEEP_ALIVE = 'false';
		const secret = kind === 'password' ? DEMO_ACCOUNT.password : DEMO_ACCOUNT.token;
		const result = await run(kind, sandbox.baseUrl, secret);
		expect(result).toMatchObject({ status: 'OK' });
	});

	it('password: a two-factor account is told what to confirm', async () => {
		const result = await testCredential(TYPE.password, {
			...credential('password', sandbox.baseUrl, 'twofa-password'),
			user: 'twofa',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/two-factor/);
	});

	describe('dav', () => {
		const multistatus =
			'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/dav/alice/</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>';
		const basic = `Basic ${Buffer.from('alice:dav-secret-1').toString('base64')}`;
		let davOrigin = '';
		beforeAll(async () => {
			davOrigin = await serve((req, res) => {
				req.on('error', () => undefined);
				req.resume();
				req.on('end', () => {
					if (req.headers.authorization !== basic)
						res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="dav"' }).end();
					else res.writeHead(207, { 'Content-Type': 'application/xml' }).end(multistatus);
				});
			});
		});

		it.each(['own connections', "n8n's helper"])(
			'the right user and password pass through %s',
			async (way) => {
				if (way === "n8n's helper") process.env.CLOUD_STORAGE_KEEP_ALIVE = 'false';
				expect(await run('dav', `${davOrigin}/dav/`)).toMatchObject({ status: 'OK' });
			},
		);

		it('a wrong password', async () => {
			const result = await run('dav', `${davOrigin}/dav/`, 'wrong-secret');
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/refused the user name and password \(401\).*Check Username and Password/,
			);
		});

		it.each([
			['a 404 (wrong path)', answering(404, 'text/plain', 'Not Found'), /with 404/],
			['a 405 (a web server)', answering(405, 'text/plain', 'Method Not Allowed'), /with 405/],
			[
				'a web page (HTML)',
				answering(200, 'text/html', '<html><body>Hi</body></html>'),
				/with 200 with a web page/,
			],
		] as const)('a server that is not DAV: %s', async (_name, handler, status) => {
			const origin = await serve(handler);
			const result = await run('dav', `${origin}/dav/`);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/is not a CalDAV\/CardDAV server: it answered a DAV request \(PROPFIND\)/,
			);
			expect(result.message).toMatch(status);
			expect(result.message).toMatch(/Set DAV URL to the root of the CalDAV\/CardDAV server/);
		});

		it('a real CalDAV/CardDAV server (Radicale) passes, and refuses a wrong password', async () => {
			const radicale = await startRadicale();
			try {
				const data = { davUrl: radicale.url, username: RADICALE_USER.username };
				const ok = await testCredential(TYPE.dav, { ...data, password: RADICALE_USER.password });
				expect(ok).toMatchObject({ status: 'OK' });
				const wrong = await testCredential(TYPE.dav, { ...data, password: 'wrong-secret' });
				expect(wrong.message).toMatch(/refused the user name and password \(401\)/);
			} finally {
				await radicale.stop();
			}
		});

		it("the storage service's API is not DAV", async () => {
			const result = await run('dav', `${sandbox.baseUrl}/`);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/is not a CalDAV\/CardDAV server/);
		});
	});
});
