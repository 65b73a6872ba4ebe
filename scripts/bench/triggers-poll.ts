// Benchmark sections: quiet polls (nothing changed) of the DMS Trigger over BENCH_TASKS (10,000) tasks, with
// Created only (cursor state) and with Updated (a snapshot of every task), and of the E-Signature Trigger over
// BENCH_SIGNED_FILES (200) files in one folder, inside a real n8n against the sandbox. Each answer of
// get_documents / get_esignatures is delayed by BENCH_LATENCY_MS (default 25) to stand for the network.
// A poll is an activation (as in storage-trigger-poll.ts). A quiet poll emits nothing and leaves the state
// as it was, so its end is found by its requests: the expected ones answered and no other within 500 ms.
// Time: from the first request reaching the sandbox to the last answer seen (checked every 5 ms).
import { table, type BenchContext, type Section } from './context.ts';

const QUIET_POLLS = 3;

function workflow(
	name: string,
	type: string,
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
) {
	return {
		name,
		nodes: [
			{
				id: 'd0000000-0000-4000-8000-000000000001',
				name: 'Trigger',
				type: `n8n-nodes-cloud-storage.${type}`,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyHour' }] }, ...parameters },
				credentials: { cloudStorageTokenApi: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Waits until `expected` requests are answered and no other comes for 500 ms; returns when the last was seen (± 5 ms). */
async function settle(ctx: BenchContext, expected: number): Promise<number> {
	const answered = () =>
		ctx.sandbox.requests.list().filter((entry) => entry.status !== null).length;
	const deadline = Date.now() + 300_000;
	let last = -1;
	let stableSince = Date.now();
	for (;;) {
		const count = answered();
		if (count !== last) {
			last = count;
			stableSince = Date.now();
		}
		if (count >= expected && Date.now() - stableSince >= 500) return stableSince;
		if (Date.now() > deadline)
			throw new Error(`timed out: ${count} of ${expected} requests answered`);
		await new Promise((done) => setTimeout(done, 5));
	}
}

/** One poll by activation: requests (by action) and the time from the first request to the last answer. */
async function poll(ctx: BenchContext, id: string, expected: number) {
	ctx.sandbox.requests.clear();
	await ctx.n8n.client.activate(id);
	const lastAnswer = await settle(ctx, expected);
	const list = ctx.sandbox.requests.list();
	await ctx.n8n.client.deactivate(id);
	const counts = new Map<string, number>();
	for (const entry of list)
		counts.set(
			String(entry.action ?? entry.path),
			(counts.get(String(entry.action ?? entry.path)) ?? 0) + 1,
		);
	const ms = lastAnswer - Math.min(...list.map((entry) => entry.at));
	const staticBytes = JSON.stringify(
		(await ctx.n8n.client.getWorkflow(id)).staticData ?? {},
	).length;
	return {
		requests: list.length,
		detail: [...counts].map(([action, n]) => `${n} ${action}`).join(', '),
		ms,
		staticBytes,
	};
}

export async function benchDmsTriggerPoll(ctx: BenchContext): Promise<Section> {
	const taskCount = Number(process.env.BENCH_TASKS ?? 10_000);
	const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 25);
	const { sandbox, n8n, credential } = ctx;
	const auth = { user: ctx.account.username, user_access_token: ctx.account.token };
	const total = async () =>
		(
			(await (
				await fetch(`${sandbox.baseUrl}/api_dvs/task/get_documents`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify({ ...auth, limit: 1 }),
				})
			).json()) as { total: number }
		).total;
	const seeded = await total();
	if (seeded < taskCount)
		await fetch(`${sandbox.baseUrl}/__sandbox/dms/tasks`, {
			method: 'POST',
			body: JSON.stringify({ count: taskCount - seeded }),
		});
	const tasks = await total();
	const pages = Math.ceil(tasks / 200);
	if (latencyMs > 0)
		sandbox.faults.add([{ match: { path: 'get_documents' }, fault: 'slow', delayMs: latencyMs }]);
	const rows: Array<Array<string | number>> = [];
	try {
		for (const [label, events, expected] of [
			['Created only', ['created'], 1],
			['Updated', ['updated'], pages],
		] as const) {
			console.error(`dms trigger: ${label}...`);
			const imported = await n8n.client.importWorkflow(
				workflow(
					`Bench DMS Trigger: ${label}`,
					'cloudStorageDmsTrigger',
					{ resource: 'task', taskEvents: [...events], maxTracked: Math.max(10_000, tasks) },
					credential,
				),
			);
			const first = await poll(ctx, imported.id, expected);
			rows.push([
				label,
				'first (records the state)',
				`${first.requests} (${first.detail})`,
				`${first.ms} ms`,
				`${(first.staticBytes / 1024).toFixed(1)} KiB`,
			]);
			for (let round = 1; round <= QUIET_POLLS; round++) {
				const quiet = await poll(ctx, imported.id, expected);
				rows.push([
					label,
					`quiet #${round}`,
					`${quiet.requests} (${quiet.detail})`,
					`${quiet.ms} ms`,
					`${(quiet.staticBytes / 1024).toFixed(1)} KiB`,
				]);
			}
		}
	} finally {
		sandbox.faults.clear();
	}
	const intro =
		`${tasks.toLocaleString('en')} tasks; get_documents answers delayed by ${latencyMs} ms. Created only stops at the first task older than its cursor; Updated reads the whole register (${pages} pages, 4 at a time). ` +
		"Time: from the poll's first request reaching the sandbox to its last answer. A quiet poll leaves the static data as it was (n8n does not save the workflow).";
	return {
		title: `DMS Trigger quiet poll over ${tasks.toLocaleString('en')} tasks`,
		markdown: [intro, '', table(['Events', 'Poll', 'Requests', 'Time', 'Static data'], rows)].join(
			'\n',
		),
	};
}

export async function benchESignatureTriggerPoll(ctx: BenchContext): Promise<Section> {
	const fileCount = Number(process.env.BENCH_SIGNED_FILES ?? 200);
	const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 25);
	const { sandbox, n8n, credential } = ctx;
	const store = sandbox.store;
	const demo = store.accountByLogin(ctx.account.username)!;
	const folder = store.createFolder(demo, store.rootOf(demo), 'bench signatures', 'PRIVATE');
	const { files } = store.bulkCreate(demo, {
		folders: 0,
		filesPerFolder: fileCount,
		parent: folder,
		filePrefix: 'contract ',
	});
	// A tenth of the files already signed: their requests carry from_date.
	for (const file of files.filter((_, i) => i % 10 === 0)) {
		await fetch(`${sandbox.baseUrl}/__sandbox/signatures`, {
			method: 'POST',
			body: JSON.stringify({ file_hash: file.hash, signer_name: 'Earlier Signer' }),
		});
	}
	if (latencyMs > 0)
		sandbox.faults.add([{ match: { path: 'get_esignatures' }, fault: 'slow', delayMs: latencyMs }]);
	const rows: Array<Array<string | number>> = [];
	try {
		const imported = await n8n.client.importWorkflow(
			workflow(
				'Bench E-Signature Trigger',
				'cloudStorageESignatureTrigger',
				{
					authentication: 'tokenApi',
					watch: 'folder',
					folder: { __rl: true, mode: 'id', value: folder.hash },
					includeSubfolders: false,
				},
				credential,
			),
		);
		const expected = fileCount + 1;
		console.error('esignature trigger...');
		const first = await poll(ctx, imported.id, expected);
		rows.push([
			'first (records the state)',
			`${first.requests} (${first.detail})`,
			`${first.ms} ms`,
			`${(first.staticBytes / 1024).toFixed(1)} KiB`,
		]);
		for (let round = 1; round <= QUIET_POLLS; round++) {
			const quiet = await poll(ctx, imported.id, expected);
			rows.push([
				`quiet #${round}`,
				`${quiet.requests} (${quiet.detail})`,
				`${quiet.ms} ms`,
				`${(quiet.staticBytes / 1024).toFixed(1)} KiB`,
			]);
		}
	} finally {
		sandbox.faults.clear();
	}
	const intro =
		`${fileCount} files in one watched folder (no subfolders), ${Math.ceil(fileCount / 10)} of them signed before; get_esignatures answers delayed by ${latencyMs} ms, 4 in flight at once. ` +
		"One listing plus one get_esignatures per file. Time: from the poll's first request reaching the sandbox to its last answer.";
	return {
		title: `E-Signature Trigger quiet poll over ${fileCount} files`,
		markdown: [intro, '', table(['Poll', 'Requests', 'Time', 'Static data'], rows)].join('\n'),
	};
}
