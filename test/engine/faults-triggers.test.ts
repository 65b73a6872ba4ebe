/**
 * Faults: the Storage, Calendar, Contacts, DMS and E-Signature triggers under churn while polls fail. Between polls files,
 * events and contacts are created, changed and deleted; seeded faults hit the polls (the sandbox's random mode
 * for Storage, a small faulty proxy in front of Radicale for DAV) and some polls fail outright. Every change must
 * come out exactly once over the run: none lost, none twice. Prints the tally.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { prng } from '../sandbox/prng';
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { trashFile } from '../sandbox/trash';
import type { StoredFile } from '../sandbox/types';
import { LAG_SECONDS } from '../../nodes/shared/storage/changes';
import { CALENDAR_TRIGGER, CONTACTS_TRIGGER, byUrl } from '../dav/engine';
import { RADICALE_USER, startRadicale, type Radicale } from '../dav/radicale';
import { PACKAGE_NAME, runPoll } from './harness';

jest.setTimeout(240_000);

const ROUNDS = 24;

/** Expected changes vs emitted events, as "event key" strings compared as multisets. */
function tallyEvents(
	label: string,
	expected: string[],
	emitted: string[],
	polls: { ok: number; failed: number },
) {
	const count = (list: string[]) =>
		list.reduce((map, key) => map.set(key, (map.get(key) ?? 0) + 1), new Map<string, number>());
	const want = count(expected);
	const got = count(emitted);
	const keys = [...want.keys()];
	const lost = keys.filter((key) => (got.get(key) ?? 0) < want.get(key)!);
	const duplicated = keys.filter((key) => (got.get(key) ?? 0) > want.get(key)!);
	const unexpected = [...got.keys()].filter((key) => !want.has(key));
	const asExpected = keys.reduce(
		(sum, key) => sum + Math.min(want.get(key)!, got.get(key) ?? 0),
		0,
	);
	console.log(
		`${label}: changes ${expected.length} · emitted exactly once ${asExpected} · lost ${lost.length} · duplicated ${duplicated.length} · unexpected ${unexpected.length} · polls ok ${polls.ok}, failed ${polls.failed}`,
	);
	expect({ lost, duplicated, unexpected }).toEqual({ lost: [], duplicated: [], unexpected: [] });
	expect(polls.failed).toBeGreaterThan(0);
}

type Credentials = NonNullable<Parameters<typeof runPoll>[1]>['credentials'];

/** Polls carried over like an active workflow: a failed poll keeps the previous static data. */
/**
 * A round of polls under faults: a quarter of all requests fail in every way the transport must survive (reads are
 * retried), and every fourth round the trigger's listing fails `burst` times in a row, failing that poll.
 */
function faultyRound(
	sandbox: Awaited<ReturnType<typeof startSandbox>>,
	round: number,
	seed: number,
	listing: string,
	burst: number,
) {
	sandbox.faults.setRandom({
		rate: 0.25,
		seed: seed + round,
		kinds: ['429', '500', '503', 'drop-before', 'drop-after'],
		retryAfter: 0,
	});
	if (round % 4 === 1)
		sandbox.faults.add({ match: { path: listing }, fault: '429', retryAfter: 0, times: burst });
}

function poller(type: string, parameters: IDataObject, credentials: () => Credentials) {
	let staticData: IDataObject = {};
	const polls = { ok: 0, failed: 0 };
	return {
		polls,
		async next(): Promise<INodeExecutionData[] | 'failed'> {
			try {
				const result = await runPoll(
					{ nodes: [{ name: 'Trigger', type, parameters: parameters as never }], connections: {} },
					{ credentials: credentials(), staticData },
				);
				staticData = result.staticData;
				polls.ok++;
				return result.items;
			} catch {
				polls.failed++;
				return 'failed';
			}
		},
	};
}

