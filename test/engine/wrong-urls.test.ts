/**
 * The URLs users paste into a credential's URL field by mistake (the web interface's address, a file's share
 * link, the other interface's address, a path the node adds itself, a trailing space, plain http to another
 * host, a user name and password in the URL), each through the credential's Test and one node call of that
 * credential: every answer names the cause and the fix, and none repeats a secret.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { RADICALE_USER, startRadicale, type Radicale } from '../dav/radicale';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { chain, runWorkflow, testCredential } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let radicale: Radicale;
let web: Server;
let webUrl = '';

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	radicale = await startRadicale();
	web = createServer((req, res) => {
		req.resume();
		req.on('end', () =>
			res
				.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
				.end('<!doctype html><html><body>Cloud Storage</body></html>'),
		);
	});
	await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
	webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await sandbox?.close();
	await radicale?.stop();
	web.closeAllConnections();
	await new Promise((resolve) => web.close(resolve));
});

function cases(kind: string): Array<[string, string]> {
	const right = kind === 'cloudStorageDavApi' ? radicale.url : sandbox.baseUrl;
	const withUser = right.replace('http://', 'http://demo:demo-password@');
	return [
		['web UI', webUrl],
		['share link', `${webUrl}/f/Abc123`],
		['DAV URL', radicale.url],
		['storage URL', sandbox.baseUrl],
		['/api/v1', `${right.replace(/\/$/, '')}/api/v1`],
		['trailing space', `${right} `],
		['http remote', 'http://api.example.com'],
		['user:pass@', withUser],
	];
}

const credentialOf = (kind: string, url: string): ICredentialDataDecryptedObject => {
	if (kind === 'cloudStorageTokenApi')
		return {
			baseUrl: url,
			webUrl: url,
			user: 'demo',
			accessToken: DEMO_ACCOUNT.token,
			sessionId: '',
		};
	if (kind === 'cloudStoragePasswordApi')
		return {
			baseUrl: url,
			webUrl: url,
			user: 'demo',
			password: DEMO_ACCOUNT.password,
			sessionId: '',
		};
	if (kind === 'cloudStorageBearerApi')
		return {
			userId: String(DEMO_ACCOUNT.id),
			apiToken: DEMO_ACCOUNT.token,
			baseUrl: url,
			aiUrl: url,
		};
	return { davUrl: url, username: RADICALE_USER.username, password: RADICALE_USER.password };
};

const NODES: Record<string, { type: string; parameters: object }> = {
	cloudStorageTokenApi: {
		type: 'cloudStorage',
		parameters: { resource: 'folder', operation: 'listRoot' },
	},
	cloudStoragePasswordApi: {
		type: 'cloudStorage',
		parameters: { authentication: 'passwordApi', resource: 'folder', operation: 'listRoot' },
	},
	cloudStorageBearerApi: {
		type: 'cloudStorageMcp',
		parameters: { resource: 'tool', operation: 'getAll' },
	},
	cloudStorageDavApi: {
		type: 'cloudStorageCalendar',
		parameters: { resource: 'calendar', operation: 'getAll' },
	},
};

type Expected = [test: RegExp, node: RegExp | 'runs'];
const SPACE: Expected = [
	/^(Base|DAV) URL has a space before or after the address\. Remove it\.$/,
	/The URL has a space in it: remove any space/,
];
const PLAIN_HTTP: Expected = [
	/^(Base|DAV) URL: Refusing plain http for api\.example\.com: credentials would travel unencrypted/,
	/^Refusing plain http for api\.example\.com/,
];
const USER_INFO: Expected = [
	/^(Base|DAV) URL carries a user name or password before the host \(user:password@\)\. Remove them/,
	/^The URL in the credential carries a user name or password before the host/,
];
const ORIGIN_HINT =
	/The node adds each interface's path \(\/api\/v1 among them\) itself: set Base URL to http:\/\/127\.0\.0\.1:\d+\.$/;

const EXPECTED: Record<string, Record<string, Expected>> = {
	cloudStorageTokenApi: {
		'web UI': [
			/HTML page where JSON was expected/,
			/login at \S+ answered with an HTML page.*not the service's API address/,
		],
		'share link': [
			/HTML page.* Base URL is a share link .*: set it to the API's address\.$/,
			/HTML page.* Base URL is a share link/,
		],
		'DAV URL': [
			/answers as the service's login \(405\)/,
			/login at \S+ answered 405\. The Base URL is not the service's API address/,
		],
		'storage URL': [/^The service accepted/, 'runs'],
		'/api/v1': [ORIGIN_HINT, ORIGIN_HINT],
		'trailing space': SPACE,
		'http remote': PLAIN_HTTP,
		'user:pass@': USER_INFO,
	},
	cloudStoragePasswordApi: {
		'web UI': [
			/HTML page where JSON was expected/,
			/HTML page where JSON was expected.*points at the service's API/,
		],
		'share link': [
			/HTML page.* Base URL is a share link/,
			/HTML page where JSON was expected.*points at the service's API/,
		],
		// The node's 401 is worded by the transport's status table, which cannot tell another server's login.
		'DAV URL': [
			/refused the login \(401\), but not as the service does: it answered with plain text\. Check Base URL first/,
			/Authentication failed \(401\).*Check the user name/,
		],
		'storage URL': [/^The service accepted/, 'runs'],
		'/api/v1': [ORIGIN_HINT, /Not found \(404\).*Check the Base URL/],
		'trailing space': SPACE,
		'http remote': PLAIN_HTTP,
		'user:pass@': USER_INFO,
	},
	cloudStorageBearerApi: {
		'web UI': [
			/MCP endpoint answered with an HTML page/,
			/not JSON-RPC: \S+ is not the service's MCP endpoint.*Check the Base URL/,
		],
		'share link': [
			/HTML page.* Base URL is a share link/,
			/is not the service's MCP endpoint.*a share link/,
		],
		'DAV URL': [
			/answers as the service's MCP endpoint \(405\)/,
			/^Nothing at \S+\/api\/mcp answers as the service's MCP endpoint \(405\).*Check the Base URL/,
		],
		'storage URL': [/^The service accepted/, 'runs'],
		'/api/v1': [
			ORIGIN_HINT,
			/^Nothing at \S+\/api\/v1\/api\/mcp answers as the service's MCP endpoint \(404\)/,
		],
		// The MCP node trims the Base URL; the Test asks for the space to go all the same.
		'trailing space': [SPACE[0], 'runs'],
		'http remote': PLAIN_HTTP,
		'user:pass@': USER_INFO,
	},
	cloudStorageDavApi: {
		'web UI': [
			/is not a CalDAV\/CardDAV server: it answered a DAV request \(PROPFIND\) with 200 with a web page/,
			/is not a CalDAV\/CardDAV server.*not a web page/,
		],
		'share link': [
			/DAV URL is a share link .*: set it to the CalDAV\/CardDAV server's address\.$/,
			/is not a CalDAV\/CardDAV server/,
		],
		'DAV URL': [/^The server accepted/, 'runs'],
		'storage URL': [
			/is not a CalDAV\/CardDAV server: it answered a DAV request \(PROPFIND\) with 404/,
			/is not a CalDAV\/CardDAV server: it answered 404/,
		],
		// Radicale refuses a path outside the user's own with 403: the Test adds the server's root to try.
		'/api/v1': [
			/refused this account access \(403\).* Or the DAV URL points below the server's root, where this account may not look: try http:\/\/127\.0\.0\.1:\d+\/\.$/,
			/refused access \(403\)/,
		],
		// The DAV client trims the DAV URL; the Test asks for the space to go all the same.
		'trailing space': [SPACE[0], 'runs'],
		'http remote': PLAIN_HTTP,
		'user:pass@': USER_INFO,
	},
};

const SECRETS = [DEMO_ACCOUNT.token, DEMO_ACCOUNT.password, RADICALE_USER.password];

describe.each(Object.keys(NODES))('%s', (kind) => {
	it.each(Object.keys(EXPECTED[kind]))('%s', async (name) => {
		const url = Object.fromEntries(cases(kind))[name];
		const [testSaid, nodeSaid] = EXPECTED[kind][name];
		const test = await testCredential(kind, credentialOf(kind, url));
		expect(test.message).toMatch(testSaid);
		expect(test.status).toBe(testSaid.source.includes('accepted') ? 'OK' : 'Error');
		const node = NODES[kind];
		const nodes = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{
				name: 'N',
				type: `n8n-nodes-cloud-storage.${node.type}`,
				parameters: node.parameters as never,
			},
		];
		const run = await runWorkflow(
			{ nodes, connections: chain('Start', 'N') },
			{ credentials: { [kind]: credentialOf(kind, url) } as never },
		);
		const error = run.error as { message?: string; description?: string } | undefined;
		if (nodeSaid === 'runs') expect(error).toBeUndefined();
		else expect(`${error?.message} ${error?.description ?? ''}`.trim()).toMatch(nodeSaid);
		for (const text of [test.message, JSON.stringify(run.error ?? {})])
			for (const secret of SECRETS) expect(text).not.toContain(secret);
	});
});
