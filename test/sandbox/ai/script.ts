/**
 * Deterministic answers, scripted by the prompt (the last user message in a chat):
 * - a conversation ending with a tool result → `Tool <name> returned: <result>`;
 * - `call tool <name> [with {json}]` when tools are offered → a tool call (`*` = the first tool);
 * - `[error]` → the model fails (500, or an error line in a stream); `[cut]` → a stream that stops early;
 * - a JSON format → `{"answer": …}`, a JSON schema → an object with a sample value per property;
 * - otherwise `Echo: <prompt>`, noting any images.
 * Thinking, when asked for and supported, is `Thought (<level>) about: <prompt>`.
 */
export interface ScriptInput {
	prompt: string;
	lastRole: string;
	lastToolName?: string;
	think: false | string;
	format?: unknown;
	images: Buffer[];
	tools: Array<{ function?: { name?: string } }>;
}

export interface ScriptedAnswer {
	text: string;
	thinking: string;
	toolCalls: Array<{ function: { name: string; arguments: Record<string, unknown> } }>;
	fail: boolean;
	cut: boolean;
}

function sample(schema: Record<string, unknown>): unknown {
	switch (schema.type) {
		case 'object': {
			const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
			return Object.fromEntries(
				Object.entries(properties).map(([key, value]) => [key, sample(value)]),
			);
		}
		case 'array':
			return [sample((schema.items ?? {}) as Record<string, unknown>)];
		case 'number':
		case 'integer':
			return 42;
		case 'boolean':
			return true;
		default:
			return Array.isArray(schema.enum) ? schema.enum[0] : 'sample';
	}
}

function imageNote(images: Buffer[]): string {
	if (!images.length) return '';
	const kinds = images.map((image) =>
		image[0] === 0x89 ? 'png' : image[0] === 0xff ? 'jpeg' : 'image',
	);
	return ` [${images.length} image(s): ${kinds.join(', ')}]`;
}

export function scriptAnswer(input: ScriptInput): ScriptedAnswer {
	const answer: ScriptedAnswer = { text: '', thinking: '', toolCalls: [], fail: false, cut: false };
	const prompt = input.prompt;
	if (input.think) answer.thinking = `Thought (${input.think}) about: ${prompt.slice(0, 80)}`;
	answer.fail = prompt.includes('[error]');
	answer.cut = prompt.includes('[cut]');
	if (input.lastRole === 'tool') {
		answer.text = `Tool ${input.lastToolName || 'result'} returned: ${prompt}`;
		return answer;
	}
	const call = /call tool (\S+)(?: with (\{.*\}))?/is.exec(prompt);
	if (call && input.tools.length) {
		const names = input.tools.map((tool) => String(tool.function?.name ?? ''));
		const name = call[1] === '*' ? names[0] : names.find((candidate) => candidate === call[1]);
		if (name) {
			let args: Record<string, unknown> = {};
			try {
				args = call[2] ? (JSON.parse(call[2]) as Record<string, unknown>) : {};
			} catch {
				args = { input: call[2] };
			}
			answer.toolCalls.push({ function: { name, arguments: args } });
			return answer;
		}
		answer.text = `No tool named ${call[1]} (offered: ${names.join(', ')})`;
		return answer;
	}
	const echo = `Echo: ${prompt}${imageNote(input.images)}`;
	if (input.format === 'json') answer.text = JSON.stringify({ answer: echo });
	else if (input.format && typeof input.format === 'object')
		answer.text = JSON.stringify(sample(input.format as Record<string, unknown>));
	else answer.text = echo;
	return answer;
}

export function countTokens(text: string): number {
	return text.split(/\s+/).filter(Boolean).length;
}
