import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { chain, runWorkflow } from '../harness';
import { offlineWithNock } from '../../unit/offline';
import { BASE, TOKEN, WEB, form, rl, sessionLogin } from '../../unit/storage/run-storage';

offlineWithNock();

type Answer = [status: number, body: object | string, headers?: Record<string, string>];

/**
 * Answers get_file_info / get_folder_info while counting the requests in flight. A request is answered
 * when `release` says so, from the requests held at that moment: the test decides on counts, never on
 * time. `answer` gives the reply for a hash and its attempt number (1 for the first request).
 */
function heldInfo(
	path: string | RegExp,
	field: string,
	release: (held: number, released: number) => boolean,
	answer: (hash: string, attempt: number) => Answer = (hash) => [200, { hash, name: hash }],
) {
	const state = { inFlight: 0, max: 0, arrived: [] as string[], released: 0 };
	let held: Array<() => void> = [];
	const scope = nock(BASE);
	(typeof path === 'string' ? scope.post(path) : scope.get(path))
		.times(64)
		.reply((uri, body, callback) => {
			const hash =
				typeof path === 'string'
					? form(String(body))[field]
					: String(new URL(uri, BASE).searchParams.get(field));
			state.arrived.push(hash);
			state.inFlight++;
			state.max = Math.max(state.max, state.inFlight);
			const attempt = state.arrived.filter((seen) => seen === hash).length;
			held.push(() => {
				state.inFlight--;
				state.released++;
				const [status, reply, headers] = answer(hash, attempt);
				callback(null, [status, reply, headers ?? {}]);
			});
			if (release(held.length, state.released)) {
				// Latest first: later items answer before earlier ones.
				const batch = held.reverse();
				held = [];
				for (const reply of batch) reply();
			}
		});
	return state;
}

const HASHES = ['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7', 'H8', 'H9'];

async function runGet(
	parameters: INodeParameters,
	options: { hashes?: string[]; continueOnFail?: boolean } = {},
) {
	sessionLogin();
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'Hashes',
			type: 'engine-test.jsonItems',
			parameters: {
				items: JSON.stringify((options.hashes ?? HASHES).map((hash) => ({ hash }))),
			},
		},
		{
			name: 'Storage',
			type: 'n8n-nodes-cloud-storage.cloudStorage',
			parameters: { authentication: 'tokenApi', ...parameters },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
	];
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: { cloudStorageTokenApi: { ...TOKEN } } as never },
	);
	return { ...result, out: result.nodeOutput('Storage') };
}

const fileGet = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'file',
	operation: 'get',
	file: rl('={{ $json.hash }}'),
	options,
});

/** Item 0 alone, then batches of `limit` (fewer at the end): what a bounded loop of that size sends. */
const inBatchesOf =
	(limit: number, total = HASHES.length) =>
	(held: number, released: number) =>
		released === 0 ? held === 1 : held === Math.min(limit, total - released);

const immediately = () => true;