describe('Storage Trigger under churn with failing polls', () => {
	let sandbox: Awaited<ReturnType<typeof startSandbox>>;
	let clock = Date.UTC(2031, 4, 6, 7, 8, 9);
	beforeAll(async () => (sandbox = await startSandbox({ port: 0, now: () => clock })));
	afterAll(async () => await sandbox?.close());

	it('emits every created, renamed and deleted file exactly once', async () => {
		const demo = sandbox.store.accountByLogin('demo')!;
		const watched = sandbox.store.createFolder(
			demo,
			sandbox.store.rootOf(demo),
			'churn',
			'PRIVATE',
		);
		const credentials = () => ({
			cloudStorageTokenApi: {
				baseUrl: sandbox.baseUrl,
				webUrl: sandbox.webUrl,
				user: 'demo',
				accessToken: DEMO_ACCOUNT.token,
			},
		});
		const trigger = poller(
			`${PACKAGE_NAME}.cloudStorageTrigger`,
			{
				events: ['fileCreated', 'fileUpdated', 'fileDeleted'],
				folder: { __rl: true, mode: 'id', value: watched.hash },
			},
			credentials,
		);
		expect(await trigger.next()).toEqual([]);

		const random = prng(9201);
		const expected: string[] = [];
		const emitted: string[] = [];
		// Files whose every change so far has been emitted: only those are changed again, so that two changes of
		// one file never fall between the same two successful polls (they would rightly come out as one event).
		const settled: StoredFile[] = [];
		let pending: StoredFile[] = [];
		const record = (items: INodeExecutionData[] | 'failed') => {
			if (items === 'failed') return;
			for (const { json } of items) emitted.push(`${String(json.event)} ${String(json.hash)}`);
			settled.push(...pending);
			pending = [];
		};
		const take = () => settled.splice(Math.floor(random() * settled.length), 1)[0];

		for (let round = 0; round < ROUNDS; round++) {
			clock += 1000;
			for (const file of sandbox.store.bulkCreate(demo, {
				folders: 0,
				filesPerFolder: 1 + Math.floor(random() * 4),
				parent: watched,
				filePrefix: `r${round}-`,
			}).files) {
				expected.push(`fileCreated ${file.hash}`);
				pending.push(file);
			}
			if (settled.length > 2) {
				const renamed = take();
				sandbox.store.renameFile(renamed, `renamed ${round}.txt`);
				expected.push(`fileUpdated ${renamed.hash}`);
				pending.push(renamed);
				const deleted = take();
				trashFile(sandbox.store, deleted);
				expected.push(`fileDeleted ${deleted.hash}`);
			}
			faultyRound(sandbox, round, 9300, 'get_upload_tree', 10);
			record(await trigger.next());
			sandbox.faults.clear();
		}
		// Quiet polls past the service's lag: whatever is still due comes out now.
		clock += (LAG_SECONDS + 1) * 1000;
		record(await trigger.next());
		record(await trigger.next());
		tallyEvents('Storage Trigger', expected, emitted, trigger.polls);
	});
});

