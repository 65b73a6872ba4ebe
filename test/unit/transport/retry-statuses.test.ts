// A request's `retry`: its limits make the back-off policy (over the defaults, a limit left undefined keeps the
// default), its `statuses` are answers worth asking again with back-off besides 429 (DAV and MCP 503), for a write
// too (docs/service-contract.md has DAV's 503 retried with back-off). Waits are recorded, never slept.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IExecuteFunctions } from 'n8n-workflow';

import { outcomeOf } from '../../../nodes/shared/errors/outcome';
import { backoff } from '../../../nodes/shared/transport/around-send';
import { apiRequest } from '../../../nodes/shared/transport/request';
import { formBody, type ApiRequest } from '../../../nodes/shared/transport/request-types';

let server: Server;
let base = '';
let answers: Array<[number, Record<string, string>?]> = [];
let seen = 0;
const waits: number[] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const [status, headers] = answers[Math.min(seen++, answers.length - 1)];
			res.writeHead(status, { 'content-type': 'application/json', ...headers });
			res.end(status === 200 ? '{"ok":true}' : '');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});
let wait: jest.SpyInstance;
beforeEach(() => {
	seen = 0;
	waits.length = 0;
	wait = jest.spyOn(backoff, 'wait').mockImplementation(async (ms) => void waits.push(ms));
});
afterEach(() => wait.mockRestore());

const context = {
	getNode: () => ({ name: 'DAV', type: 'cloudStorageCalendar', typeVersion: 1, parameters: {} }),
	getNodeParameter: (_name: string, _item: number, fallback: unknown) => fallback,
	getInputData: () => [{ json: {} }],
	getExecutionCancelSignal: () => undefined,
	helpers: {
		httpRequest: () => {
			throw new Error("n8n's helper was called");
		},
	},
} as unknown as IExecuteFunctions;

const send = async (request: Partial<ApiRequest>) =>
	await apiRequest(context, {
		api: 'dav',
		url: `${base}/cal/a.ics`,
		method: 'PUT',
		body: formBody({ a: 'b' }),
		itemIndex: 0,
		...request,
	}).catch((error: Error) => error);

it('a write answered 503, with 503 in its statuses: asked again after Retry-After, and done', async () => {
	answers = [[503, { 'retry-after': '2' }], [200]];
	const outcome = await send({ write: {}, retry: { statuses: [503] } });
	expect(outcome).toMatchObject({ status: 200, body: { ok: true } });
	expect(seen).toBe(2);
	expect(waits).toEqual([2000]);
});

it('a write answered 503 without it: sent once, "may have been applied"', async () => {
	answers = [[503]];
	const outcome = (await send({ write: {} })) as Error;
	expect(outcome.message).toMatch(/^The write may have been applied/);
	expect(outcomeOf(outcome)).toBe('unknown');
	expect(seen).toBe(1);
});

it('a write answered 503 every time, with 503 in its statuses: the limits end it, as not applied', async () => {
	answers = [[503]];
	const outcome = (await send({ write: {}, retry: { statuses: [503], maxAttempts: 3 } })) as Error;
	expect(outcome.message).not.toMatch(/may have been applied/);
	expect(outcomeOf(outcome)).toBe('not-applied');
	expect(seen).toBe(3);
});

it('a limit left undefined keeps the default: five attempts, not as many as two minutes of waits allow', async () => {
	answers = [[503]];
	await send({
		method: 'GET',
		body: undefined,
		retry: { maxAttempts: undefined, statuses: [503] },
	});
	expect(seen).toBe(5);
});
