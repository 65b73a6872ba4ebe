// The Model list of both AI nodes (load options `getModels`) against a loopback AI API. A failure the user must
// act on (a wrong token, the service down, nothing listening, a web page instead of the API, no AI URL) reaches
// the list as n8n's error with the cause and the fix, never as a lone "Enter ID"; only an address without a
// listing (the documents promise none) leaves free entry alone, and says why.
import { httpRequest } from '@n8n/backend-network/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CloudStorageAi } from '../../../nodes/Ai/CloudStorageAi.node';
import { CloudStorageAiChatModel } from '../../../nodes/AiChatModel/CloudStorageAiChatModel.node';

const TOKEN = 'tok-secret-model-list';

/** What the AI API answers to `GET /api/tags`, set per test. */
let answer: { status: number; type: string; body: string } = {
	status: 200,
	type: 'application/json',
	body: '{}',
};
let seenAuthorization: string | undefined;
let server: Server;
let base = '';
let closedBase = '';

beforeAll(async () => {
	server = createServer((req, res) => {
		seenAuthorization = req.headers.authorization;
		res.writeHead(answer.status, { 'content-type': answer.type, connection: 'close' });
		res.end(answer.body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	// A port nothing listens on: one taken and given back.
	const closed = createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	closedBase = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
	await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => await new Promise((resolve) => server.close(resolve)));

function loadContext(aiUrl: string): ILoadOptionsFunctions {
	const helper = async (options: never) => await httpRequest(options);
	return {
		getNode: () => ({
			id: 'n',
			name: 'Model',
			type: 'n8n-nodes-cloud-storage.node',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getNodeParameter: (_name: string, ...rest: unknown[]) => rest.at(-1),
		getCurrentNodeParameter: () => undefined,
		getCredentials: async () => ({ userId: '7', apiToken: TOKEN, baseUrl: base, aiUrl }),
		helpers: {
			httpRequest: helper,
			httpRequestWithAuthentication: async (_type: string, options: never) => await helper(options),
		},
	} as unknown as ILoadOptionsFunctions;
}

type GetModels = (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>;
const nodes: Array<[string, GetModels]> = [
	['AI', new CloudStorageAi().methods.loadOptions.getModels as GetModels],
	['AI Chat Model', new CloudStorageAiChatModel().methods.loadOptions.getModels as GetModels],
];

async function failureOf(getModels: GetModels, aiUrl: string) {
	const error = await getModels.call(loadContext(aiUrl)).then(
		(options) => {
			throw new Error(`listed instead of failing: ${JSON.stringify(options)}`);
		},
		(failure: unknown) => failure as Error & { description?: string },
	);
	expect(error instanceof NodeApiError || error instanceof NodeOperationError).toBe(true);
	for (const text of [error.message, error.description ?? '', JSON.stringify(error)])
		expect(text).not.toMatch(new RegExp(`${TOKEN}|\\n\\s+at `));
	return { message: error.message, description: error.description ?? '' };
}

describe.each(nodes)('%s: Model list', (_name, getModels) => {
	it("lists the service's models with free entry after them", async () => {
		answer = {
			status: 200,
			type: 'application/json',
			body: JSON.stringify({
				models: [{ name: 'qwen3:8b', details: { family: 'qwen3', parameter_size: '8B' } }],
			}),
		};
		const options = await getModels.call(loadContext(base));
		expect(options.map((option) => option.value)).toEqual(['qwen3:8b', 'custom']);
		expect(seenAuthorization).toBe(`Bearer 7:${TOKEN}`);
	});

	it.each([404, 405, 501])(
		'offers free entry alone when the address has no listing (%s), saying so',
		async (status) => {
			answer = { status, type: 'application/json', body: '{"error":"not found"}' };
			const options = await getModels.call(loadContext(base));
			expect(options).toHaveLength(1);
			expect(options[0].value).toBe('custom');
			expect(options[0].description).toMatch(
				new RegExp(
					`no model listing at http://127\\.0\\.0\\.1:\\d+/api/tags \\(it answered ${status}\\).*enter the model ID.*AI URL`,
				),
			);
		},
	);

	it('offers free entry alone when the answer is no listing, saying so', async () => {
		answer = { status: 200, type: 'application/json', body: '{"version":"1"}' };
		const [only, ...rest] = await getModels.call(loadContext(base));
		expect(rest).toEqual([]);
		expect(only.description).toMatch(/is not a model listing: enter the model ID/);
	});

	it('shows a refused token (401) as the error, with the fix', async () => {
		answer = { status: 401, type: 'application/json', body: '{"error":"unauthorized"}' };
		const { message, description } = await failureOf(getModels, base);
		expect(message).toMatch(/401/);
		expect(description).toMatch(/token|credential/i);
	});

	it('shows a service failure (500) as the error', async () => {
		answer = { status: 500, type: 'application/json', body: '{"error":"down"}' };
		expect((await failureOf(getModels, base)).message).toMatch(/500/);
	});

	it('shows a web page instead of the API as a wrong URL', async () => {
		answer = {
			status: 200,
			type: 'text/html',
			body: '<!doctype html><html><body>Log in</body></html>',
		};
		const { message, description } = await failureOf(getModels, base);
		expect(`${message} ${description}`).toMatch(/URL/);
	});

	it('shows an address where nothing answers as unreachable', async () => {
		const { message } = await failureOf(getModels, closedBase);
		expect(message).toMatch(/reach/i);
	});

	it('shows a credential without an AI URL as such, with the fix', async () => {
		const { message, description } = await failureOf(getModels, '  ');
		expect(message).toBe('The Bearer credential has no AI URL');
		expect(description).toMatch(/AI URL/);
	});
});
