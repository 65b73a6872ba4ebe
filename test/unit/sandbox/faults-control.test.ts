import { type Sandbox } from '../../sandbox/server.ts';
import { boot, control, createFolder, DEMO_TOKEN, expectEmpty, v2, readJson } from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const folderNames = () =>
	sandbox.store
		.subfolders(sandbox.store.accountByLogin('demo')!.rootFolderId)
		.map((folder) => folder.name);

async function addRules(rules: unknown[]) {
	const response = await control(sandbox, 'POST', 'faults', { rules });
	expect(response.status).toBe(200);
}

describe('fault injection', () => {
	it.each(['429', '500', '503'])(
		'answers %s once, then normally, without applying the request',
		async (fault) => {
			await addRules([{ match: { path: 'create_folder' }, fault, times: 1 }]);
			const failed = await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'first' });
			await expectEmpty(failed, Number(fault));
			expect(failed.headers.get('retry-after')).toBeNull();
			expect(
				(await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'second' })).status,
			).toBe(200);
			expect(folderNames()).toEqual(['second']);
		},
	);

	it('sends Retry-After on 429 only when asked', async () => {
		await addRules([{ match: { path: 'get_folder_info' }, fault: '429', retryAfter: 3 }]);
		const response = await v2(sandbox, 'get_folder_info', DEMO_TOKEN);
		expect(response.status).toBe(429);
		expect(response.headers.get('retry-after')).toBe('3');
		// No `times`: the rule stays until cleared.
		expect((await v2(sandbox, 'get_folder_info', DEMO_TOKEN)).status).toBe(429);
		await control(sandbox, 'DELETE', 'faults');
		expect((await v2(sandbox, 'get_folder_info', DEMO_TOKEN)).status).toBe(400);
	});

	it('drop-before destroys the connection without applying the write', async () => {
		await addRules([{ match: { path: 'create_folder' }, fault: 'drop-before', times: 1 }]);
		await expect(
			v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'lost' }),
		).rejects.toThrow();
		expect(folderNames()).toEqual([]);
	});

	it('drop-after applies the write, then destroys the connection', async () => {
		sandbox.faults.add({ match: { path: 'create_folder' }, fault: 'drop-after', times: 1 });
		await expect(
			v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'uncertain' }),
		).rejects.toThrow();
		expect(folderNames()).toEqual(['uncertain']);
		const log = sandbox.requests.list().at(-1)!;
		expect(log).toMatchObject({
			action: 'create_folder',
			fault: 'drop-after',
			outcome: 'dropped',
			status: 200,
		});
	});

	it('slow waits, then answers normally', async () => {
		sandbox.faults.add({ match: { path: 'create_folder' }, fault: 'slow', delayMs: 300, times: 1 });
		const started = Date.now();
		expect((await v2(sandbox, 'create_folder', DEMO_TOKEN)).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});

	it('slow-answer applies the write at once and holds back only the answer', async () => {
		sandbox.faults.add({
			match: { path: 'create_folder' },
			fault: 'slow-answer',
			delayMs: 400,
			times: 1,
		});
		const started = Date.now();
		const pending = v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'late answer' });
		let answered = false;
		void pending.then(() => (answered = true));
		// The folder appears while the answer is still held back (synchronised on the write, not on a sleep).
		while (folderNames().length === 0 && !answered)
			await new Promise((resolve) => setImmediate(resolve));
		expect(folderNames()).toEqual(['late answer']);
		expect((await pending).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(390);
	});

	it('matches the action given as a field, the method, and path substrings', async () => {
		sandbox.faults.add([
			{ match: { path: 'create_folder', method: 'GET' }, fault: '500' },
			{ match: { path: '/api/' }, fault: '503' },
		]);
		expect((await v2(sandbox, 'create_folder', DEMO_TOKEN)).status).toBe(200);
		expect((await fetch(`${sandbox.baseUrl}/api/upload_list.php`)).status).toBe(503);
		sandbox.faults.clear();
		sandbox.faults.add({ match: { path: 'create_folder' }, fault: '500', times: 1 });
		const viaField = await fetch(`${sandbox.baseUrl}/api_v2/`, {
			method: 'POST',
			body: new URLSearchParams({ ...DEMO_TOKEN, action: 'create_folder' }),
		});
		expect(viaField.status).toBe(500);
	});

	it('rejects malformed rules with 400', async () => {
		expect(
			(await control(sandbox, 'POST', 'faults', { rules: [{ fault: 'explode' }] })).status,
		).toBe(400);
		expect((await control(sandbox, 'POST', 'faults', { rules: [{ fault: 'slow' }] })).status).toBe(
			400,
		);
		expect(
			(await control(sandbox, 'POST', 'faults', { rules: [{ fault: 'slow-answer' }] })).status,
		).toBe(400);
		for (const random of [
			{ rate: 2, seed: 1, kinds: ['500'] },
			{ rate: 0.1, seed: 1.5, kinds: ['500'] },
			{ rate: 0.1, seed: 1, kinds: [] },
			{ rate: 0.1, seed: 1, kinds: ['explode'] },
			{ rate: 0.1, seed: 1, kinds: ['500'], weights: { explode: 1 } },
			{ rate: 0.1, seed: 1, kinds: ['500'], weights: { '500': -1 } },
			{ rate: 0.1, seed: 1, kinds: ['500'], weights: { '500': 0 } },
		]) {
			const response = await control(sandbox, 'POST', 'faults', {
				random,
				rules: [{ fault: '500' }],
			});
			expect(response.status).toBe(400);
		}
		expect(sandbox.faults.list()).toEqual([]);
		expect(sandbox.faults.randomState()).toBeNull();
	});
});

