import { json, type Reply } from '../http/reply.ts';
import type { SandboxRequest } from '../http/request.ts';
import type { Route } from '../router.ts';
import { bearerOf } from '../ai/bearer.ts';
import {
	modelListing,
	modelListingEnabled,
	sandboxModel,
	type SandboxModel,
} from '../ai/models.ts';
import { countTokens, scriptAnswer, type ScriptedAnswer } from '../ai/script.ts';

/**
 * The AI API (`{ai_url}/api/generate`, `/api/chat`), served at the sandbox's base URL: `ai_url` = `baseUrl`.
 * Bodies and answers follow the common open-source local model server; `stream` defaults to true as
 * there, and a streamed answer is NDJSON ending with a `done: true` line that carries the counts.
 * Errors are `{"error": "…"}`: 400 invalid request or unsupported feature, 401 bearer, 404 unknown
 * model, 413 body over `AI_MAX_BODY_BYTES`, 500 scripted failure. `GET /api/tags` lists the six models in
 * that server's schema (the documents show no listing: the sandbox's choice; `setModelListing` turns it
 * off, then it is 404).
 */
export const AI_MAX_BODY_BYTES = 8 * 1024 * 1024;

type Kind = 'generate' | 'chat';
type Body = Record<string, unknown>;

const fail = (status: number, error: string): Reply => json({ error }, status);

