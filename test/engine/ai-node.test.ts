/**
 * The AI node through n8n's engine against the sandbox's AI API: generate and chat, streamed and not,
 * thinking, images, JSON output, and the failure paths (a stream cut short or broken off, an error line,
 * an unknown model, a feature the model lacks).
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { chain, PACKAGE_NAME, runWorkflow, type NodeSpec } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

const GIF = 'GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;';
const credentials = () => ({
	cloudStorageBearerApi: {
		userId: String(DEMO_ACCOUNT.id),
		apiToken: DEMO_ACCOUNT.token as string,
		baseUrl: sandbox.baseUrl,
		aiUrl: sandbox.baseUrl,
	},
});

async function runAi(
	parameters: Record<string, unknown>,
	options: { image?: boolean; apiToken?: string } = {},
) {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
	];
	if (options.image) {
		nodes.push({
			name: 'Image',
			type: 'engine-test.binaryFixture',
			parameters: { content: GIF, fileName: 'pixel.gif', mimeType: 'image/gif' },
		});
	}
	nodes.push({
		name: 'AI',
		type: `${PACKAGE_NAME}.cloudStorageAi`,
		parameters: { resource: 'text', ...parameters } as never,
	});
	const creds = credentials();
	if (options.apiToken) creds.cloudStorageBearerApi.apiToken = options.apiToken;
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: creds as never },
	);
	return { ...result, out: result.nodeOutput('AI') };
}

describe.each([false, true])('AI node against the sandbox (stream %s)', (stream) => {
	it('generates with a system prompt and thinking', async () => {
		const { out, error } = await runAi({
			operation: 'generate',
			model: 'gpt-oss:20b',
			prompt: 'Name three colours',
			system: 'Be short',
			think: 'high',
			options: { stream },
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			model: 'gpt-oss:20b',
			response: 'Echo: Name three colours',
			thinking: 'Thought (high) about: Name three colours',
			doneReason: 'stop',
			usage: { promptTokens: 5, completionTokens: 10, totalTokens: 15 },
		});
		expect((out[0].json.durations as Record<string, number>).totalMs).toBeGreaterThan(0);
	});

	it('chats about an image with a multimodal model and returns JSON', async () => {
		const { out, error } = await runAi(
			{
				operation: 'chat',
				model: 'qwen3-vl:30b',
				think: 'off',
				outputFormat: 'json',
				messages: {
					values: [{ role: 'user', content: 'What is in the picture?', images: 'data' }],
				},
				options: { stream },
			},
			{ image: true },
		);
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			message: { role: 'assistant' },
			content: { answer: 'Echo: What is in the picture? [1 image(s): image]' },
			thinking: '',
		});
	});

	it("reports an unknown model with the service's words", async () => {
		const { error } = await runAi({
			operation: 'generate',
			model: 'custom',
			customModel: 'mystery:7b',
			prompt: 'x',
			options: { stream },
		});
		expect(error?.message).toBe('Model not found (404)');
		expect(error?.description).toContain('model "mystery:7b" not found');
	});
});

describe('AI node failure paths', () => {
	it('fails a stream that ends without its final line, and one that breaks off', async () => {
		for (const prompt of ['one two three four [cut]', 'one two three four [cut] [drop]']) {
			const { error, out } = await runAi({
				operation: 'generate',
				model: 'qwen3:8b',
				prompt,
				options: { stream: true },
			});
			expect(out).toEqual([]);
			expect(error?.message).toMatch(/stream (ended|broke off) before the model finished/);
		}
	});

	it('reports a model failure inside a stream', async () => {
		const streamed = await runAi({
			operation: 'generate',
			model: 'qwen3:8b',
			prompt: 'a b c d [error]',
			options: { stream: true },
		});
		expect(streamed.error?.message).toBe(
			'The AI API reported an error: the model failed while answering (scripted [error])',
		);
	});

	it('lets the service refuse thinking on a model without it (no capability is assumed from an id), and passes with Think off', async () => {
		sandbox.requests.clear();
		const refused = await runAi({ operation: 'generate', model: 'phi4:14b', prompt: 'x' });
		expect(refused.error?.message).toMatch(/rejected the request \(400\)/);
		expect(refused.error?.description).toMatch(/does not support thinking/);
		const { out } = await runAi({
			operation: 'generate',
			model: 'phi4:14b',
			prompt: 'x',
			think: 'off',
		});
		expect(out[0].json.response).toBe('Echo: x');
	});

	it('explains a rejected token', async () => {
		const { error } = await runAi(
			{ operation: 'generate', model: 'qwen3:8b', prompt: 'x' },
			{ apiToken: 'wrong' },
		);
		expect(error?.message).toBe('The AI API rejected the bearer token (401)');
		expect(JSON.stringify(error)).not.toContain(DEMO_ACCOUNT.token);
	});
});