describe('DMS and E-Signature triggers under churn with failing polls', () => {
	let sandbox: Awaited<ReturnType<typeof startSandbox>>;
	let clock = Date.UTC(2031, 4, 6, 7, 8, 9);
	beforeAll(async () => (sandbox = await startSandbox({ port: 0, now: () => clock })));
	afterAll(async () => await sandbox?.close());
	const credentials = () => ({
		cloudStorageTokenApi: {
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			user: 'demo',
			accessToken: DEMO_ACCOUNT.token,
		},
	});

	async function dms(action: string, params: Record<string, unknown>): Promise<number> {
		const response = await fetch(`${sandbox.baseUrl}/api_dvs/task/${action}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ user: 'demo', user_access_token: DEMO_ACCOUNT.token, ...params }),
		});
		expect(response.status).toBe(200);
		return Number(((await response.json()) as { dvs_document_id: number }).dvs_document_id);
	}

	it('DMS Trigger: emits every created task and status change exactly once', async () => {
		const trigger = poller(
			`${PACKAGE_NAME}.cloudStorageDmsTrigger`,
			{ resource: 'task', taskEvents: ['created', 'statusChanged'] },
			credentials,
		);
		expect(await trigger.next()).toEqual([]);
		const random = prng(9601);
		const expected: string[] = [];
		const emitted: string[] = [];
		const status = new Map<number, number>();
		const settled: number[] = [];
		let pending: number[] = [];
		const record = (items: INodeExecutionData[] | 'failed') => {
			if (items === 'failed') return;
			for (const { json } of items)
				emitted.push(`${String(json.event)} ${String(json.dvs_document_id)}`);
			settled.push(...pending);
			pending = [];
		};
		for (let round = 0; round < ROUNDS; round++) {
			clock += 1000;
			for (let i = 0; i < 1 + Math.floor(random() * 3); i++) {
				const id = await dms('create_document', {
					create_params: { dvs_project_id: 11, name: `churn ${round}.${i}`, dropdown_status: 31 },
				});
				status.set(id, 31);
				expected.push(`taskCreated ${id}`);
				pending.push(id);
			}
			if (settled.length > 1) {
				// Only tasks whose every change was emitted change again: two changes between the same two
				// successful polls would rightly come out as one.
				const [id] = settled.splice(Math.floor(random() * settled.length), 1);
				const next = status.get(id) === 33 ? 31 : status.get(id)! + 1;
				await dms('update_document', {
					dvs_document_id: id,
					update_params: { dropdown_status: next },
				});
				status.set(id, next);
				expected.push(`taskStatusChanged ${id}`);
				pending.push(id);
			}
			faultyRound(sandbox, round, 9700, 'get_documents', 10);
			record(await trigger.next());
			sandbox.faults.clear();
		}
		record(await trigger.next());
		tallyEvents('DMS Trigger', expected, emitted, trigger.polls);
	});

	it('E-Signature Trigger: emits every signature exactly once, the same signer twice included', async () => {
		const demo = sandbox.store.accountByLogin('demo')!;
		const watched = sandbox.store.createFolder(
			demo,
			sandbox.store.rootOf(demo),
			'signed churn',
			'PRIVATE',
		);
		const files = sandbox.store.bulkCreate(demo, {
			folders: 0,
			filesPerFolder: 6,
			parent: watched,
			filePrefix: 'contract-',
		}).files;
		const trigger = poller(
			`${PACKAGE_NAME}.cloudStorageESignatureTrigger`,
			{ watch: 'folder', folder: { __rl: true, mode: 'id', value: watched.hash } },
			credentials,
		);
		expect(await trigger.next()).toEqual([]);
		const random = prng(9801);
		const expected: string[] = [];
		const emitted: string[] = [];
		const record = (items: INodeExecutionData[] | 'failed') => {
			if (items === 'failed') return;
			for (const { json } of items)
				emitted.push(
					`${String(json.file_hash)} ${String(json.signer_name)} ${String(json.signing_timestamp)}`,
				);
		};
		const sign = async (file: StoredFile, signer: string) => {
			const response = await fetch(`${sandbox.baseUrl}/__sandbox/signatures`, {
				method: 'POST',
				body: JSON.stringify({ file_hash: file.hash, signer_name: signer }),
			});
			const added = (await response.json()) as { signing_timestamp: string };
			expected.push(`${file.hash} ${signer} ${added.signing_timestamp}`);
		};
		for (let round = 0; round < ROUNDS; round++) {
			clock += 1000;
			if (round % 5 === 2)
				files.push(
					...sandbox.store.bulkCreate(demo, {
						folders: 0,
						filesPerFolder: 1,
						parent: watched,
						filePrefix: `late-${round}-`,
					}).files,
				);
			for (let i = 0; i < 1 + Math.floor(random() * 3); i++) {
				const file = files[Math.floor(random() * files.length)];
				const signer = `Signer ${Math.floor(random() * 3)}`;
				await sign(file, signer);
				// Now and then the same signer signs the same file again within the same second.
				if (random() < 0.2) await sign(file, signer);
			}
			faultyRound(sandbox, round, 9900, 'get_esignatures', 40);
			record(await trigger.next());
			sandbox.faults.clear();
		}
		record(await trigger.next());
		tallyEvents('E-Signature Trigger', expected, emitted, trigger.polls);
	});
});

describe('Calendar and Contacts triggers under churn with failing polls', () => {
	let radicale: Radicale;
	let proxy: Server;
	let proxyUrl: string;
	// The proxy's faults: a share of requests answered 503 or dropped before reaching Radicale; a whole poll
	// fails while `failAll` is set.
	let faultRandom = prng(9401);
	let faultRate = 0;
	let failAll = false;
	beforeAll(async () => {
		radicale = await startRadicale();
		proxy = createServer((req, res) => {
			if (failAll || faultRandom() < faultRate) {
				if (!failAll && faultRandom() < 0.5) return void req.socket.destroy();
				res.writeHead(503, { 'retry-after': '0' }).end();
				return;
			}
			const upstream = request(
				new URL(req.url ?? '/', radicale.url),
				{ method: req.method, headers: { ...req.headers, host: `127.0.0.1:${radicale.port}` } },
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			req.pipe(upstream);
		});
		await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
		proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
	});
	afterAll(async () => {
		await new Promise((resolve) => proxy?.close(resolve));
		await radicale?.stop();
	});

	const credentials = () => ({
		cloudStorageDavApi: {
			davUrl: proxyUrl,
			username: RADICALE_USER.username,
			password: RADICALE_USER.password,
		},
	});
	const viaProxy = (url: string) => url.replace(radicale.url, proxyUrl);

	const cases = [
		{
			label: 'Calendar Trigger',
			type: CALENDAR_TRIGGER,
			make: async () => await radicale.mkcalendar('churn-cal'),
			parameters: (collection: string) => ({
				calendar: byUrl(viaProxy(collection)),
				trigger: 'changes',
				events: ['created', 'updated', 'deleted'],
			}),
			ext: 'ics',
			body: (uid: string, text: string) =>
				[
					'BEGIN:VCALENDAR',
					'VERSION:2.0',
					'PRODID:-//Other//EN',
					'BEGIN:VEVENT',
					`UID:${uid}`,
					'DTSTAMP:20300101T000000Z',
					'DTSTART:20300301T090000Z',
					'DURATION:PT30M',
					`SUMMARY:${text}`,
					'END:VEVENT',
					'END:VCALENDAR',
					'',
				].join('\r\n'),
			contentType: 'text/calendar',
		},
		{
			label: 'Contacts Trigger',
			type: CONTACTS_TRIGGER,
			make: async () => await radicale.mkaddressbook('churn-book'),
			parameters: (collection: string) => ({
				addressBook: byUrl(viaProxy(collection)),
				events: ['created', 'updated', 'deleted'],
			}),
			ext: 'vcf',
			body: (uid: string, text: string) =>
				[
					'BEGIN:VCARD',
					'VERSION:3.0',
					`UID:${uid}`,
					`FN:${text}`,
					`N:${text};;;;`,
					'END:VCARD',
					'',
				].join('\r\n'),
			contentType: 'text/vcard',
		},
	];

	it.each(cases)(
		'$label emits every created, updated and deleted object exactly once',
		async ({ label, type, make, parameters, ext, body, contentType }) => {
			const collection = await make();
			const trigger = poller(type, parameters(collection), credentials);
			expect(await trigger.next()).toEqual([]);

			const random = prng(9501);
			faultRandom = prng(9601);
			const expected: string[] = [];
			const emitted: string[] = [];
			const settled: string[] = [];
			let pending: string[] = [];
			const record = (items: INodeExecutionData[] | 'failed') => {
				if (items === 'failed') return;
				for (const { json } of items)
					emitted.push(`${String(json.event)} ${String(json.url).replace(proxyUrl, radicale.url)}`);
				settled.push(...pending);
				pending = [];
			};
			const take = () => settled.splice(Math.floor(random() * settled.length), 1)[0];
			const put = async (url: string, uid: string, text: string) =>
				expect(
					(
						await radicale.send('PUT', url, {
							body: body(uid, text),
							headers: { 'Content-Type': contentType },
						})
					).status,
				).toBeLessThan(300);

			for (let round = 0; round < ROUNDS; round++) {
				const created = 1 + Math.floor(random() * 3);
				for (let j = 0; j < created; j++) {
					const url = `${collection}r${round}-${j}.${ext}`;
					await put(url, `r${round}-${j}`, `Round ${round} #${j}`);
					expected.push(`created ${url}`);
					pending.push(url);
				}
				if (settled.length > 2) {
					const updated = take();
					await put(updated, /([^/]+)\.\w+$/.exec(updated)![1], `Updated in round ${round}`);
					expected.push(`updated ${updated}`);
					pending.push(updated);
					const deleted = take();
					expect((await radicale.send('DELETE', deleted)).status).toBeLessThan(300);
					expected.push(`deleted ${deleted}`);
				}
				faultRate = 0.25;
				failAll = round % 4 === 1;
				record(await trigger.next());
				faultRate = 0;
				failAll = false;
			}
			record(await trigger.next());
			tallyEvents(label, expected, emitted, trigger.polls);
		},
	);
});
