/**
 * No secret leaks out of a real n8n run: workflows of every node run against the sandbox and Radicale with
 * known secrets (access token, password, bearer token, DAV password, the session ids the sandbox issued),
 * then everything the runs produced is scanned: the sandbox's request log (no credential or key in any query
 * string), n8n's log file and the execution data (outputs, error messages and descriptions).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { startRadicale, RADICALE_USER, type Radicale } from '../dav/radicale';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { createServiceCredentials } from './harness/credentials';
import {
	itemsOf,
	loadWorkflow,
	startN8n,
	type CredentialRef,
	type ExecutionSummary,
	type N8nInstance,
} from './harness/n8n';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let radicale: Radicale;
let n8n: N8nInstance;
let credentials: Record<string, CredentialRef>;
let calendar: string;
let book: string;
const executions: ExecutionSummary[] = [];

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	radicale = await startRadicale();
	calendar = await radicale.mkcalendar('work', { displayName: 'Work' });
	book = await radicale.mkaddressbook('contacts', { displayName: 'Contacts' });
	n8n = await startN8n({ mode: 'regular' });
	credentials = {
		...(await createServiceCredentials(n8n.client, sandbox, [
			'cloudStorageTokenApi',
			'cloudStoragePasswordApi',
			'cloudStorageBearerApi',
		])),
		cloudStorageDavApi: await n8n.client.createCredential('cloudStorageDavApi', 'DAV', {
			davUrl: radicale.url,
			username: RADICALE_USER.username,
			password: RADICALE_USER.password,
		}),
	};
});
afterAll(async () => {
	await n8n?.stop();
	await radicale?.stop();
	await sandbox?.close();
});

async function run(definition: Record<string, any>) {
	const workflow = await n8n.client.importWorkflow(definition, { credentials });
	const execution = await n8n.client.runWorkflow(workflow.id);
	executions.push(execution);
	return execution;
}

const FOREIGN_EVENT =
	'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Other//EN\r\nBEGIN:VEVENT\r\nUID:sec-1\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300110T100000Z\r\nDTEND:20300110T110000Z\r\nSUMMARY:S\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
const FOREIGN_CONTACT = 'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:sec-2\r\nFN:Sec\r\nEND:VCARD\r\n';

const PASSWORD = { cloudStoragePasswordApi: { id: '', name: 'Password' } };

/** Storage with the password credential, and a failing item whose error must not echo the secret. */
const passwordWorkflow = {
	name: 'Password credential',
	nodes: [
		{
			id: 'a1',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'a2',
			name: 'List Root',
			type: 'n8n-nodes-cloud-storage.cloudStorage',
			typeVersion: 1,
			position: [220, 0],
			parameters: { authentication: 'passwordApi', resource: 'folder', operation: 'listRoot' },
			credentials: PASSWORD,
		},
		{
			id: 'a3',
			name: 'Missing File',
			type: 'n8n-nodes-cloud-storage.cloudStorage',
			typeVersion: 1,
			position: [440, 0],
			onError: 'continueRegularOutput',
			credentials: PASSWORD,
			parameters: {
				authentication: 'passwordApi',
				resource: 'file',
				operation: 'get',
				file: { __rl: true, mode: 'id', value: 'NoSuchFile' },
			},
		},
	],
	connections: {
		Start: { main: [[{ node: 'List Root', type: 'main', index: 0 }]] },
		'List Root': { main: [[{ node: 'Missing File', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

it('runs workflows of every node with known secrets', async () => {
	await radicale.send('PUT', `${calendar}foreign.ics`, {
		body: FOREIGN_EVENT,
		headers: { 'content-type': 'text/calendar' },
	});
	await radicale.send('PUT', `${book}foreign.vcf`, {
		body: FOREIGN_CONTACT,
		headers: { 'content-type': 'text/vcard' },
	});
	const dav = loadWorkflow('dav-roundtrip.json');
	for (const node of dav.nodes) {
		if (String(node.parameters.eventUrl).startsWith('REPLACE_ME'))
			node.parameters.eventUrl = `${calendar}foreign.ics`;
		if (String(node.parameters.contactUrl).startsWith('REPLACE_ME'))
			node.parameters.contactUrl = `${book}foreign.vcf`;
	}
	const ai = loadWorkflow('ai-nodes.json');
	for (const node of ai.nodes)
		if (node.name === 'Search Docs') node.parameters.baseUrl = sandbox.baseUrl;
	const search = loadWorkflow('search.json');
	for (const node of search.nodes)
		if (node.name === 'In Folder') node.parameters.folder.value = DEMO_ACCOUNT.rootHash;

	for (const definition of [
		loadWorkflow('storage-operations.json'),
		passwordWorkflow,
		loadWorkflow('dms-task-roundtrip.json'),
		loadWorkflow('dms-input-errors.json'),
		search,
		ai,
		dav,
	]) {
		await run(definition);
	}
	// The runs did real work (a scan of nothing would prove nothing).
	expect(itemsOf(executions[0], 'Upload')).toHaveLength(1);
	expect(itemsOf(executions[1], 'Missing File')[0].json.error).toMatch(
		/\(404\)|not found|refused/i,
	);
	expect(sandbox.requests.list().length).toBeGreaterThan(50);
});

it('leaves no secret in any URL, log line or execution data', () => {
	const sessionIds = [
		...(sandbox.sessions as unknown as { sessions: Map<string, unknown> }).sessions.keys(),
	];
	expect(sessionIds.length).toBeGreaterThan(0);
	const basic = (user: string, password: string) =>
		Buffer.from(`${user}:${password}`).toString('base64');
	const secrets = [
		DEMO_ACCOUNT.token,
		DEMO_ACCOUNT.password,
		RADICALE_USER.password,
		basic(DEMO_ACCOUNT.username, DEMO_ACCOUNT.password),
		basic(RADICALE_USER.username, RADICALE_USER.password),
		...sessionIds,
	];

	const log = sandbox.requests.list();
	// Capability keys appear in a query string only where the documents place them there; credentials never do.
	const documentedQueryKeys: Record<string, string[]> = {
		'/save_file.php': ['key'],
		'/api/get_upload_tree.php': ['DeleteKey'],
		'/api/get_file_info.php': ['del_key'],
		'/api/get_ids_and_keys_from_paths.php': ['add_key'],
	};
	const misplaced = log.filter(
		(entry) =>
			entry.credentialsInUrl.length > 0 ||
			entry.keysInUrl.some((name) => !(documentedQueryKeys[entry.path] ?? []).includes(name)),
	);
	expect(misplaced.map((entry) => `${entry.method} ${entry.url}`)).toEqual([]);
	const dmsAndMcp = log.filter(
		(entry) =>
			entry.api === 'dms' ||
			entry.api === 'mcp' ||
			/^\/api(_dvs)?\/mcp|^\/api_dvs\//.test(entry.path),
	);
	expect(dmsAndMcp.length).toBeGreaterThan(0);
	expect(dmsAndMcp.filter((entry) => entry.url.includes('?'))).toEqual([]);

	const produced: Array<[string, string]> = [
		['n8n-main.log', readFileSync(join(n8n.userFolder, 'n8n-main.log'), 'utf8')],
		...executions.map((execution, index): [string, string] => [
			`execution ${index + 1}`,
			JSON.stringify(execution),
		]),
	];
	expect(produced[0][1].length).toBeGreaterThan(0);
	expect(executions.every((execution) => Object.keys(execution.nodes).length > 1)).toBe(true);
	const leaks = produced.flatMap(([where, text]) =>
		secrets
			.filter((secret) => text.includes(secret))
			.map((secret) => `${where}: ${secret.slice(0, 4)}…`),
	);
	expect(leaks).toEqual([]);
});