describe('seeded random faults', () => {
	/** Runs `count` get_folder_info calls and returns the status of each (0 for a dropped connection). */
	async function statuses(count: number): Promise<number[]> {
		const result: number[] = [];
		for (let i = 0; i < count; i++) {
			const response = await v2(sandbox, 'get_folder_info', DEMO_TOKEN).catch(() => undefined);
			result.push(response?.status ?? 0);
		}
		return result;
	}

	it('is deterministic for a seed and hits about the given rate', async () => {
		const random = { rate: 0.3, seed: 42, kinds: ['429', '500', 'drop-before'] };
		const set = await control(sandbox, 'POST', 'faults', { random });
		expect((await readJson(set)).random).toEqual({ ...random, match: {}, hits: 0 });
		const first = await statuses(60);
		sandbox.faults.setRandom(random as never);
		const second = await statuses(60);
		expect(second).toEqual(first);
		const faulted = first.filter((status) => status !== 400);
		expect(faulted.length).toBeGreaterThan(6);
		expect(faulted.length).toBeLessThan(36);
		expect(new Set(faulted)).toEqual(new Set([429, 500, 0]));
		sandbox.faults.setRandom({ ...random, seed: 7 } as never);
		expect(await statuses(60)).not.toEqual(first);
		expect((await readJson(control(sandbox, 'GET', 'faults'))).random.hits).toBeGreaterThan(0);
	});

	it('draws kinds by weight', async () => {
		sandbox.faults.setRandom({ rate: 1, seed: 3, kinds: ['500', '503'], weights: { '503': 0.1 } });
		const drawn = await statuses(60);
		const rare = drawn.filter((status) => status === 503).length;
		expect(drawn.filter((status) => status === 500).length).toBeGreaterThan(45);
		expect(rare).toBeLessThan(15);
		sandbox.faults.setRandom({ rate: 1, seed: 3, kinds: ['500', '503'], weights: { '500': 0 } });
		expect(new Set(await statuses(10))).toEqual(new Set([503]));
	});

	it('honours match, leaves explicit rules first, and is cleared by DELETE faults and reset', async () => {
		sandbox.faults.setRandom({
			rate: 1,
			seed: 1,
			kinds: ['503'],
			match: { path: 'create_folder' },
		});
		expect((await v2(sandbox, 'get_folder_info', DEMO_TOKEN)).status).toBe(400);
		expect((await v2(sandbox, 'create_folder', DEMO_TOKEN)).status).toBe(503);
		sandbox.faults.add({ match: { path: 'create_folder' }, fault: '429', times: 1 });
		expect((await v2(sandbox, 'create_folder', DEMO_TOKEN)).status).toBe(429);
		expect(sandbox.requests.list().at(-1)).toMatchObject({ fault: '429' });
		expect((await v2(sandbox, 'create_folder', DEMO_TOKEN)).status).toBe(503);
		await control(sandbox, 'DELETE', 'faults');
		expect((await v2(sandbox, 'create_folder', DEMO_TOKEN)).status).toBe(200);
		sandbox.faults.setRandom({ rate: 1, seed: 1, kinds: ['500'] });
		sandbox.reset();
		expect((await v2(sandbox, 'create_folder', DEMO_TOKEN)).status).toBe(200);
	});
});

