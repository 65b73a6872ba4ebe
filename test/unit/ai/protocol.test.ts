import { Readable } from 'node:stream';

import {
	AiInputError,
	parseMessages,
	parseStops,
	sniffImage,
} from '../../../nodes/shared/ai/input';
import { parseModelListing } from '../../../nodes/shared/ai/models';
import { NdjsonError, readNdjson } from '../../../nodes/shared/ai/ndjson';
import {
	AiServiceError,
	AiStreamCutError,
	chatBody,
	generateBody,
	resultOfAnswer,
	resultOfStream,
} from '../../../nodes/shared/ai/protocol';

async function collect(source: Iterable<string | Buffer>): Promise<unknown[]> {
	const out: unknown[] = [];
	for await (const line of readNdjson(Readable.from(source))) out.push(line);
	return out;
}

describe('NDJSON reader', () => {
	it('joins lines split across chunks, multi-byte characters included, and skips blank lines', async () => {
		const text = '{"a":"ü"}\n\n{"b":2}\n{"c":3}';
		const bytes = Buffer.from(text);
		const chunks = [...bytes].map((byte) => Buffer.from([byte]));
		expect(await collect(chunks)).toEqual([{ a: 'ü' }, { b: 2 }, { c: 3 }]);
	});

	it('refuses a line that is not JSON, and a runaway line', async () => {
		await expect(collect(['{"a":1}\nnope\n'])).rejects.toThrow(NdjsonError);
		const lines = readNdjson(Readable.from(['x'.repeat(200)]), 100);
		await expect(lines.next()).rejects.toThrow(/longer than/);
	});
});

describe('answers', () => {
	const final = {
		model: 'm',
		done: true,
		done_reason: 'length',
		prompt_eval_count: 3,
		eval_count: 4,
		total_duration: 2_000_000,
	};

	it('assembles a streamed answer, tool calls included', async () => {
		const result = await resultOfStream(
			(async function* () {
				yield { message: { role: 'assistant', content: 'a', thinking: 't' }, done: false };
				yield {
					message: {
						role: 'assistant',
						content: '',
						tool_calls: [{ function: { name: 'f', arguments: '{"x":1}' } }],
					},
				};
				yield { ...final, message: { role: 'assistant', content: 'b' } };
			})(),
		);
		expect(result).toMatchObject({
			text: 'ab',
			thinking: 't',
			toolCalls: [{ function: { name: 'f', arguments: { x: 1 } } }],
			doneReason: 'length',
			promptTokens: 3,
			completionTokens: 4,
			durations: { totalMs: 2 },
		});
	});

	it('refuses a stream without its final line and reports error lines', async () => {
		await expect(
			resultOfStream(
				(async function* () {
					yield { response: 'a', done: false };
				})(),
			),
		).rejects.toThrow(AiStreamCutError);
		await expect(
			resultOfStream(
				(async function* () {
					yield { error: 'boom' };
				})(),
			),
		).rejects.toThrow(AiServiceError);
		expect(() => resultOfAnswer({ error: { message: 'bad' } })).toThrow('bad');
	});

	it('builds bodies without empty options', () => {
		const common = { model: 'm', think: 'off' as const, options: {}, stream: false };
		expect(generateBody({ ...common, prompt: 'p' })).toEqual({
			model: 'm',
			stream: false,
			think: false,
			prompt: 'p',
		});
		expect(chatBody({ ...common, messages: [{ role: 'user', content: 'x' }], tools: [] })).toEqual({
			model: 'm',
			stream: false,
			think: false,
			messages: [{ role: 'user', content: 'x' }],
		});
	});
});

describe('input checks', () => {
	it('parses messages given as an array or JSON text', () => {
		expect(parseMessages([{ role: 'user', content: 'x' }])).toEqual([
			{ role: 'user', content: 'x' },
		]);
		expect(() => parseMessages('')).toThrow(AiInputError);
	});

	it('recognises images by their bytes, not their declared type', () => {
		expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
			'image/png',
		);
		expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
		expect(sniffImage(Buffer.from('RIFF0000WEBP'))).toBe('image/webp');
		expect(sniffImage(Buffer.from('%PDF-1.7'))).toBeUndefined();
	});

	it('reads a model listing of the schema the API follows, or of the {data: [{id}]} shape; anything else is no listing', () => {
		expect(
			parseModelListing({
				models: [
					{
						name: 'fam1:8b',
						details: { family: 'fam', parameter_size: '8B' },
						capabilities: ['completion', 'tools'],
					},
					{ model: 'other:2b' },
					{},
				],
			}),
		).toEqual([
			{ id: 'fam1:8b', family: 'fam', size: '8B', capabilities: ['completion', 'tools'] },
			{ id: 'other:2b', family: undefined, size: undefined, capabilities: undefined },
		]);
		expect(parseModelListing({ data: [{ id: 'x:1b' }] })?.map((model) => model.id)).toEqual([
			'x:1b',
		]);
		expect(parseModelListing({ error: 'not found' })).toBeUndefined();
		expect(parseModelListing('<html>')).toBeUndefined();
	});

	it('splits stop sequences with escapes', () => {
		expect(parseStops('a, \\n, ,b')).toEqual(['a', '\n', 'b']);
		expect(parseStops('')).toBeUndefined();
	});
});
