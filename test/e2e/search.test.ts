/**
 * The Search node in a real n8n against the sandbox (workflows/search.json): the simple and full styles,
 * advanced criteria, a folder without its subfolders, Return All over 2,500 results (each exactly once),
 * bad input refused before any request; then the same workflow after every session expired (n8n renews
 * the credential's session and repeats the search); and the node as an AI Agent tool
 * (workflows/search-agent-tool.json, the sandbox's model asking for a search).
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { createFolder, uploadOk } from '../unit/sandbox/helpers';
import { createServiceCredential } from './harness/credentials';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	startN8n,
	type CredentialRef,
	type ExecutionSummary,
	type N8nInstance,
} from './harness/n8n';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let n8n: N8nInstance;
let credentials: Record<string, CredentialRef>;
let invoicesHash: string;
let pagedHashes: string[];

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	const invoices = await createFolder(sandbox, { folder_name: 'Invoices' });
	invoicesHash = invoices.folder_hash;
	const march = await createFolder(sandbox, {
		folder_name: 'March',
		parent_folder_hash: invoicesHash,
	});
	await uploadOk(sandbox, invoicesHash, 'invoice january.pdf', '%PDF-1.7 january');
	await uploadOk(sandbox, march.folder_hash, 'invoice march.pdf', '%PDF-1.7 march');
	await uploadOk(sandbox, march.folder_hash, 'invoice scan.png', 'png');
	const demo = sandbox.store.accountByLogin(DEMO_ACCOUNT.username)!;
	pagedHashes = sandbox.store
		.bulkCreate(demo, {
			folders: 5,
			filesPerFolder: 500,
			folderPrefix: 'Paged ',
			filePrefix: 'pagedoc ',
		})
		.files.map((file) => file.hash);

	n8n = await startN8n({ mode: 'regular' });
	credentials = {
		cloudStorageTokenApi: await createServiceCredential(
			n8n.client,
			'cloudStorageTokenApi',
			sandbox,
		),
		cloudStorageBearerApi: await createServiceCredential(
			n8n.client,
			'cloudStorageBearerApi',
			sandbox,
		),
	};
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const names = (execution: ExecutionSummary, node: string) =>
	itemsOf(execution, node).map((item) => item.json.name);
const searchLog = () =>
	sandbox.requests.list().filter((entry) => entry.path === '/ajax/search.php');

async function runSearchWorkflow(): Promise<ExecutionSummary> {
	const definition = loadWorkflow('search.json');
	for (const node of definition.nodes)
		if (node.name === 'In Folder') node.parameters.folder.value = invoicesHash;
	const workflow = await n8n.client.importWorkflow(definition, { credentials });
	return await n8n.client.runWorkflow(workflow.id);
}

function expectSearchResults(execution: ExecutionSummary) {
	expect(describeErrors(execution)).toBe('');
	expect(names(execution, 'Search Invoices')).toEqual([
		'invoice january.pdf',
		'invoice march.pdf',
		'invoice scan.png',
		'Invoices',
	]);
	const [first] = itemsOf(execution, 'Search Invoices');
	expect(first.json).toMatchObject({
		type: 'file',
		path: '/Invoices/invoice january.pdf',
		parent_hash: invoicesHash,
		access_rights: { allow_view: true },
		link: `${sandbox.webUrl}/f/${first.json.hash}`,
	});
	expect(names(execution, 'Images')).toEqual(['invoice scan.png']);
	expect(names(execution, 'In Folder')).toEqual(['invoice january.pdf']);
	expect(names(execution, 'Advanced').sort()).toEqual(['invoice january.pdf', 'invoice march.pdf']);
	const paged = itemsOf(execution, 'All Paged').map((item) => String(item.json.hash));
	expect(paged).toHaveLength(2500);
	expect(paged.slice().sort()).toEqual(pagedHashes.slice().sort());
}

describe('Search in n8n', () => {
	it('runs both styles, pages over 2,500 results once each, and refuses bad input before any request', async () => {
		sandbox.requests.clear();
		const execution = await runSearchWorkflow();
		expectSearchResults(execution);
		expect(itemsOf(execution, 'Short Query')[0].json).toMatchObject({
			error: 'Query "x" is too short',
		});
		expect(itemsOf(execution, 'No Section')[0].json).toMatchObject({
			error: 'Choose at least one section to search',
		});
		expect(itemsOf(execution, 'Bad JSON')[0].json).toMatchObject({
			error: 'The search JSON is not valid JSON',
		});
		// 1 + 1 + 1 + 1 requests, 3 pages of 1,000 for the 2,500 results, none for the three bad inputs.
		expect(searchLog().map((entry) => entry.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
		expect(
			searchLog().every(
				(entry) => entry.authMethod?.startsWith('session') && entry.credentialsInUrl.length === 0,
			),
		).toBe(true);
		expect(JSON.stringify(execution)).not.toContain(DEMO_ACCOUNT.token);
	});

	it('renews an expired session once and repeats the search', async () => {
		sandbox.sessions.expireAll();
		sandbox.requests.clear();
		const execution = await runSearchWorkflow();
		expectSearchResults(execution);
		const log = sandbox.requests.list().map((entry) => `${entry.path} ${entry.status}`);
		expect(log.slice(0, 3)).toEqual([
			'/ajax/search.php 401',
			'/api/authenticate_user.php 200',
			'/ajax/search.php 200',
		]);
		expect(searchLog().filter((entry) => entry.status === 401)).toHaveLength(1);
	});

	it("answers n8n's AI Agent as a tool", async () => {
		const workflow = await n8n.client.importWorkflow(loadWorkflow('search-agent-tool.json'), {
			credentials,
		});
		const execution = await n8n.client.runWorkflow(workflow.id);
		expect(describeErrors(execution)).toBe('');
		const [answer] = itemsOf(execution, 'AI Agent');
		expect(String(answer.json.output)).toMatch(/^Tool \S+ returned: /);
		expect(String(answer.json.output)).toContain('invoice march.pdf');
		expect(String(answer.json.output)).not.toContain('invoice scan.png');
	});
});