describe('control API', () => {
	it('reports state per account and resets to the seeded accounts', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'Kept', access_type: 'LINK' });
		const state = await readJson(control(sandbox, 'GET', 'state'));
		const demo = state.accounts.find((account: any) => account.username === 'demo');
		expect(demo.folders).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					hash: folder.folder_hash,
					name: 'Kept',
					path: '/Kept',
					accessType: 'LINK',
					deleted: false,
				}),
			]),
		);
		await control(sandbox, 'POST', 'reset');
		const after = await readJson(control(sandbox, 'GET', 'state'));
		expect(after.accounts.map((account: any) => account.username)).toEqual([
			'demo',
			'free',
			'twofa',
			'tasks',
		]);
		expect(after.accounts[0].folders).toHaveLength(1);
	});

	it('logs requests without secrets and flags credentials sent in the URL', async () => {
		await v2(sandbox, 'create_folder', DEMO_TOKEN);
		await fetch(`${sandbox.baseUrl}/api_v2/create_folder?user=demo&pass=demo-password`, {
			method: 'POST',
		});
		const { requests } = await readJson(control(sandbox, 'GET', 'requests'));
		expect(requests).toHaveLength(2);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: '/api_v2/create_folder',
			api: 'v2',
			action: 'create_folder',
			authMethod: 'token:ok',
			status: 200,
			credentialsInUrl: [],
			fields: ['user', 'user_access_token'],
		});
		expect(requests[1]).toMatchObject({
			url: '/api_v2/create_folder?user=demo&pass=***',
			credentialsInUrl: ['pass'],
		});
		expect(JSON.stringify(requests)).not.toMatch(/demo-password|demo-token/);
		await control(sandbox, 'DELETE', 'requests');
		expect((await readJson(control(sandbox, 'GET', 'requests'))).requests).toEqual([]);
	});

	it('creates and updates accounts at runtime', async () => {
		const created = await control(sandbox, 'POST', 'accounts', {
			username: 'carol',
			email: 'carol@example.com',
			password: 'carol-password',
			token: 'carol-token',
			plan: 'PRO',
		});
		expect(created.status).toBe(200);
		expect(
			(await v2(sandbox, 'create_folder', { user: 'carol', user_access_token: 'carol-token' }))
				.status,
		).toBe(200);
		await control(sandbox, 'PATCH', 'accounts', { user: 'carol', fileSizeLimit: 10 });
		expect(sandbox.store.accountByLogin('carol')!.fileSizeLimit).toBe(10);
		expect(
			(await control(sandbox, 'POST', 'accounts', { username: 'carol', email: 'x@y', plan: 'PRO' }))
				.status,
		).toBe(400);
		expect((await control(sandbox, 'GET', 'nothing-here')).status).toBe(404);
	});
});

describe('bulk creation', () => {
	it('creates many folders and files in one call, reachable through the API', async () => {
		const response = await control(sandbox, 'POST', 'bulk', {
			user: 'demo',
			folders: 100,
			filesPerFolder: 20,
		});
		const body = await readJson(response);
		expect(body.folders).toHaveLength(100);
		expect(body.files).toBe(2_000);
		const content = await readJson(
			v2(sandbox, 'get_folder_content', { ...DEMO_TOKEN, folder_hash: body.folders[99].hash }),
		);
		expect(content).toHaveLength(20);
		expect(content[0]).toMatchObject({
			type: 'file',
			name: 'file 1.txt',
			size: expect.any(Number),
		});
		const download = await v2(sandbox, 'download_file', {
			...DEMO_TOKEN,
			file_hash: content[19].hash,
		});
		expect(await download.text()).toBe('Bulk folder 100/file 20.txt\n');
		expect(
			(await control(sandbox, 'POST', 'bulk', { user: 'nobody', folders: 1, filesPerFolder: 1 }))
				.status,
		).toBe(400);
	}, 30_000);
});

describe('a service apart from one client and one clock (the fault tallies)', () => {
	it('moves the Date header, not the stored timestamps, by dateOffsetMs; reset sets it back', async () => {
		sandbox.faults.dateOffsetMs = 5 * 60_000;
		const before = Date.now();
		const answer = await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'dated' });
		const dated = Date.parse(answer.headers.get('date')!);
		expect(dated).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 5 * 60_000);
		const folder = sandbox.store.subfolders(sandbox.store.accountByLogin('demo')!.rootFolderId)[0];
		expect(folder.created * 1000).toBeLessThan(dated - 4 * 60_000);
		sandbox.reset();
		expect(sandbox.faults.dateOffsetMs).toBe(0);
	});

	it('names a taken folder in the style set for the run; clear() restores " (n)"', async () => {
		const { takenNames } = await import('../../sandbox/naming.ts');
		takenNames.style = 'underscore';
		await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'same' });
		await v2(sandbox, 'create_folder', { ...DEMO_TOKEN, folder_name: 'same' });
		expect(folderNames()).toEqual(['same', 'same_1']);
		sandbox.faults.clear();
		expect(takenNames.style).toBe('space-paren');
	});

	it('hands faults.take the JSON body and the file names of a request', async () => {
		const seen: unknown[] = [];
		const take = sandbox.faults.take.bind(sandbox.faults);
		const spy = jest.spyOn(sandbox.faults, 'take').mockImplementation((target) => {
			seen.push(target.json ?? target.fileNames);
			return take(target);
		});
		await fetch(`${sandbox.baseUrl}/api_dvs/task/get_fields`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ user: 'demo', user_access_token: DEMO_TOKEN.user_access_token }),
		});
		spy.mockRestore();
		expect(seen).toEqual([{ user: 'demo', user_access_token: DEMO_TOKEN.user_access_token }]);
	});
});
