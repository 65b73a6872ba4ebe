// The node's "Timeout" option (Request Options) through n8n's engine, with nock holding answers back:
// reads are asked again, writes are reconciled or reported as uncertain, transfers are not cut mid-flow.
import nock from 'nock';
import { PassThrough, Readable } from 'node:stream';

import { backoff } from '../../../nodes/shared/transport';
import {
	answerDeadline,
	configuredTimeoutMs,
	IdleLimit,
} from '../../../nodes/shared/transport/timeout';
import { secondLook } from '../../../nodes/shared/transport/second-look';
import { BASE, rl, runStorage, sessionLogin, unexpectedRequests } from '../storage/run-storage';
import { offlineWithNock } from '../offline';

offlineWithNock();

// The transport's clock is jest's (its timers are faked), the late answers' is nock's own (real timers, never
// reached while a test runs): a late request moves the clock on by the Timeout (`late`), so the Timeout runs out
// at once, never racing a busy machine, and an answer that comes at once is never cut by it.
const requestOptions = { timeout: 2 };
const TIMEOUT_MS = 2_000;
const LATE_MS = 600_000;
const info = { hash: 'Fx', name: 'a.txt', size: 1, parent_folder_hash: 'From1' };
const FAKED = { doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date'] } as const;
let backoffs: number[] = [];

beforeEach(() => {
	jest.useFakeTimers({ doNotFake: [...FAKED.doNotFake] });
	backoffs = [];
	jest.spyOn(backoff, 'wait').mockImplementation(async (ms) => void backoffs.push(ms));
});

afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
	nock.abortPendingRequests();
});

/** Each request this scope answers late runs the transport's Timeout out, once the request has reached nock. */
function late(scope: nock.Scope): nock.Scope {
	scope.on('request', () => {
		setImmediate(() => void jest.advanceTimersByTimeAsync(TIMEOUT_MS));
	});
	return scope;
}

function expectNoStack(error: { message?: string; description?: string | null } | undefined) {
	expect(`${error?.message} ${error?.description}`).not.toMatch(/\n\s+at |tok-secret-1/);
}

describe('Timeout on reads', () => {
	it('asks again after an answer that did not come in time', async () => {
		const calls = late(nock(BASE).post('/api_v2/get_file_info').delay(LATE_MS).reply(200, info));
		nock(BASE).post('/api_v2/get_file_info').reply(200, info);
		const { out, error } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('Fx'),
			requestOptions,
		});
		expect(error).toBeUndefined();
		expect(calls.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({ hash: 'Fx', name: 'a.txt' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('names the timeout, the fix and the item when no answer ever comes', async () => {
		sessionLogin();
		late(nock(BASE).post('/api_v2/get_file_info').times(5).delay(LATE_MS).reply(200, info));
		const { error } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('Fx'),
			requestOptions,
		});
		expect(error?.message).toBe('The storage API did not answer within the timeout of 2 s');
		expect(error?.description).toMatch(/raise "Timeout" under Request Options/);
		expect(error?.description).toMatch(/check that the service is running/);
		expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expectNoStack(error);
		expect(backoffs).toHaveLength(4); // five attempts
	});

	it('refuses a Timeout that is not a positive number before any request', async () => {
		const unexpected = unexpectedRequests();
		const { error } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('Fx'),
			requestOptions: { timeout: -5 },
		});
		expect(error?.message).toMatch(/Timeout must be a positive number of seconds/);
		expect(unexpected).toEqual([]);
	});
});