function parseBody(req: SandboxRequest): { body: Body } | { reply: Reply } {
	const type = String(req.headers['content-type'] ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	// The documents: Content-Type: application/json.
	if (type !== 'application/json')
		return { reply: fail(400, 'Content-Type must be application/json') };
	const raw = req.raw ?? Buffer.alloc(0);
	if (raw.length > AI_MAX_BODY_BYTES) return { reply: fail(413, 'request body too large') };
	try {
		const body: unknown = JSON.parse(raw.toString('utf8') || 'null');
		if (body && typeof body === 'object' && !Array.isArray(body)) return { body: body as Body };
	} catch {
		// answered below
	}
	return { reply: fail(400, 'invalid JSON body') };
}

function decodeImages(value: unknown): Buffer[] | undefined {
	if (value === undefined) return [];
	if (!Array.isArray(value)) return undefined;
	const images: Buffer[] = [];
	for (const image of value) {
		if (typeof image !== 'string' || !/^[A-Za-z0-9+/\r\n]+={0,2}$/.test(image)) return undefined;
		images.push(Buffer.from(image, 'base64'));
	}
	return images;
}

interface Parsed {
	model: SandboxModel;
	prompt: string;
	lastRole: string;
	lastToolName?: string;
	images: Buffer[];
	think: false | string;
	tools: Array<{ function?: { name?: string } }>;
	promptTokens: number;
}

function check(kind: Kind, body: Body): Parsed | Reply {
	if (typeof body.model !== 'string' || !body.model) return fail(400, 'model is required');
	const model = sandboxModel(body.model);
	if (!model) return fail(404, `model "${body.model}" not found, try pulling it first`);
	const think = body.think;
	if (
		think !== undefined &&
		typeof think !== 'boolean' &&
		!['low', 'medium', 'high'].includes(String(think))
	) {
		return fail(
			400,
			`invalid think value: ${JSON.stringify(think)} (use true, false, "low", "medium" or "high")`,
		);
	}
	if (think && !model.thinking) return fail(400, `"${model.id}" does not support thinking`);
	const tools = Array.isArray(body.tools) ? (body.tools as Parsed['tools']) : [];
	if (kind === 'generate' && body.tools !== undefined)
		return fail(400, 'tools are only accepted by /api/chat');
	if (tools.length && !model.tools)
		return fail(400, `registry.sandbox/library/${model.id} does not support tools`);

	let prompt = '';
	let lastRole = 'user';
	let lastToolName: string | undefined;
	let images: Buffer[] | undefined = [];
	let promptText = '';
	if (kind === 'generate') {
		if (body.prompt !== undefined && typeof body.prompt !== 'string')
			return fail(400, 'prompt must be a string');
		prompt = String(body.prompt ?? '');
		images = decodeImages(body.images);
		promptText = `${String(body.system ?? '')} ${prompt}`;
	} else {
		if (!Array.isArray(body.messages)) return fail(400, 'messages must be an array');
		for (const message of body.messages as Body[]) {
			if (
				!message ||
				typeof message !== 'object' ||
				!['system', 'user', 'assistant', 'tool'].includes(String(message.role))
			) {
				return fail(400, 'invalid message: role must be system, user, assistant or tool');
			}
			if (typeof message.content !== 'string')
				return fail(400, 'invalid message: content must be a string');
			const decoded = decodeImages(message.images);
			if (!decoded) return fail(400, 'invalid image data: images must be base64 strings');
			images.push(...decoded);
			promptText += ` ${message.content}`;
		}
		const last = (body.messages as Body[]).at(-1);
		lastRole = String(last?.role ?? 'user');
		lastToolName = typeof last?.tool_name === 'string' ? last.tool_name : undefined;
		prompt = String(last?.content ?? '');
	}
	if (!images) return fail(400, 'invalid image data: images must be base64 strings');
	if (images.length && !model.images) return fail(400, `"${model.id}" does not support images`);
	const thinkLevel =
		think === undefined || think === false ? false : think === true ? 'on' : String(think);
	return {
		model,
		prompt,
		lastRole,
		lastToolName,
		images,
		think: thinkLevel,
		tools,
		promptTokens: countTokens(promptText),
	};
}

function finalLine(kind: Kind, parsed: Parsed, answer: ScriptedAnswer, now: string): Body {
	const evalCount = countTokens(answer.text) + countTokens(answer.thinking);
	return {
		model: parsed.model.id,
		created_at: now,
		...(kind === 'generate' ? { response: '' } : { message: { role: 'assistant', content: '' } }),
		done: true,
		done_reason: 'stop',
		total_duration: 5_000_000 + evalCount * 1_000_000,
		load_duration: 1_000_000,
		prompt_eval_count: parsed.promptTokens,
		prompt_eval_duration: 2_000_000,
		eval_count: evalCount,
		eval_duration: evalCount * 1_000_000,
	};
}

/** Words with their trailing spaces, so that joining the pieces gives the text back. */
function pieces(text: string): string[] {
	return text.match(/\S+\s*|\s+/g) ?? [];
}

async function* ndjson(
	kind: Kind,
	parsed: Parsed,
	answer: ScriptedAnswer,
	now: string,
): AsyncGenerator<string> {
	const line = (value: unknown) => `${JSON.stringify(value)}\n`;
	const chunk = (fields: { text?: string; thinking?: string; tool_calls?: unknown[] }) =>
		kind === 'generate'
			? {
					model: parsed.model.id,
					created_at: now,
					response: fields.text ?? '',
					...(fields.thinking ? { thinking: fields.thinking } : {}),
					done: false,
				}
			: {
					model: parsed.model.id,
					created_at: now,
					message: {
						role: 'assistant',
						content: fields.text ?? '',
						...(fields.thinking ? { thinking: fields.thinking } : {}),
						...(fields.tool_calls ? { tool_calls: fields.tool_calls } : {}),
					},
					done: false,
				};
	for (const piece of pieces(answer.thinking)) yield line(chunk({ thinking: piece }));
	const text = pieces(answer.text);
	for (const [index, piece] of text.entries()) {
		if (answer.fail && index === Math.floor(text.length / 2)) {
			yield line({ error: 'the model failed while answering (scripted [error])' });
			return;
		}
		yield line(chunk({ text: piece }));
		if (answer.cut && index === Math.floor(text.length / 2)) {
			// `[cut]` ends cleanly without the final line; `[drop]` breaks the connection instead.
			if (parsed.prompt.includes('[drop]')) throw new Error('scripted connection drop');
			return;
		}
	}
	if (answer.toolCalls.length) yield line(chunk({ tool_calls: answer.toolCalls }));
	yield line(finalLine(kind, parsed, answer, now));
}

function handler(kind: Kind): Route['handle'] {
	return (req, { store }) => {
		const bearer = bearerOf(req, store);
		if (bearer.kind !== 'ok') return fail(401, 'unauthorized');
		const read = parseBody(req);
		if ('reply' in read) return read.reply;
		const body = read.body;
		const parsed = check(kind, body);
		if ('status' in parsed) return parsed;
		const answer = scriptAnswer({
			prompt: parsed.prompt,
			lastRole: parsed.lastRole,
			lastToolName: parsed.lastToolName,
			think: parsed.think,
			format: body.format,
			images: parsed.images,
			tools: parsed.tools,
		});
		if (parsed.prompt.includes('[drop]')) answer.cut = true;
		const now = new Date(store.now()).toISOString();
		if (body.stream !== false) {
			return {
				status: 200,
				headers: { 'Content-Type': 'application/x-ndjson' },
				stream: ndjson(kind, parsed, answer, now),
			};
		}
		if (answer.fail) return fail(500, 'the model failed while answering (scripted [error])');
		const final = finalLine(kind, parsed, answer, now);
		const thinking = answer.thinking ? { thinking: answer.thinking } : {};
		if (kind === 'generate') return json({ ...final, response: answer.text, ...thinking });
		const message = {
			role: 'assistant',
			content: answer.text,
			...thinking,
			...(answer.toolCalls.length ? { tool_calls: answer.toolCalls } : {}),
		};
		return json({ ...final, message });
	};
}

const listModels: Route['handle'] = (req, { store }) => {
	if (bearerOf(req, store).kind !== 'ok') return fail(401, 'unauthorized');
	return modelListingEnabled(store) ? json(modelListing()) : fail(404, 'not found');
};

export const aiRoutes: Route[] = [
	{
		api: 'ai',
		methods: ['GET'],
		path: '/api/tags',
		body: 'raw',
		action: () => 'tags',
		handle: listModels,
	},
	{
		api: 'ai',
		methods: ['POST'],
		path: '/api/generate',
		body: 'raw',
		action: () => 'generate',
		handle: handler('generate'),
	},
	{
		api: 'ai',
		methods: ['POST'],
		path: '/api/chat',
		body: 'raw',
		action: () => 'chat',
		handle: handler('chat'),
	},
];
