// Unit tests talk to nock only: no real connection leaves the process, mocks start clean for every test,
// and (with `allMocksUsed`) a test that leaves a mocked request unsent fails. nock cannot see the main-thread
// transfers' own sockets, so transfers take n8n's helper here; those paths have their own tests against real servers.
// nock sees node:http only, not undici: the transport's calls go through `NodeHttpDispatcher` here, so nock
// sees the same requests (shape, order, credentials) the pack sends. undici itself (pooling, fresh connections
// for writes, timeouts, hostile answers) is tested against real loopback servers (transport/calls.test.ts,
// transport/hostile-server.test.ts) and the sandbox (engine tier).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import nock from 'nock';
import { Dispatcher } from 'undici';

import { routeCallsThrough } from '../../nodes/shared/transport';

/** The handler undici's `request()` hands a dispatcher (its callback interface). */
interface RequestCallbacks {
	onConnect(abort: (reason?: Error) => void): void;
	onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
	onData(chunk: Buffer): boolean;
	onComplete(trailers: Buffer[]): void;
	onError(error: Error): void;
}

/** undici's requests sent with node:http, where nock answers them. */
class NodeHttpDispatcher extends Dispatcher {
	dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
		const calls = handler as unknown as RequestCallbacks;
		const url = new URL(options.path, String(options.origin));
		const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
			method: options.method,
			headers: options.headers as Record<string, string>,
		});
		let ended = false;
		const fail = (error: Error) => {
			if (ended) return;
			ended = true;
			calls.onError(error);
		};
		calls.onConnect((reason) => {
			req.destroy();
			fail(reason ?? new Error('aborted'));
		});
		req.on('response', (res: IncomingMessage) => {
			const raw = res.rawHeaders.map((value) => Buffer.from(value, 'latin1'));
			calls.onHeaders(res.statusCode ?? 0, raw, () => res.resume(), res.statusMessage ?? '');
			res.on('data', (chunk: Buffer) => {
				if (!ended && calls.onData(chunk) === false) res.pause();
			});
			res.on('end', () => {
				if (ended) return;
				ended = true;
				calls.onComplete([]);
			});
			res.on('error', fail);
		});
		req.on('error', fail);
		req.end(options.body as string | Buffer | undefined);
		return true;
	}
}

/** Sends the transport's calls through node:http for this test file, where nock sees them. */
export function callsThroughNock(): void {
	beforeAll(() => routeCallsThrough(new NodeHttpDispatcher()));
	afterAll(() => routeCallsThrough(undefined));
}

export function offlineWithNock(options: { allMocksUsed?: boolean } = {}): void {
	callsThroughNock();
	const workerTransfers = process.env.CLOUD_STORAGE_WORKER_TRANSFERS;
	beforeAll(() => {
		process.env.CLOUD_STORAGE_WORKER_TRANSFERS = 'false';
	});
	beforeEach(() => {
		nock.cleanAll();
		nock.disableNetConnect();
	});
	if (options.allMocksUsed) afterEach(() => expect(nock.pendingMocks()).toEqual([]));
	afterAll(() => {
		if (workerTransfers === undefined) delete process.env.CLOUD_STORAGE_WORKER_TRANSFERS;
		else process.env.CLOUD_STORAGE_WORKER_TRANSFERS = workerTransfers;
		nock.enableNetConnect();
		nock.restore();
	});
}
