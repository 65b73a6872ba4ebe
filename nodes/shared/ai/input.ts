/** Checks of user input that can fail before any request; each failure is a sentence for the user. */
import { PackError } from '../errors/pack-error';
import { CHAT_ROLES, type ChatMessage, type ChatRole } from './protocol';

/** JSON.parse without throwing: the caller decides which error the user sees. */
function tryParse(text: string): { value: unknown } | { problem: string } {
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { problem: (error as Error).message };
	}
}

/** Bad input found before any request: a PackError of kind 'input', its hint the fix. */
export class AiInputError extends PackError {
	constructor(message: string, hint?: string) {
		super(message, { kind: 'input', description: hint });
	}
}

const MESSAGES_HINT =
	'Give an array such as [{"role": "user", "content": "Hello"}]; role is one of system, user, assistant, tool; images is an optional array of base64 strings.';

/** Messages from a JSON expression: a JSON string or an already evaluated array. */
export function parseMessages(value: unknown): ChatMessage[] {
	let parsed = value;
	if (typeof value === 'string') {
		if (!value.trim()) throw new AiInputError('The messages JSON is empty', MESSAGES_HINT);
		const outcome = tryParse(value);
		if ('problem' in outcome)
			throw new AiInputError(
				`The messages JSON is not valid JSON: ${outcome.problem}`,
				MESSAGES_HINT,
			);
		parsed = outcome.value;
	}
	if (!Array.isArray(parsed))
		throw new AiInputError('The messages JSON must be an array of messages', MESSAGES_HINT);
	if (!parsed.length) throw new AiInputError('The messages JSON has no messages', MESSAGES_HINT);
	return parsed.map((entry, index) => checkMessage(entry, index));
}

function checkMessage(entry: unknown, index: number): ChatMessage {
	const where = `Message ${index + 1}`;
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
		throw new AiInputError(`${where} is not an object`, MESSAGES_HINT);
	}
	const { role, content, images, tool_calls, tool_name, thinking } = entry as Record<
		string,
		unknown
	>;
	if (typeof role !== 'string' || !CHAT_ROLES.includes(role as ChatRole)) {
		throw new AiInputError(`${where} has role ${JSON.stringify(role)}`, MESSAGES_HINT);
	}
	if (typeof content !== 'string')
		throw new AiInputError(`${where} has no text content`, MESSAGES_HINT);
	const message: ChatMessage = { role: role as ChatRole, content };
	if (images !== undefined) {
		if (
			!Array.isArray(images) ||
			images.some((image) => typeof image !== 'string' || !isBase64(image))
		) {
			throw new AiInputError(`${where} has images that are not base64 strings`, MESSAGES_HINT);
		}
		message.images = images as string[];
	}
	if (Array.isArray(tool_calls)) message.tool_calls = tool_calls as ChatMessage['tool_calls'];
	if (typeof tool_name === 'string') message.tool_name = tool_name;
	if (typeof thinking === 'string') message.thinking = thinking;
	return message;
}

function isBase64(text: string): boolean {
	return text.length > 0 && /^[A-Za-z0-9+/\r\n]+={0,2}$/.test(text);
}

/** A JSON schema given as text or object. */
export function parseSchema(value: unknown): Record<string, unknown> {
	let parsed = value;
	if (typeof value === 'string') {
		const outcome = tryParse(value);
		if ('problem' in outcome)
			throw new AiInputError(`The JSON schema is not valid JSON: ${outcome.problem}`);
		parsed = outcome.value;
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new AiInputError(
			'The JSON schema must be a JSON object, such as {"type": "object", "properties": {…}}',
		);
	}
	return parsed as Record<string, unknown>;
}

const SIGNATURES: Array<{ type: string; test: (b: Buffer) => boolean }> = [
	{
		type: 'image/png',
		test: (b) =>
			b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
	},
	{ type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
	{ type: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
	{
		type: 'image/webp',
		test: (b) =>
			b.subarray(0, 4).toString('latin1') === 'RIFF' &&
			b.subarray(8, 12).toString('latin1') === 'WEBP',
	},
	{ type: 'image/bmp', test: (b) => b.subarray(0, 2).toString('latin1') === 'BM' },
	{
		type: 'image/tiff',
		test: (b) => ['II*\u0000', 'MM\u0000*'].includes(b.subarray(0, 4).toString('latin1')),
	},
];

/** The image type the bytes start with, whatever the declared MIME type says; undefined for non-images. */
export function sniffImage(head: Buffer): string | undefined {
	return SIGNATURES.find((signature) => signature.test(head))?.type;
}

/** Stop sequences typed as a comma-separated list; `\n` may be written as an escape. */
export function parseStops(text: string | undefined): string[] | undefined {
	if (!text) return undefined;
	const stops = text
		.split(',')
		.map((stop) => stop.trim().replace(/\\n/g, '\n').replace(/\\t/g, '\t'))
		.filter(Boolean);
	return stops.length ? stops : undefined;
}
