import nock from 'nock';

import { AI, GIF, generateAnswer, ndjson, runAi, unexpectedRequests } from './run-ai';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const chatAnswer = (message: Record<string, unknown>) => ({
	...generateAnswer(undefined),
	response: undefined,
	message,
});
const base = { resource: 'text', operation: 'chat', model: 'gemma3n:12b' };

describe('AI chat', () => {
	it('sends the messages from the list with images and returns message, thinking and counts separately', async () => {
		let sent: Record<string, unknown> = {};
		nock(AI)
			.post('/api/chat', (body) => ((sent = body), true))
			.reply(200, chatAnswer({ role: 'assistant', content: 'A tiny GIF', thinking: 'Looking.' }));
		const { out, error } = await runAi(
			{
				...base,
				messages: {
					values: [
						{ role: 'system', content: 'Describe images' },
						{ role: 'user', content: 'What is this?', images: 'data' },
					],
				},
			},
			{ binary: { content: GIF } },
		);
		expect(error).toBeUndefined();
		expect(sent.messages).toEqual([
			{ role: 'system', content: 'Describe images' },
			{ role: 'user', content: 'What is this?', images: [Buffer.from(GIF).toString('base64')] },
		]);
		expect(sent).toMatchObject({ model: 'gemma3n:12b', stream: false, think: 'low' });
		expect(out[0].json).toMatchObject({
			message: { role: 'assistant', content: 'A tiny GIF' },
			thinking: 'Looking.',
			usage: { promptTokens: 7, completionTokens: 5, totalTokens: 12 },
			durations: { totalMs: 12 },
		});
	});

	it('takes messages from a JSON expression and streams the answer', async () => {
		let sent: Record<string, unknown> = {};
		nock(AI)
			.post('/api/chat', (body) => ((sent = body), true))
			.reply(
				200,
				ndjson([
					{ message: { role: 'assistant', content: '', thinking: 'T' }, done: false },
					{ message: { role: 'assistant', content: 'Fine' }, done: false },
					{ ...generateAnswer(undefined), message: { role: 'assistant', content: '' } },
				]),
			);
		const messages = [
			{ role: 'user', content: 'Hi' },
			{ role: 'assistant', content: 'Hello' },
			{ role: 'user', content: 'How are you?' },
		];
		const { out, error } = await runAi({
			...base,
			messagesSource: 'json',
			messagesJson: JSON.stringify(messages),
			options: { stream: true },
		});
		expect(error).toBeUndefined();
		expect(sent).toMatchObject({ messages, stream: true });
		expect(out[0].json).toMatchObject({ message: { content: 'Fine' }, thinking: 'T' });
	});

	it.each([
		['malformed JSON', '[{"role": "user", "content": "x"', /messages JSON is not valid JSON/],
		['not an array', '{"role": "user"}', /must be an array/],
		['an unknown role', '[{"role": "robot", "content": "x"}]', /Message 1 has role "robot"/],
		['content missing', '[{"role": "user"}]', /Message 1 has no text content/],
		['images not base64', '[{"role": "user", "content": "x", "images": ["%%%"]}]', /not base64/],
		['no messages', '[]', /has no messages/],
	])('refuses %s before any request', async (_name, messagesJson, message) => {
		const unexpected = unexpectedRequests();
		const { error } = await runAi({ ...base, messagesSource: 'json', messagesJson });
		expect(error?.message).toMatch(message);
		expect(error?.description).toMatch(/role/);
		expect(unexpected).toEqual([]);
	});

	it('refuses a conversation without a user message', async () => {
		const unexpected = unexpectedRequests();
		const { error } = await runAi({
			...base,
			messages: { values: [{ role: 'user', content: ' ' }] },
		});
		expect(error?.message).toMatch(/no user message/);
		expect(unexpected).toEqual([]);
	});

	it('keeps going with Continue On Fail, pairing the error item', async () => {
		nock(AI).post('/api/chat').reply(404, { error: 'model "qwen3:8b" not found' });
		const { out } = await runAi(
			{ ...base, model: 'qwen3:8b', messages: { values: [{ role: 'user', content: 'x' }] } },
			{ continueOnFail: true },
		);
		expect(out[0].json).toMatchObject({ error: 'Model not found (404)' });
		expect(out[0].pairedItem).toEqual({ item: 0 });
	});
});
