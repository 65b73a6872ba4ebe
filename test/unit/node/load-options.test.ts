// The nodes' list-search, load-options and resource-mapping methods run outside the router: a failed request
// must still reach n8n as its own error class (NodeApiError, NodeOperationError) with the cause and the fix,
// never as a plain error, and never with a credential in it. One failing request of each kind against loopback
// servers: a 401, a stall (the driven clock passes the Timeout) and a TLS failure (a server that speaks no TLS).
// Every case runs on the driven clock, n8n's helper's socket timer included: only the stall moves it.
import { httpRequest } from '@n8n/backend-network/testing';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CloudStorage } from '../../../nodes/Storage/CloudStorage.node';
import { CloudStorageDmsTask } from '../../../nodes/DmsTask/CloudStorageDmsTask.node';
import { CloudStorageDmsTrigger } from '../../../nodes/DmsTrigger/CloudStorageDmsTrigger.node';
import { CloudStorageCalendar } from '../../../nodes/Calendar/CloudStorageCalendar.node';
import { driveHelperIdleTimer } from '../driven-helper-timer';
import { hangGuard } from '../hang-guard';

driveHelperIdleTimer();

const SECRET = 'tok-secret-load-options';
const PASSWORD = 'pw-secret-load-options';

type Failure = '401' | 'stall' | 'TLS';
const servers: Server[] = [];
const sockets = new Set<Socket>();
const ports: Partial<Record<Failure, number>> = {};

/** What each server does with any request: answer 401, read and never answer, or answer TLS with plain HTTP. */
function behave(kind: Failure) {
	return (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
		socket.on('data', () => {
			if (kind === 'stall') return;
			socket.removeAllListeners('data');
			const body = '{"error":"invalid token"}';
			socket.end(
				kind === '401'
					? `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`
					: 'HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n',
			);
		});
	};
}

beforeAll(async () => {
	for (const kind of ['401', 'stall', 'TLS'] as const) {
		const server = createServer(behave(kind));
		servers.push(server);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		ports[kind] = (server.address() as AddressInfo).port;
	}
});
afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	for (const server of servers) await new Promise((resolve) => server.close(resolve));
});
afterEach(() => jest.useRealTimers());

const baseOf = (kind: Failure) =>
	kind === 'TLS' ? `https://localhost:${ports.TLS}` : `http://127.0.0.1:${ports[kind]}`;

/** n8n's context of a load method: the node's parameters, its credential pointing at `base`, n8n's helper. */
function loadContext(base: string): ILoadOptionsFunctions {
	const parameters: Record<string, unknown> = {
		authentication: 'tokenApi',
		resource: 'task',
		'requestOptions.timeout': 1,
	};
	const helper = async (options: never) => await httpRequest(options);
	return {
		getNode: () => ({
			id: 'n',
			name: 'Node',
			type: 'n8n-nodes-cloud-storage.node',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getNodeParameter: (name: string, ...rest: unknown[]) => parameters[name] ?? rest.at(-1),
		getCurrentNodeParameter: (name: string) => parameters[name],
		getCredentials: async () => ({
			baseUrl: base,
			webUrl: base,
			davUrl: `${base}/dav/`,
			user: 'demo',
			username: 'demo',
			accessToken: SECRET,
			password: PASSWORD,
			sessionId: 'sess-1',
		}),
		helpers: {
			httpRequest: helper,
			httpRequestWithAuthentication: async (_type: string, options: never) => await helper(options),
		},
	} as unknown as ILoadOptionsFunctions;
}

type Method = (this: ILoadOptionsFunctions, ...args: unknown[]) => Promise<unknown>;
const storage = new CloudStorage().methods;
const dmsTask = new CloudStorageDmsTask().methods;
const dmsTrigger = new CloudStorageDmsTrigger().methods;
const calendar = new CloudStorageCalendar().methods;

const methods: Array<[string, Method]> = [
	['list search: Storage folders', storage.listSearch.searchFolders as Method],
	['list search: DMS tasks', dmsTask.listSearch.searchTasks as Method],
	['list search: Calendar calendars', calendar.listSearch.searchCalendars as Method],
	['load options: DMS filter fields', dmsTask.loadOptions.getFilterFields as Method],
	['load options: DMS Trigger task statuses', dmsTrigger.loadOptions.getTaskStatuses as Method],
	['resource mapping: DMS create fields', dmsTask.resourceMapping.getCreateFields as Method],
];

/** The method's outcome; for a stall the driven clock moves until it settles, each turn after I/O. */
async function outcomeOf(method: Method, kind: Failure): Promise<unknown> {
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'performance'],
	});
	let outcome: { error: unknown } | { value: unknown } | undefined;
	method.call(loadContext(baseOf(kind)), '').then(
		(value) => (outcome = { value }),
		(error: unknown) => (outcome = { error }),
	);
	const hung = hangGuard(8000);
	for (let turn = 0; !outcome; turn++) {
		await new Promise((resolve) => setImmediate(resolve));
		if (kind === 'stall' && turn % 5 === 4) await jest.advanceTimersByTimeAsync(500);
		// Only a guard against a hang: no outcome depends on it.
		if (hung()) throw new Error('hang');
	}
	return 'error' in outcome ? outcome.error : outcome.value;
}

const said: Record<Failure, RegExp> = {
	'401': /401/,
	stall: /did not answer within the timeout of 1 s/,
	TLS: /^The server at localhost:\d+ does not speak TLS/,
};

describe.each(methods)('%s', (_name, method) => {
	it.each(['401', 'stall', 'TLS'] as const)(
		'a %s reaches n8n as its error, worded, without a credential',
		async (kind) => {
			const error = (await outcomeOf(method, kind)) as Error & { description?: string };
			expect(error instanceof NodeApiError || error instanceof NodeOperationError).toBe(true);
			expect(error.message).toMatch(said[kind]);
			expect(error.description).toMatch(/\w/);
			for (const text of [error.message, error.description ?? '', JSON.stringify(error)])
				expect(text).not.toMatch(new RegExp(`${SECRET}|${PASSWORD}|\\n\\s+at `));
		},
	);
});