describe('Parallel Requests (Get File Info over several items)', () => {
	it('by default sends one request at a time, in input order', async () => {
		const state = heldInfo('/api_v2/get_file_info', 'file_hash', immediately);
		const { out, error } = await runGet(fileGet());
		expect(error).toBeUndefined();
		expect(state.max).toBe(1);
		expect(state.arrived).toEqual(HASHES);
		expect(out.map((item) => item.json.hash)).toEqual(HASHES);
	});

	it('with 4 keeps at most 4 in flight, more than 1 at a time, and output and pairing in input order', async () => {
		const state = heldInfo('/api_v2/get_file_info', 'file_hash', inBatchesOf(4));
		const { out, error } = await runGet(fileGet({ concurrency: 4 }));
		expect(error).toBeUndefined();
		expect(state.max).toBe(4);
		expect(state.arrived).toHaveLength(HASHES.length);
		expect(out.map((item) => item.json.hash)).toEqual(HASHES);
		expect(out.map((item) => item.json.link)).toEqual(HASHES.map((hash) => `${WEB}/f/${hash}`));
		expect(out.map((item) => item.pairedItem)).toEqual(HASHES.map((_, item) => ({ item })));
	});

	it('with Continue On Fail puts a failing middle item’s error in its own slot', async () => {
		heldInfo('/api_v2/get_file_info', 'file_hash', inBatchesOf(4), (hash) =>
			hash === 'H3' ? [405, '', { 'Content-Type': 'application/json' }] : [200, { hash }],
		);
		const { out, error } = await runGet(fileGet({ concurrency: 4 }), { continueOnFail: true });
		expect(error).toBeUndefined();
		expect(out).toHaveLength(HASHES.length);
		expect(out[2].json).toMatchObject({ error: expect.stringMatching(/405/) });
		expect(out.map((item) => item.pairedItem)).toEqual(HASHES.map((_, item) => ({ item })));
		expect(out.filter((item) => item.json.error)).toHaveLength(1);
		expect(out.map((item) => item.json.hash ?? null)).toEqual(
			HASHES.map((hash) => (hash === 'H3' ? null : hash)),
		);
	});

	it('without Continue On Fail throws the lowest failing item’s error once in-flight items settle, and starts no more', async () => {
		// Items 1-4 are in flight together, all fail, and answer latest first: item 4's answer comes first.
		const state = heldInfo('/api_v2/get_file_info', 'file_hash', inBatchesOf(4), (hash) =>
			['H2', 'H3', 'H4', 'H5'].includes(hash)
				? [405, '', { 'Content-Type': 'application/json' }]
				: [200, { hash }],
		);
		const { error } = await runGet(fileGet({ concurrency: 4 }));
		expect(error?.message).toMatch(/405/);
		expect((error as unknown as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		expect(state.arrived).toEqual(['H1', 'H2', 'H3', 'H4', 'H5']);
		expect(state.inFlight).toBe(0);
	});

	it('without Continue On Fail, one at a time, stops at the first failing item', async () => {
		const state = heldInfo('/api_v2/get_file_info', 'file_hash', immediately, (hash) =>
			hash === 'H3' ? [405, '', { 'Content-Type': 'application/json' }] : [200, { hash }],
		);
		const { error } = await runGet(fileGet());
		expect((error as unknown as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(2);
		expect(state.arrived).toEqual(['H1', 'H2', 'H3']);
	});

	it('still waits out a 429 on some items while others are in flight', async () => {
		// Answered once every busy slot holds a request: a 429's retry takes its item's slot again.
		let answered = 0;
		const state = heldInfo(
			'/api_v2/get_file_info',
			'file_hash',
			(held, released) =>
				released === 0 ? held === 1 : held === Math.min(4, HASHES.length - answered),
			(hash, attempt) => {
				if ((hash === 'H2' || hash === 'H6') && attempt === 1)
					return [429, { error: 'rate_limited' }, { 'Retry-After': '0' }];
				answered++;
				return [200, { hash }];
			},
		);
		const { out, error } = await runGet(fileGet({ concurrency: 4 }));
		expect(error).toBeUndefined();
		expect(state.max).toBe(4);
		expect(out.map((item) => item.json.hash)).toEqual(HASHES);
		expect(state.arrived.filter((hash) => hash === 'H2' || hash === 'H6')).toHaveLength(4);
		expect(state.arrived).toHaveLength(HASHES.length + 2);
	});

	it('applies to Folder → Get too', async () => {
		const state = heldInfo('/api_v2/get_folder_info', 'folder_hash', inBatchesOf(3));
		const { out, error } = await runGet({
			resource: 'folder',
			operation: 'get',
			folder: rl('={{ $json.hash }}'),
			options: { concurrency: 3 },
		});
		expect(error).toBeUndefined();
		expect(state.max).toBe(3);
		expect(out.map((item) => item.json.hash)).toEqual(HASHES);
		expect(out.map((item) => item.pairedItem)).toEqual(HASHES.map((_, item) => ({ item })));
	});

	it('applies to File → Get Keys too', async () => {
		const state = heldInfo(/^\/api\/get_file_keys\.php/, 'hash', inBatchesOf(2), (hash) => [
			200,
			{ edit_key: `k-${hash}` },
		]);
		const { out, error } = await runGet({
			resource: 'file',
			operation: 'getKeys',
			file: rl('={{ $json.hash }}'),
			options: { concurrency: 2 },
		});
		expect(error).toBeUndefined();
		expect(state.max).toBe(2);
		expect(out.map((item) => item.json.edit_key)).toEqual(HASHES.map((hash) => `k-${hash}`));
	});

	it('never overlaps an operation that writes, whatever its options say', async () => {
		const state = heldInfo('/api_v2/create_folder', 'folder_name', immediately, (name) => [
			200,
			{ folder_hash: `F-${name}`, folder_edit_key: 'e', folder_upload_key: 'u', folder_name: name },
		]);
		const { error } = await runGet({
			resource: 'folder',
			operation: 'create',
			parentFolder: rl('Parent123'),
			name: '={{ $json.hash }}',
			options: { concurrency: 8 },
		});
		expect(error).toBeUndefined();
		expect(state.max).toBe(1);
		expect(state.arrived).toEqual(HASHES);
	});

	it('is decided once from item 0: a later item’s value does not change it', async () => {
		const state = heldInfo('/api_v2/get_file_info', 'file_hash', immediately);
		const { error } = await runGet(fileGet({ concurrency: '={{ $itemIndex === 0 ? 1 : 8 }}' }));
		expect(error).toBeUndefined();
		expect(state.max).toBe(1);
	});
});

describe('Parallel Requests and a session that expires in the middle of the run', () => {
	it('requests in flight that all found the session expired share one login, and every item succeeds', async () => {
		// The service keeps only the newest session: a login ends the ones before it.
		let valid = '';
		let logins = 0;
		nock(BASE)
			.post('/api/authenticate_user.php')
			.times(10)
			.reply(() => {
				logins++;
				valid = `sess-${logins}`;
				return [200, { Success: true, Message: 'ok', SessionID: valid, UserData: {} }];
			});
		let answered = 0;
		const held: Array<() => void> = [];
		let released = false;
		nock(BASE)
			.post('/api/get_uploads_exist.php')
			.times(30)
			.reply(function (_uri, body, callback) {
				const hashes = (body as { hashes: string[] }).hashes;
				const session = /PHPSESSID=([^;]+)/.exec(String(this.req.headers.cookie))?.[1];
				if (session !== valid) {
					// The four requests in flight after item 0 are refused together; later ones at once.
					if (released) return callback(null, [401, '']);
					held.push(() => callback(null, [401, '']));
					if (held.length === 4) {
						released = true;
						for (const reply of held) reply();
					}
					return;
				}
				// The session expires once item 0 has its answer.
				if (++answered === 1) valid = 'none';
				callback(null, [200, Object.fromEntries(hashes.map((hash) => [hash, true]))]);
			});
		const { out, error } = await runGet({
			resource: 'folder',
			operation: 'checkExistence',
			hashes: '={{ $json.hash }}',
			options: { concurrency: 4 },
		});
		expect(error).toBeUndefined();
		expect(out.map((item) => item.json)).toEqual(HASHES.map((hash) => ({ hash, exists: true })));
		// The run's first login, then one for the four requests refused together.
		expect(logins).toBe(2);
	});
});