describe('Timeout on writes', () => {
	it('reconciles a move whose answer came too late instead of sending it again', async () => {
		const move = late(nock(BASE).post('/api_v2/move_file').delay(LATE_MS).reply(200, {}));
		nock(BASE)
			.post('/api_v2/get_file_info')
			.reply(200, { ...info, parent_folder_hash: 'To1' });
		const { out, error } = await runStorage({
			resource: 'file',
			operation: 'move',
			file: rl('Fx'),
			targetFolder: rl('To1'),
			requestOptions,
		});
		expect(error).toBeUndefined();
		expect(move.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({ hash: 'Fx', parent_folder_hash: 'To1', moved: true });
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('after a timeout the move may still be running: looks again after a wait, then says so, never sending it twice', async () => {
		const first = late(nock(BASE).post('/api_v2/move_file').delay(LATE_MS).reply(200, {}));
		nock(BASE).post('/api_v2/get_file_info').times(2).reply(200, info);
		const waits: number[] = [];
		jest.spyOn(secondLook, 'wait').mockImplementation(async (ms) => void waits.push(ms));
		const { out } = await runStorage(
			{
				resource: 'file',
				operation: 'move',
				file: rl('Fx'),
				targetFolder: rl('To1'),
				requestOptions,
			},
			{ continueOnFail: true },
		);
		expect(first.isDone()).toBe(true);
		expect(waits).toEqual([2000]);
		expect(out[0].json).toMatchObject({ outcome: 'unknown' });
		expect(String(out[0].json.error)).toMatch(/^The write may have been applied: /);
		expect(nock.pendingMocks()).toEqual([]);
	});

	it('reports a folder create (no reconciling read) as may-or-may-not-applied, with the fix, without repeating it', async () => {
		sessionLogin();
		const seen: string[] = [];
		late(
			nock(BASE)
				.post('/api_v2/create_folder')
				.times(2)
				.delay(LATE_MS)
				.reply((uri) => (seen.push(uri), [200, { folder_hash: 'Dx', folder_name: 'b' }])),
		);
		const { out } = await runStorage(
			{ resource: 'folder', operation: 'create', name: 'b', requestOptions },
			{ continueOnFail: true },
		);
		expect(seen).toHaveLength(1);
		expect(out[0].json.error).toBe(
			'The write may have been applied: the storage API did not answer within the timeout of 2 s',
		);
		expect(out[0].json.description).toMatch(
			/did not repeat it.*Check the current state.*raise "Timeout" under Request Options/,
		);
		expect(out[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Timeout and transfers', () => {
	it('does not cut a download whose bytes keep flowing past the timeout', async () => {
		sessionLogin();
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'Fx', name: 'slow.bin', size: 8 });
		// Eight bytes 400 ms apart, 3.2 s in all: the clock moves on only once the transport took the byte before.
		const taken = jest.spyOn(IdleLimit.prototype, 'touch');
		const trickle = () =>
			Readable.from(
				(async function* () {
					for (let i = 0; i < 8; i++) {
						await jest.advanceTimersByTimeAsync(400);
						const before = taken.mock.calls.length;
						yield Buffer.from('x');
						// Bounded in turns of the event loop, not in time: a transport that cut the download ends the test.
						for (let turn = 0; turn < 1000 && taken.mock.calls.length === before; turn++)
							await new Promise((resolve) => setImmediate(resolve));
					}
				})(),
			);
		nock(BASE)
			.post('/api_v2/download_file')
			.reply(200, trickle, { 'Content-Type': 'application/octet-stream', 'Content-Length': '8' });
		const result = await runStorage({
			resource: 'file',
			operation: 'download',
			file: rl('Fx'),
			binaryPropertyName: 'data',
			requestOptions,
		});
		expect(result.error).toBeUndefined();
		expect((await result.readBinary(result.out[0], 'data')).toString()).toBe('xxxxxxxx');
	});

	it('reconciles an upload whose answer did not come in time after the body was sent', async () => {
		sessionLogin(2); // the session, then the account data that tells ROOT's hash
		nock(BASE).post('/api_v2/get_folder_content').reply(200, []); // the folder before the upload
		const upload = late(nock(BASE).post('/api_v2/upload_file').delay(LATE_MS).reply(200, {}));
		nock(BASE)
			.post('/api_v2/get_folder_content')
			.reply(
				200,
				[
					{
						type: 'file',
						hash: 'New1',
						name: 'report.pdf',
						size: 1,
						timestamp_uploaded: Math.floor(Date.now() / 1000),
						delete_key: 'k',
					},
				],
				{ Date: new Date().toUTCString() },
			);
		nock(BASE)
			.post('/api_v2/download_file', /file_hash=New1/)
			.reply(200, 'x'); // its content is ours
		const { out, error } = await runStorage(
			{
				resource: 'file',
				operation: 'upload',
				folder: rl('F'),
				binaryPropertyName: 'data',
				requestOptions,
			},
			{ binary: { content: 'x' } },
		);
		expect(error).toBeUndefined();
		expect(upload.isDone()).toBe(true);
		expect(out[0].json).toMatchObject({ hash: 'New1', name: 'report.pdf' });
		expect(nock.pendingMocks()).toEqual([]);
	});

	// The limit's own timer is driven by a clock the test controls: no race against a busy machine.
	it('limits silence: reset whenever the helper takes the next part of the body, then for the answer', async () => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
		try {
			const body = new PassThrough();
			body.resume();
			const deadline = answerDeadline(body, 50);
			let expired = false;
			void deadline.expired.then(() => (expired = true));
			// A body that keeps moving: ten Timeouts in all, never one without a part taken.
			for (let part = 0; part < 25; part++) {
				body.write('part');
				await new Promise((resolve) => setImmediate(resolve));
				await jest.advanceTimersByTimeAsync(20);
			}
			expect(expired).toBe(false);
			const ended = new Promise((resolve) => body.once('end', resolve));
			body.end('last bytes');
			await ended;
			await jest.advanceTimersByTimeAsync(49);
			expect(expired).toBe(false);
			await jest.advanceTimersByTimeAsync(1);
			expect((await deadline.expired).message).toBe('no answer within 0.05 s');
		} finally {
			jest.useRealTimers();
		}
	});

	it('ends an upload whose server stops reading it: no part taken for the Timeout', async () => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
		try {
			const body = new PassThrough();
			body.resume();
			const deadline = answerDeadline(body, 50);
			let expired = false;
			void deadline.expired.then(() => (expired = true));
			body.write('first part');
			await new Promise((resolve) => setImmediate(resolve));
			// The body never ends: the old deadline, counted from its end, never expired.
			await jest.advanceTimersByTimeAsync(50);
			expect(expired).toBe(true);
		} finally {
			jest.useRealTimers();
		}
	});

	it('does not expire once the answer has started', async () => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
		try {
			const body = new PassThrough();
			const deadline = answerDeadline(body, 30);
			let expired = false;
			void deadline.expired.then(() => (expired = true));
			deadline.settle();
			const ended = new Promise((resolve) => body.once('end', resolve));
			body.end('x');
			body.resume();
			await ended;
			await jest.advanceTimersByTimeAsync(1000);
			expect(expired).toBe(false);
			expect(jest.getTimerCount()).toBe(0);
		} finally {
			jest.useRealTimers();
		}
	});
});

describe('reading the option', () => {
	const node = { name: 'N' } as never;
	const ctx = (value: unknown) => ({
		getNode: () => node,
		getInputData: () => [],
		getNodeParameter: (_name: string, _item: number, fallback: unknown) =>
			value === undefined ? fallback : value,
	});

	it('turns seconds into milliseconds and leaves an unset option to the default', () => {
		expect(configuredTimeoutMs(ctx(2), 0)).toBe(2000);
		expect(configuredTimeoutMs(ctx('1.5'), 0)).toBe(1500);
		expect(configuredTimeoutMs(ctx(undefined), 0)).toBeUndefined();
	});

	it.each([0, -1, 'soon', Number.NaN])('refuses %p', (value) => {
		expect(() => configuredTimeoutMs(ctx(value), 3)).toThrow(/positive number of seconds/);
	});
});
