/**
 * Credentials are never forwarded when an answer redirects to another host: a loopback server answers every
 * request with 302 to a second server (another host name and port) that records what reaches it. Every node
 * kind must stop with a clear error and the second server must see nothing.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow } from '../harness';

interface Seen {
	url?: string;
	headers: IncomingHttpHeaders;
	body: string;
}

const seen: Seen[] = [];
let target: Server;
let redirector: Server;
let origin = '';

const listen = async (server: Server) => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
	nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
	target = createServer((req, res) => {
		// A client that gives up mid-request closes the socket: that is no failure of this test run.
		req.on('error', () => undefined);
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		req.on('end', () => {
			seen.push({ url: req.url, headers: req.headers, body });
			res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
		});
	});
	const targetPort = await listen(target);
	redirector = createServer((req, res) => {
		req.on('error', () => undefined);
		req.resume();
		req.on('end', () =>
			res.writeHead(302, { Location: `http://localhost:${targetPort}${req.url}` }).end(),
		);
	});
	origin = `http://127.0.0.1:${await listen(redirector)}`;
});
afterAll(async () => {
	await new Promise((resolve) => target.close(resolve));
	await new Promise((resolve) => redirector.close(resolve));
	nock.restore();
});
beforeEach(() => (seen.length = 0));

const SECRETS = ['tok-secret-1', 'pw-secret-1', 'sess-secret-1', 'tok-ai-secret', 'dav-secret-1'];
const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: origin,
		webUrl: origin,
		user: 'demo',
		accessToken: 'tok-secret-1',
		sessionId: 'sess-secret-1',
	},
	cloudStoragePasswordApi: {
		baseUrl: origin,
		webUrl: origin,
		user: 'demo',
		password: 'pw-secret-1',
		sessionId: 'sess-secret-1',
	},
	cloudStorageBearerApi: {
		userId: '1001',
		apiToken: 'tok-ai-secret',
		baseUrl: origin,
		aiUrl: origin,
	},
	cloudStorageDavApi: { davUrl: `${origin}/`, username: 'alice', password: 'dav-secret-1' },
});

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

const CASES: Array<[string, string, INodeParameters]> = [
	[
		'Storage with the access token (form body)',
		'cloudStorage',
		{ resource: 'file', operation: 'get', file: rl('Fh1') },
	],
	[
		'Storage with the password (Basic)',
		'cloudStorage',
		{ authentication: 'passwordApi', resource: 'folder', operation: 'create', name: 'x' },
	],
	[
		'Storage session login',
		'cloudStorage',
		{ resource: 'folder', operation: 'checkExistence', hashes: 'F1' },
	],
	[
		'Search (session cookie)',
		'cloudStorageSearch',
		{ resource: 'item', operation: 'search', query: 'ab' },
	],
	[
		'DMS Task (JSON body)',
		'cloudStorageDmsTask',
		{ resource: 'task', operation: 'get', documentId: rl('5') },
	],
	[
		'E-Signature',
		'cloudStorageESignature',
		{ resource: 'signature', operation: 'getAll', file: rl('Fh1') },
	],
	[
		'AI (bearer)',
		'cloudStorageAi',
		{
			resource: 'text',
			operation: 'generate',
			model: 'qwen3:8b',
			prompt: 'Hi',
			options: { think: false },
		},
	],
	['MCP (bearer)', 'cloudStorageMcp', { resource: 'tool', operation: 'getAll' }],
	['Calendar (DAV Basic)', 'cloudStorageCalendar', { resource: 'calendar', operation: 'getAll' }],
	[
		'Contacts (DAV Basic)',
		'cloudStorageContacts',
		{ resource: 'addressBook', operation: 'getAll' },
	],
];

it.each(CASES)(
	'%s: a 302 to another host gives a clear error and forwards nothing',
	async (_name, type, parameters) => {
		const nodes = [
			{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
			{ name: 'Node', type: `${PACKAGE_NAME}.${type}`, parameters },
		];
		const { error } = await runWorkflow(
			{ nodes, connections: chain('Start', 'Node') },
			{ credentials: credentials() as never },
		);
		expect(seen).toEqual([]);
		expect(error?.name).toMatch(/^Node(Api|Operation)Error$/);
		const text = `${error?.message} | ${error?.description ?? ''}`;
		expect(text).toMatch(/redirect|30[12]/i);
		for (const secret of SECRETS) expect(JSON.stringify(error)).not.toContain(secret);
	},
);
