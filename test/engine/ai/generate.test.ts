import nock from 'nock';

import {
	AI,
	AUTHORIZATION,
	GIF,
	generateAnswer,
	ndjson,
	runAi,
	unexpectedRequests,
} from './run-ai';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const base = { resource: 'text', operation: 'generate', model: 'qwen3:8b', prompt: 'Say hi' };

describe('AI generate', () => {
	it('posts the documented body with bearer auth and outputs the answer, thinking, counts and durations', async () => {
		let sent: Record<string, unknown> = {};
		const scope = nock(AI)
			.post('/api/generate', (body) => ((sent = body), true))
			.matchHeader('authorization', AUTHORIZATION)
			.matchHeader('content-type', /application\/json/)
			.reply(200, generateAnswer('Hi!', { thinking: 'Greeting.' }));
		const { out, error } = await runAi({
			...base,
			system: 'Be brief',
			think: 'medium',
			options: {
				temperature: 0.2,
				topP: 0.5,
				topK: 10,
				maxTokens: 64,
				contextSize: 4096,
				seed: 7,
				stop: '###, \\n\\n',
				keepAlive: '10m',
			},
		});
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(sent).toEqual({
			model: 'qwen3:8b',
			prompt: 'Say hi',
			system: 'Be brief',
			stream: false,
			think: 'medium',
			keep_alive: '10m',
			options: {
				temperature: 0.2,
				top_p: 0.5,
				top_k: 10,
				num_predict: 64,
				num_ctx: 4096,
				seed: 7,
				stop: ['###', '\n\n'],
			},
		});
		expect(out[0].json).toEqual({
			model: 'qwen3:8b',
			response: 'Hi!',
			thinking: 'Greeting.',
			doneReason: 'stop',
			usage: { promptTokens: 7, completionTokens: 5, totalTokens: 12 },
			durations: { totalMs: 12, loadMs: 1, promptEvalMs: 2, evalMs: 8 },
		});
	});

	it('sends think false for Off and low by default', async () => {
		const bodies: Array<Record<string, unknown>> = [];
		nock(AI)
			.post('/api/generate', (body) => (bodies.push(body), true))
			.times(2)
			.reply(200, generateAnswer('x'));
		await runAi({ ...base, think: 'off' });
		await runAi({ ...base });
		expect(bodies.map((body) => body.think)).toEqual([false, 'low']);
	});

	it('asks for JSON and parses the answer; a JSON schema is sent as the format', async () => {
		let format: unknown;
		nock(AI)
			.post('/api/generate', (body) => ((format = body.format), true))
			.reply(200, generateAnswer('{"summary":"ok"}'));
		const schema = { type: 'object', properties: { summary: { type: 'string' } } };
		const { out } = await runAi({
			...base,
			outputFormat: 'jsonSchema',
			jsonSchema: JSON.stringify(schema),
		});
		expect(format).toEqual(schema);
		expect(out[0].json.response).toEqual({ summary: 'ok' });
	});

	it('accepts an answer that is already an object when JSON was asked for', async () => {
		nock(AI)
			.post('/api/generate')
			.reply(200, generateAnswer({ a: 1 }));
		const { out } = await runAi({ ...base, outputFormat: 'json' });
		expect(out[0].json.response).toEqual({ a: 1 });
	});

	it('fails clearly when the model ignored the JSON format', async () => {
		nock(AI).post('/api/generate').reply(200, generateAnswer('not json'));
		const { error } = await runAi({ ...base, outputFormat: 'json' });
		expect(error?.message).toBe("The model's answer is not valid JSON");
	});

	it('sends images from binary fields as base64 for a model that reads images', async () => {
		let images: unknown;
		nock(AI)
			.post('/api/generate', (body) => ((images = body.images), true))
			.reply(200, generateAnswer('A pixel'));
		const { error } = await runAi(
			{ ...base, model: 'gemma3n:12b', images: 'data' },
			{ binary: { content: GIF } },
		);
		expect(error).toBeUndefined();
		expect(images).toEqual([Buffer.from(GIF, 'utf8').toString('base64')]);
	});

	it('reads a streamed answer line by line to its final line', async () => {
		let stream: unknown;
		nock(AI)
			.post('/api/generate', (body) => ((stream = body.stream), true))
			.reply(
				200,
				ndjson([
					{ model: 'qwen3:8b', response: '', thinking: 'Hmm', done: false },
					{ model: 'qwen3:8b', response: 'Hel', done: false },
					{ model: 'qwen3:8b', response: 'lo', done: false },
					generateAnswer(''),
				]),
				{ 'content-type': 'application/x-ndjson' },
			);
		const { out, error } = await runAi({ ...base, options: { stream: true } });
		expect(error).toBeUndefined();
		expect(stream).toBe(true);
		expect(out[0].json).toMatchObject({
			response: 'Hello',
			thinking: 'Hmm',
			usage: { totalTokens: 12 },
		});
	});

	it('treats a stream without its final line as an error, not a partial answer', async () => {
		nock(AI)
			.post('/api/generate')
			.reply(200, ndjson([{ model: 'qwen3:8b', response: 'Hel', done: false }]));
		const { error, out } = await runAi({ ...base, options: { stream: true } });
		expect(out).toEqual([]);
		expect(error?.message).toMatch(/stream ended before the model finished/);
	});

	it('reports an error line inside a stream', async () => {
		nock(AI)
			.post('/api/generate')
			.reply(
				200,
				ndjson([{ model: 'qwen3:8b', response: 'a', done: false }, { error: 'out of memory' }]),
			);
		const { error } = await runAi({ ...base, options: { stream: true } });
		expect(error?.message).toBe('The AI API reported an error: out of memory');
	});

	it.each([
		[
			404,
			{ error: 'model "x:1b" not found, try pulling it first' },
			/Model not found \(404\)/,
			/model "x:1b" not found/,
		],
		[401, { error: 'unauthorized' }, /rejected the bearer token \(401\)/, /user id and API token/],
		[
			400,
			{ error: '"qwen3:8b" does not support thinking' },
			/rejected the request \(400\)/,
			/does not support thinking/,
		],
		[413, { error: 'request body too large' }, /larger than the AI API accepts/, /smaller images/],
	])('maps %s to a message naming cause and fix', async (status, body, message, description) => {
		nock(AI).post('/api/generate').reply(status, body);
		const { error } = await runAi({ ...base, model: 'custom', customModel: 'x:1b' });
		expect(error?.message).toMatch(message);
		expect(error?.description).toMatch(description);
		expect(JSON.stringify(error)).not.toContain('tok-ai-secret');
	});

	it('retries a 429 and then succeeds', async () => {
		nock(AI).post('/api/generate').reply(429, { error: 'slow down' }, { 'retry-after': '0' });
		nock(AI).post('/api/generate').reply(200, generateAnswer('ok'));
		const { out, error } = await runAi(base);
		expect(error).toBeUndefined();
		expect(out[0].json.response).toBe('ok');
	});

	describe('bad input fails before any request', () => {
		it.each([
			['an empty prompt', { prompt: '  ' }, /prompt is empty/],
			[
				'an invalid JSON schema',
				{ outputFormat: 'jsonSchema', jsonSchema: '{nope' },
				/JSON schema is not valid JSON/,
			],
			['an empty custom model id', { model: 'custom', customModel: ' ' }, /No model id given/],
			[
				'a missing binary field',
				{ model: 'gemma3n:12b', images: 'photo' },
				/No binary property|No binary field "photo"/,
			],
		])('%s', async (_name, parameters, message) => {
			const unexpected = unexpectedRequests();
			const { error } = await runAi({ ...base, ...parameters }, { binary: { content: GIF } });
			expect(error?.message).toMatch(message);
			expect(unexpected).toEqual([]);
		});

		it('a binary field that is not an image', async () => {
			const unexpected = unexpectedRequests();
			const { error } = await runAi(
				{ ...base, model: 'gemma3n:12b', images: 'data' },
				{
					binary: {
						content: '%PDF-1.7 not an image',
						fileName: 'a.pdf',
						mimeType: 'application/pdf',
					},
				},
			);
			expect(error?.message).toBe('The binary field "data" is not an image (application/pdf)');
			expect(unexpected).toEqual([]);
		});

		it('a credential without an AI URL', async () => {
			const { error } = await runAi(base, {
				credentials: {
					cloudStorageBearerApi: {
						userId: '1',
						apiToken: 't',
						baseUrl: 'https://x.test',
						aiUrl: '',
					},
				},
			});
			expect(error?.message).toBe('The Bearer credential has no AI URL');
		});
	});
});
