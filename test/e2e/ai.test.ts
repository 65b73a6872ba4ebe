/**
 * The AI pieces in a real n8n against the sandbox: n8n's own AI Agent with the Chat Model sub-node and
 * the Storage node as a tool (the sandbox's model answers with a scripted tool call, the agent's final
 * answer carries the tool's result), and a workflow with the AI node (streamed generate, chat with a
 * JSON schema) and the MCP node (public docs search, a private tool over the handshake, a docs resource).
 */
import { setModelListing } from '../sandbox/ai/models';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { createServiceCredential, createServiceCredentials } from './harness/credentials';
import { describeErrors, itemsOf, loadWorkflow, startN8n, type N8nInstance } from './harness/n8n';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let n8n: N8nInstance;
let credentials: Record<string, { id: string; name: string; type: string }>;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	n8n = await startN8n({ mode: 'regular' });
	credentials = await createServiceCredentials(n8n.client, sandbox, [
		'cloudStorageBearerApi',
		'cloudStorageTokenApi',
	]);
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

describe('AI in n8n', () => {
	it("passes n8n's credential test for the Bearer credential, and fails it for a wrong token", async () => {
		expect(await n8n.client.testCredential(credentials.cloudStorageBearerApi)).toMatchObject({
			status: 'OK',
		});
		const wrong = await createServiceCredential(n8n.client, 'cloudStorageBearerApi', sandbox, {
			name: 'Wrong bearer',
			data: { apiToken: 'not-the-token' },
		});
		expect(await n8n.client.testCredential(wrong)).toMatchObject({ status: 'Error' });
	});

	it("loads the Model list from the service's listing when it answers one, and offers free entry always", async () => {
		const ask = async (type: string) =>
			await n8n.client.request<Array<{ name: string; value: string }>>(
				'POST',
				'/rest/dynamic-node-parameters/options',
				{
					nodeTypeAndVersion: { name: `n8n-nodes-cloud-storage.${type}`, version: 1 },
					credentials: {
						cloudStorageBearerApi: {
							id: credentials.cloudStorageBearerApi.id,
							name: credentials.cloudStorageBearerApi.name,
						},
					},
					path: 'parameters.model',
					methodName: 'getModels',
					currentNodeParameters:
						type === 'cloudStorageAi' ? { resource: 'text', operation: 'generate' } : {},
				},
			);
		const listed = await ask('cloudStorageAi');
		expect(listed.map((option) => option.value)).toEqual([
			...['gpt-oss:20b', 'qwen3:8b', 'gemma3n:12b', 'phi4:14b', 'qwen2.5vl:27b', 'qwen3-vl:30b'],
			'custom',
		]);
		expect((await ask('cloudStorageAiChatModel')).map((option) => option.value)).toContain(
			'custom',
		);
		setModelListing(sandbox.store, false);
		try {
			// No listing is not an error: only free entry is offered.
			expect((await ask('cloudStorageAi')).map((option) => option.value)).toEqual(['custom']);
		} finally {
			setModelListing(sandbox.store, true);
			sandbox.requests.clear();
		}
	});

	it('shows a failing Model list in n8n as the error with its fix, not as a lone "Enter ID"', async () => {
		const wrong = await createServiceCredential(n8n.client, 'cloudStorageBearerApi', sandbox, {
			name: 'Wrong bearer for the model list',
			data: { apiToken: 'not-the-token' },
		});
		const refused = await n8n.client
			.request('POST', '/rest/dynamic-node-parameters/options', {
				nodeTypeAndVersion: { name: 'n8n-nodes-cloud-storage.cloudStorageAiChatModel', version: 1 },
				credentials: { cloudStorageBearerApi: { id: wrong.id, name: wrong.name } },
				path: 'parameters.model',
				methodName: 'getModels',
				currentNodeParameters: {},
			})
			.then(
				(options: unknown) => `listed: ${JSON.stringify(options)}`,
				(error: Error) => error.message,
			);
		// What n8n's editor shows in the list: the pack's cause, never the token.
		expect(refused).toMatch(
			/answered \d+: .*"message":"The AI API rejected the bearer token \(401\)"/,
		);
		expect(refused).not.toContain('not-the-token');
		sandbox.requests.clear();
	});

	it("runs n8n's AI Agent with the Chat Model and the Storage node as a tool", async () => {
		const workflow = await n8n.client.importWorkflow(loadWorkflow('ai-agent-storage-tool.json'), {
			credentials,
		});
		const execution = await n8n.client.runWorkflow(workflow.id);
		expect(describeErrors(execution)).toBe('');
		expect(execution.status).toBe('success');
		const [answer] = itemsOf(execution, 'AI Agent');
		// The tool's result (the ROOT folder of the demo account) made it into the agent's final answer.
		expect(String(answer.json.output)).toMatch(/^Tool \S+ returned: /);
		expect(String(answer.json.output)).toContain(DEMO_ACCOUNT.rootHash);
		const calls = sandbox.requests.list().filter((entry) => entry.api === 'ai');
		expect(calls.map((entry) => entry.status)).toEqual([200, 200]);
		expect(
			sandbox.requests
				.list()
				.some((entry) => entry.action === 'get_folder_info' && entry.status === 200),
		).toBe(true);
	});

	it('generates (streamed), chats with a JSON schema, and uses the MCP endpoint in both modes', async () => {
		const definition = loadWorkflow('ai-nodes.json');
		for (const node of definition.nodes)
			if (node.name === 'Search Docs') node.parameters.baseUrl = sandbox.baseUrl;
		const workflow = await n8n.client.importWorkflow(definition, { credentials });
		const execution = await n8n.client.runWorkflow(workflow.id);
		expect(describeErrors(execution)).toBe('');

		const [generated] = itemsOf(execution, 'Generate');
		expect(generated.json).toMatchObject({
			model: 'gpt-oss:20b',
			response: 'Echo: Write one line about folders',
			thinking: 'Thought (low) about: Write one line about folders',
			usage: { promptTokens: 7 },
		});
		expect(itemsOf(execution, 'Chat JSON')[0].json).toMatchObject({
			content: { summary: 'sample', score: 42 },
			thinking: '',
		});
		expect(itemsOf(execution, 'Search Docs').map((item) => item.json.uri)).toContain(
			'docs://ai-api',
		);
		expect(itemsOf(execution, 'Root Folder')[0].json).toMatchObject({
			tool: 'storage_get_root_folder',
			result: { hash: DEMO_ACCOUNT.rootHash },
		});
		expect(String(JSON.stringify(itemsOf(execution, 'Read Doc')[0].json))).toContain('# AI API');

		const mcp = sandbox.requests.list().filter((entry) => entry.api === 'mcp');
		expect(mcp.map((entry) => entry.action)).toEqual(
			expect.arrayContaining([
				'tools/call',
				'initialize',
				'notifications/initialized',
				'resources/read',
			]),
		);
		expect(
			mcp.every((entry) => entry.credentialsInUrl.length === 0 && !entry.url.includes('?')),
		).toBe(true);
	});
});
