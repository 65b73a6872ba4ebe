/**
 * Between the AI node SDK's generic messages and the AI API's chat messages. The API's tool calls carry
 * no ids of their own, so ids are made here and tool results are matched back to the tool's name.
 */
import type { Message, MessageContent } from '@n8n/ai-node-sdk';

import type { ChatMessage, WireToolCall } from '../shared/ai/protocol';

function textOf(content: MessageContent[]): string {
	return content
		.filter((part): part is Extract<MessageContent, { type: 'text' }> => part.type === 'text')
		.map((part) => part.text)
		.join('\n');
}

function imagesOf(content: MessageContent[]): string[] {
	const images: string[] = [];
	for (const part of content) {
		if (part.type !== 'file' || (part.mediaType && !part.mediaType.startsWith('image/'))) continue;
		const data = part.data;
		images.push(
			typeof data === 'string'
				? data.replace(/^data:[^;,]*;base64,/, '')
				: Buffer.from(data).toString('base64'),
		);
	}
	return images;
}

function parseArguments(input: string): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(input || '{}');
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
			? (parsed as Record<string, unknown>)
			: { input: parsed };
	} catch {
		return { input };
	}
}

export function toWireMessages(messages: Message[]): ChatMessage[] {
	const toolNames = new Map<string, string>();
	const wire: ChatMessage[] = [];
	for (const message of messages) {
		if (message.role === 'tool') {
			for (const part of message.content) {
				if (part.type !== 'tool-result') continue;
				const content = typeof part.result === 'string' ? part.result : JSON.stringify(part.result);
				wire.push({ role: 'tool', content, tool_name: toolNames.get(part.toolCallId) ?? '' });
			}
			continue;
		}
		const entry: ChatMessage = { role: message.role, content: textOf(message.content) };
		const images = imagesOf(message.content);
		if (images.length) entry.images = images;
		if (message.role === 'assistant') {
			const thinking = message.content
				.filter((part) => part.type === 'reasoning')
				.map((part) => (part as { text: string }).text)
				.join('');
			if (thinking) entry.thinking = thinking;
			const calls: WireToolCall[] = [];
			for (const part of message.content) {
				if (part.type !== 'tool-call') continue;
				if (part.toolCallId) toolNames.set(part.toolCallId, part.toolName);
				calls.push({ function: { name: part.toolName, arguments: parseArguments(part.input) } });
			}
			if (calls.length) entry.tool_calls = calls;
		}
		wire.push(entry);
	}
	return wire;
}

let counter = 0;

/** A call id unique within the process, for matching the tool's result to its call. */
export function newCallId(): string {
	counter = (counter + 1) % 1_000_000;
	return `call_${Date.now().toString(36)}_${counter}`;
}
