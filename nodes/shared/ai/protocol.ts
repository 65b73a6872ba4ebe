/**
 * The AI API's wire format (the generate and chat interface of the common open-source local model
 * server): request bodies, answers, and the final result assembled from a streamed answer. No n8n here.
 */
import { PackError } from '../errors/pack-error';
import type { ThinkLevel } from './models';
import { STREAM_BROKE_HINT } from './ndjson';

export interface ModelOptions {
	temperature?: number;
	topP?: number;
	topK?: number;
	maxTokens?: number;
	contextSize?: number;
	seed?: number;
	stop?: string[];
}

/** `json` asks for any JSON; an object is a JSON schema the answer must follow. */
export type AnswerFormat = 'json' | Record<string, unknown>;

export interface CommonInput {
	model: string;
	think: ThinkLevel;
	options: ModelOptions;
	format?: AnswerFormat;
	keepAlive?: string;
	stream: boolean;
}

export interface GenerateInput extends CommonInput {
	prompt: string;
	system?: string;
	/** Base64, no data: prefix. */
	images?: string[];
}

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface WireToolCall {
	id?: string;
	function: { name: string; arguments: Record<string, unknown> };
}

export interface WireTool {
	type: 'function';
	function: { name: string; description?: string; parameters: unknown };
}

export interface ChatMessage {
	role: ChatRole;
	content: string;
	images?: string[];
	thinking?: string;
	tool_calls?: WireToolCall[];
	tool_name?: string;
}

export interface ChatInput extends CommonInput {
	messages: ChatMessage[];
	tools?: WireTool[];
}

export const CHAT_ROLES: readonly ChatRole[] = ['system', 'user', 'assistant', 'tool'];

export interface AiResult {
	model: string;
	role: string;
	text: string;
	thinking: string;
	toolCalls: WireToolCall[];
	doneReason: string;
	promptTokens: number;
	completionTokens: number;
	/** Milliseconds, converted from the service's nanoseconds. */
	durations: { totalMs: number; loadMs: number; promptEvalMs: number; evalMs: number };
}

/** The service answered with an error object (inside a stream, or in a 200 body). */
export class AiServiceError extends PackError {
	constructor(serviceText: string) {
		super(`The AI API reported an error: ${serviceText.slice(0, 300)}`, {
			description: describeServiceError(serviceText),
		});
	}
}

function describeServiceError(text: string): string {
	if (/not found/i.test(text)) return 'Pick one of the offered models or check the model id.';
	if (/does not support/i.test(text)) {
		return 'Choose a model that supports this (see the model list), or switch the feature off (tools, thinking, images).';
	}
	return 'Check the model and the options, then run the item again.';
}

/** The answer stream ended (or broke off) before the final `done` line: a partial answer is not an answer. */
export class AiStreamCutError extends PackError {
	constructor(message: string) {
		super(message, { description: STREAM_BROKE_HINT });
	}
}

function wireOptions(options: ModelOptions): Record<string, unknown> | undefined {
	const wire: Record<string, unknown> = {
		temperature: options.temperature,
		top_p: options.topP,
		top_k: options.topK,
		num_predict: options.maxTokens,
		num_ctx: options.contextSize,
		seed: options.seed,
		stop: options.stop?.length ? options.stop : undefined,
	};
	for (const key of Object.keys(wire)) if (wire[key] === undefined) delete wire[key];
	return Object.keys(wire).length ? wire : undefined;
}

/** `off` is sent as `false` so that models which think by default stop doing so. */
export function thinkValue(level: ThinkLevel): false | Exclude<ThinkLevel, 'off'> {
	return level === 'off' ? false : level;
}

function common(input: CommonInput): Record<string, unknown> {
	const body: Record<string, unknown> = {
		model: input.model,
		stream: input.stream,
		think: thinkValue(input.think),
	};
	const options = wireOptions(input.options);
	if (options) body.options = options;
	if (input.format !== undefined) body.format = input.format;
	if (input.keepAlive) body.keep_alive = input.keepAlive;
	return body;
}

export function generateBody(input: GenerateInput): Record<string, unknown> {
	const body = { ...common(input), prompt: input.prompt };
	if (input.system) Object.assign(body, { system: input.system });
	if (input.images?.length) Object.assign(body, { images: input.images });
	return body;
}

