import {
	BaseChatModel,
	getParametersJsonSchema,
	type ChatModelConfig,
	type FinishReason,
	type GenerateResult,
	type Message,
	type MessageContent,
	type StreamChunk,
	type TokenUsage,
} from '@n8n/ai-node-sdk';

import type { ThinkLevel } from '../shared/ai/models';
import { AnswerAccumulator, chatBody, type AiResult, type WireTool } from '../shared/ai/protocol';
import { newCallId, toWireMessages } from './messages';

export interface CloudChatConfig extends ChatModelConfig {
	think?: ThinkLevel;
	contextSize?: number;
	keepAlive?: string;
}

/** How the model reaches the API: supplied by the node, so this class stays free of n8n's request helpers. */
export interface ChatTransport {
	complete(body: Record<string, unknown>): Promise<AiResult>;
	lines(body: Record<string, unknown>): AsyncIterable<unknown>;
	/**
	 * Turns any failure of a call into what the host shows (for n8n: a node error with cause and fix), so an error
	 * raised while reading a stream reaches the agent as well worded as one raised by the request itself.
	 */
	failure(error: unknown): Error;
}

function usageOf(result: { promptTokens: number; completionTokens: number }): TokenUsage {
	return {
		promptTokens: result.promptTokens,
		completionTokens: result.completionTokens,
		totalTokens: result.promptTokens + result.completionTokens,
	};
}

function finishReason(result: AiResult): FinishReason {
	if (result.toolCalls.length) return 'tool-calls';
	return result.doneReason === 'length' ? 'length' : 'stop';
}

/** The hosted AI API as a chat model for n8n's AI Agent and chains, with thinking and tool calling. */
export class CloudStorageChatModel extends BaseChatModel<CloudChatConfig> {
	constructor(
		modelId: string,
		private readonly transport: ChatTransport,
		config: CloudChatConfig,
	) {
		super('cloud-storage-ai', modelId, config);
	}

	private body(messages: Message[], config?: CloudChatConfig): Record<string, unknown> {
		const merged = this.mergeConfig(config) as CloudChatConfig;
		const tools: WireTool[] = this.tools
			.filter((tool) => tool.type === 'function')
			.map((tool) => ({
				type: 'function',
				function: {
					name: tool.name,
					description: tool.description,
					parameters: getParametersJsonSchema(tool),
				},
			}));
		return chatBody({
			model: this.modelId,
			messages: toWireMessages(messages),
			tools,
			think: merged.think ?? 'low',
			keepAlive: merged.keepAlive,
			stream: false,
			options: {
				temperature: merged.temperature,
				topP: merged.topP,
				topK: merged.topK,
				maxTokens: merged.maxTokens,
				contextSize: merged.contextSize,
				seed: merged.seed,
				stop: merged.stopSequences,
			},
		});
	}

	async generate(messages: Message[], config?: CloudChatConfig): Promise<GenerateResult> {
		try {
			return this.generated(await this.transport.complete(this.body(messages, config)));
		} catch (error) {
			throw this.transport.failure(error);
		}
	}

	private generated(result: AiResult): GenerateResult {
		const content: MessageContent[] = [];
		if (result.thinking) content.push({ type: 'reasoning', text: result.thinking });
		for (const call of result.toolCalls) {
			content.push({
				type: 'tool-call',
				toolCallId: call.id ?? newCallId(),
				toolName: call.function.name,
				input: JSON.stringify(call.function.arguments),
			});
		}
		content.push({ type: 'text', text: result.text });
		return {
			finishReason: finishReason(result),
			usage: usageOf(result),
			message: { role: 'assistant', content },
			providerMetadata: {
				model: result.model,
				done_reason: result.doneReason,
				durations: result.durations,
			},
		};
	}

	async *stream(messages: Message[], config?: CloudChatConfig): AsyncIterable<StreamChunk> {
		try {
			yield* this.streamed(messages, config);
		} catch (error) {
			throw this.transport.failure(error);
		}
	}

	private async *streamed(
		messages: Message[],
		config?: CloudChatConfig,
	): AsyncIterable<StreamChunk> {
		const accumulator = new AnswerAccumulator();
		for await (const line of this.transport.lines({
			...this.body(messages, config),
			stream: true,
		})) {
			const added = accumulator.add(line);
			if (added.thinking) yield { type: 'reasoning-delta', delta: added.thinking };
			if (added.text) yield { type: 'text-delta', delta: added.text };
			for (const call of added.toolCalls) {
				yield {
					type: 'tool-call-delta',
					id: call.id ?? newCallId(),
					name: call.function.name,
					argumentsDelta: JSON.stringify(call.function.arguments),
				};
			}
		}
		// Throws when the stream ended before its final line: a cut-off answer must not reach the agent.
		const result = accumulator.finish();
		yield { type: 'finish', finishReason: finishReason(result), usage: usageOf(result) };
	}
}
