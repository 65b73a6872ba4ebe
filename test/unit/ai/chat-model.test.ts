import type { Message, StreamChunk } from '@n8n/ai-node-sdk';

import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CloudStorageChatModel, type ChatTransport } from '../../../nodes/AiChatModel/model';
import { toNodeError } from '../../../nodes/shared/node/node-error';
import { toWireMessages } from '../../../nodes/AiChatModel/messages';
import { AnswerAccumulator, type AiResult } from '../../../nodes/shared/ai/protocol';

function transport(lines: unknown[]): ChatTransport & { bodies: Array<Record<string, unknown>> } {
	const bodies: Array<Record<string, unknown>> = [];
	return {
		bodies,
		async complete(body) {
			bodies.push(body);
			const accumulator = new AnswerAccumulator();
			for (const line of lines) accumulator.add(line);
			return accumulator.finish() as AiResult;
		},
		async *lines(body) {
			bodies.push(body);
			yield* lines;
		},
		failure: (error) => error as Error,
	};
}

const done = {
	model: 'qwen3:8b',
	done: true,
	done_reason: 'stop',
	prompt_eval_count: 10,
	eval_count: 3,
};
const tool = {
	type: 'function' as const,
	name: 'storage_get',
	description: 'Get a folder',
	inputSchema: { type: 'object' as const, properties: { hash: { type: 'string' as const } } },
};
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

describe('Chat Model sub-node model', () => {
	it('sends tools and think, and returns tool calls with ids, reasoning and usage', async () => {
		const fake = transport([
			{
				...done,
				message: {
					role: 'assistant',
					content: '',
					thinking: 'Need a tool',
					tool_calls: [{ function: { name: 'storage_get', arguments: { hash: 'ROOT' } } }],
				},
			},
		]);
		const model = new CloudStorageChatModel('qwen3:8b', fake, {
			think: 'low',
			temperature: 0.1,
		}).withTools([tool]);
		const result = await model.generate([user('List my root')]);
		expect(fake.bodies[0]).toMatchObject({
			model: 'qwen3:8b',
			stream: false,
			think: 'low',
			options: { temperature: 0.1 },
			tools: [
				{
					type: 'function',
					function: {
						name: 'storage_get',
						description: 'Get a folder',
						parameters: { type: 'object' },
					},
				},
			],
		});
		expect(result.finishReason).toBe('tool-calls');
		expect(result.usage).toEqual({ promptTokens: 10, completionTokens: 3, totalTokens: 13 });
		const call = result.message.content.find((part) => part.type === 'tool-call');
		expect(call).toMatchObject({
			toolName: 'storage_get',
			input: '{"hash":"ROOT"}',
			toolCallId: expect.stringMatching(/^call_/),
		});
		expect(result.message.content[0]).toEqual({ type: 'reasoning', text: 'Need a tool' });
	});

	it('streams deltas and ends with usage; a cut-off stream throws', async () => {
		const model = new CloudStorageChatModel(
			'qwen3:8b',
			transport([
				{ message: { role: 'assistant', content: '', thinking: 'hm' }, done: false },
				{ message: { role: 'assistant', content: 'Hi' }, done: false },
				{ ...done, message: { role: 'assistant', content: '' } },
			]),
			{},
		);
		const chunks: StreamChunk[] = [];
		for await (const chunk of model.stream([user('x')])) chunks.push(chunk);
		expect(chunks.map((chunk) => chunk.type)).toEqual(['reasoning-delta', 'text-delta', 'finish']);

		const cut = new CloudStorageChatModel(
			'qwen3:8b',
			transport([{ message: { role: 'assistant', content: 'Hi' }, done: false }]),
			{},
		);
		const consume = async () => {
			for await (const _chunk of cut.stream([user('x')])) void _chunk;
		};
		await expect(consume()).rejects.toThrow(/ended before the model finished/);
	});

	it("converts a conversation with tool calls and results into the API's messages", () => {
		const wire = toWireMessages([
			{ role: 'system', content: [{ type: 'text', text: 'Be helpful' }] },
			user('Root?'),
			{
				role: 'assistant',
				content: [
					{
						type: 'tool-call',
						toolCallId: 'c1',
						toolName: 'storage_get',
						input: '{"hash":"ROOT"}',
					},
				],
			},
			{
				role: 'tool',
				content: [{ type: 'tool-result', toolCallId: 'c1', result: { name: 'ROOT' } }],
			},
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'Look' },
					{ type: 'file', mediaType: 'image/png', data: 'data:image/png;base64,iVBORw0K' },
				],
			},
		]);
		expect(wire).toEqual([
			{ role: 'system', content: 'Be helpful' },
			{ role: 'user', content: 'Root?' },
			{
				role: 'assistant',
				content: '',
				tool_calls: [{ function: { name: 'storage_get', arguments: { hash: 'ROOT' } } }],
			},
			{ role: 'tool', content: '{"name":"ROOT"}', tool_name: 'storage_get' },
			{ role: 'user', content: 'Look', images: ['iVBORw0K'] },
		]);
	});

	describe('failures raised inside the model reach the agent as node errors with cause and fix', () => {
		const node = {
			name: 'Cloud Storage AI Chat Model',
			type: 'n8n-nodes-cloud-storage.cloudStorageAiChatModel',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		} as INode;
		const converting = (lines: unknown[]): ChatTransport => ({
			...transport(lines),
			failure: (error) => toNodeError(node, error, 2),
		});
		const consume = async (model: CloudStorageChatModel) => {
			for await (const _chunk of model.stream([user('x')])) void _chunk;
		};
		const nodeErrorOf = async (promise: Promise<unknown>): Promise<NodeApiError> => {
			const error = await promise.then(
				() => undefined,
				(thrown: unknown) => thrown,
			);
			expect(error).toBeInstanceOf(NodeApiError);
			return error as NodeApiError;
		};

		it('an error line in the middle of a stream', async () => {
			const model = new CloudStorageChatModel(
				'qwen3:8b',
				converting([
					{ message: { role: 'assistant', content: 'Hi' }, done: false },
					{ error: 'model "qwen3:8b" not found' },
				]),
				{},
			);
			const error = await nodeErrorOf(consume(model));
			expect(error.message).toMatch(/The AI API reported an error: model "qwen3:8b" not found/);
			expect(error.description).toMatch(/Pick one of the offered models/);
			expect(error.context.itemIndex).toBe(2);
		});

		it('a stream cut off before its final line', async () => {
			const model = new CloudStorageChatModel(
				'qwen3:8b',
				converting([{ message: { role: 'assistant', content: 'Hi' }, done: false }]),
				{},
			);
			const error = await nodeErrorOf(consume(model));
			expect(error.message).toMatch(/ended before the model finished/);
			expect(error.description).toBeTruthy();
		});

		it('an error object in a complete (non-streamed) answer', async () => {
			const model = new CloudStorageChatModel(
				'qwen3:8b',
				converting([{ error: 'this model does not support tools' }]),
				{},
			);
			const error = await nodeErrorOf(model.generate([user('x')]));
			expect(error.message).toMatch(/does not support tools/);
			expect(error.description).toMatch(/Choose a model that supports this/);
		});
	});
});