export function chatBody(input: ChatInput): Record<string, unknown> {
	const body = { ...common(input), messages: input.messages };
	if (input.tools?.length) Object.assign(body, { tools: input.tools });
	return body;
}

const NS_PER_MS = 1_000_000;

function number(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function asRecord(value: unknown): Record<string, unknown> {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};
}

function errorText(value: Record<string, unknown>): string | undefined {
	const error = value.error;
	if (typeof error === 'string') return error;
	const message = asRecord(error).message;
	return typeof message === 'string'
		? message
		: error === undefined
			? undefined
			: JSON.stringify(error);
}

function toolCallsOf(message: Record<string, unknown>): WireToolCall[] {
	const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
	return calls.map((call) => {
		const fn = asRecord(asRecord(call).function);
		let args: unknown = fn.arguments;
		if (typeof args === 'string') {
			try {
				args = JSON.parse(args);
			} catch {
				args = { input: args };
			}
		}
		const id = asRecord(call).id;
		return {
			...(typeof id === 'string' ? { id } : {}),
			function: { name: String(fn.name ?? ''), arguments: asRecord(args) },
		};
	});
}

/** Collects the pieces of a streamed answer; `finish` refuses to return anything unless the final line came. */
export class AnswerAccumulator {
	private text = '';
	private thinking = '';
	private readonly toolCalls: WireToolCall[] = [];
	private final: Record<string, unknown> | undefined;
	private role = 'assistant';

	/** Adds one line; returns the text and thinking it added, for callers that pass deltas on. */
	add(line: unknown): { text: string; thinking: string; toolCalls: WireToolCall[] } {
		const chunk = asRecord(line);
		const error = errorText(chunk);
		if (error !== undefined) throw new AiServiceError(error);
		const message = asRecord(chunk.message);
		const text =
			typeof chunk.response === 'string'
				? chunk.response
				: typeof message.content === 'string'
					? message.content
					: '';
		const thinking =
			typeof chunk.thinking === 'string'
				? chunk.thinking
				: typeof message.thinking === 'string'
					? message.thinking
					: '';
		const toolCalls = toolCallsOf(message);
		if (typeof message.role === 'string') this.role = message.role;
		this.text += text;
		this.thinking += thinking;
		this.toolCalls.push(...toolCalls);
		if (chunk.done === true) this.final = chunk;
		return { text, thinking, toolCalls };
	}

	get done(): boolean {
		return this.final !== undefined;
	}

	finish(): AiResult {
		if (!this.final) {
			throw new AiStreamCutError(
				'The answer stream ended before the model finished (no final "done" line); the partial answer was discarded',
			);
		}
		return resultOf(this.final, this.role, this.text, this.thinking, this.toolCalls);
	}
}

function resultOf(
	final: Record<string, unknown>,
	role: string,
	text: string,
	thinking: string,
	toolCalls: WireToolCall[],
): AiResult {
	return {
		model: String(final.model ?? ''),
		role,
		text,
		thinking,
		toolCalls,
		doneReason: String(final.done_reason ?? (final.done ? 'stop' : '')),
		promptTokens: number(final.prompt_eval_count),
		completionTokens: number(final.eval_count),
		durations: {
			totalMs: number(final.total_duration) / NS_PER_MS,
			loadMs: number(final.load_duration) / NS_PER_MS,
			promptEvalMs: number(final.prompt_eval_duration) / NS_PER_MS,
			evalMs: number(final.eval_duration) / NS_PER_MS,
		},
	};
}

/**
 * A non-streamed answer. `response` may already be an object when a format was requested, so it is
 * turned back into text here and parsed once by the caller that asked for JSON.
 */
export function resultOfAnswer(body: unknown): AiResult {
	const answer = asRecord(body);
	const error = errorText(answer);
	if (error !== undefined) throw new AiServiceError(error);
	const message = asRecord(answer.message);
	const raw = answer.response ?? message.content ?? '';
	const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
	const thinking = String(answer.thinking ?? message.thinking ?? '');
	return resultOf(
		answer,
		String(message.role ?? 'assistant'),
		text,
		thinking,
		toolCallsOf(message),
	);
}

/** Reads a streamed answer line by line (see `readNdjson`) to its final line. */
export async function resultOfStream(lines: AsyncIterable<unknown>): Promise<AiResult> {
	const accumulator = new AnswerAccumulator();
	for await (const line of lines) accumulator.add(line);
	return accumulator.finish();
}
