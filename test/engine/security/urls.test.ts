/**
 * Where secrets may travel: plain http to a non-loopback host is refused before any request for every
 * credential kind, and no node puts a credential in a URL (DMS and MCP included: body or header only).
 */
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow } from '../harness';
import { offlineWithNock } from '../../unit/offline';

const SECRETS = ['tok-secret-1', 'pw-secret-1', 'sess-secret-1', 'tok-ai-secret', 'dav-secret-1'];
const credentialsFor = (base: string) => ({
	cloudStorageTokenApi: {
		baseUrl: base,
		webUrl: base.replace('api.', 'www.'),
		user: 'demo',
		accessToken: 'tok-secret-1',
		sessionId: 'sess-secret-1',
	},
	cloudStoragePasswordApi: {
		baseUrl: base,
		webUrl: base.replace('api.', 'www.'),
		user: 'demo',
		password: 'pw-secret-1',
		sessionId: 'sess-secret-1',
	},
	cloudStorageBearerApi: {
		userId: '1001',
		apiToken: 'tok-ai-secret',
		baseUrl: base,
		aiUrl: base.replace('api.', 'ai.'),
	},
	cloudStorageDavApi: {
		davUrl: `${base.replace('api.', 'dav.')}/`,
		username: 'alice',
		password: 'dav-secret-1',
	},
});
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

const NODES: Array<[string, string, INodeParameters]> = [
	['Storage (token)', 'cloudStorage', { resource: 'file', operation: 'get', file: rl('Fh1') }],
	[
		'Storage (password)',
		'cloudStorage',
		{ authentication: 'passwordApi', resource: 'folder', operation: 'get', folder: rl('F1') },
	],
	[
		'Storage (session)',
		'cloudStorage',
		{ resource: 'folder', operation: 'checkExistence', hashes: 'F1' },
	],
	['Search', 'cloudStorageSearch', { resource: 'item', operation: 'search', query: 'ab' }],
	[
		'E-Signature',
		'cloudStorageESignature',
		{ resource: 'signature', operation: 'getAll', file: rl('Fh1') },
	],
	['DMS Task', 'cloudStorageDmsTask', { resource: 'task', operation: 'get', documentId: rl('5') }],
	[
		'Contact Person',
		'cloudStorageContactPerson',
		{ resource: 'contactPerson', operation: 'getAll', returnAll: false, limit: 1 },
	],
	[
		'AI',
		'cloudStorageAi',
		{
			resource: 'text',
			operation: 'generate',
			model: 'qwen3:8b',
			prompt: 'Hi',
			options: { think: false },
		},
	],
	['MCP', 'cloudStorageMcp', { resource: 'tool', operation: 'getAll' }],
	['Calendar', 'cloudStorageCalendar', { resource: 'calendar', operation: 'getAll' }],
	['Contacts', 'cloudStorageContacts', { resource: 'addressBook', operation: 'getAll' }],
];

async function run(type: string, parameters: INodeParameters, base: string) {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'Node', type: `${PACKAGE_NAME}.${type}`, parameters },
	];
	return await runWorkflow(
		{ nodes, connections: chain('Start', 'Node') },
		{ credentials: credentialsFor(base) as never },
	);
}

offlineWithNock();

describe('plain http outside loopback is refused before any request', () => {
	it.each(NODES)('%s', async (_name, type, parameters) => {
		const sent: string[] = [];
		const record = (req: { hostname?: string; path?: string }) =>
			sent.push(`${req.hostname}${req.path}`);
		nock.emitter.on('no match', record);
		try {
			const { error } = await run(type, parameters, 'http://api.example.test');
			expect(error?.message).toMatch(
				/^Refusing plain http for [a-z]+\.example\.test: credentials would travel unencrypted/,
			);
			expect(sent).toEqual([]);
		} finally {
			nock.emitter.removeListener('no match', record);
		}
	});
});

describe('no credential in any URL', () => {
	it.each(NODES)('%s', async (_name, type, parameters) => {
		const urls: string[] = [];
		for (const host of [
			'https://api.example.test',
			'https://www.example.test',
			'https://ai.example.test',
			'https://dav.example.test',
		]) {
			for (const method of ['GET', 'POST', 'PROPFIND', 'REPORT']) {
				nock(host)
					.persist()
					.intercept(/.*/, method)
					.reply(function (uri) {
						urls.push(`${method} ${host}${uri}`);
						return [400, '', { 'Content-Type': 'application/json' }];
					});
			}
		}
		const { error } = await run(type, parameters, 'https://api.example.test');
		expect(urls.length).toBeGreaterThan(0);
		expect(error).toBeDefined();
		for (const url of urls) {
			for (const secret of SECRETS) expect(url).not.toContain(secret);
			expect(url).not.toMatch(
				/[?&](user_access_token|access_token|token|password|PHPSESSID|SessionID|apiToken)=/i,
			);
		}
		for (const secret of SECRETS) expect(JSON.stringify(error)).not.toContain(secret);
	});
});
