// Benchmark section: DMS Task "Get Many" with Return All over 10,000 tasks inside a real n8n against the
// sandbox, one page after another and with the Parallel Requests option, next to a plain fetch loop over
// the same pages. Requests and time. Each get_documents answer is delayed by BENCH_LATENCY_MS
// (default 25) to stand for the network between n8n and the service; loopback alone hides what
// concurrency saves. Task count: BENCH_TASKS (default 10000).
import { table, type BenchContext, type Section } from './context.ts';

function workflow(credential: { id: string; name: string }, concurrency: number) {
	return {
		name: `DMS Get Many (parallel ${concurrency})`,
		nodes: [
			{
				id: 'a1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'a2',
				name: 'Get Many',
				type: 'n8n-nodes-cloud-storage.cloudStorageDmsTask',
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'task',
					operation: 'getAll',
					returnAll: true,
					options: { concurrency },
				},
				credentials: { cloudStorageTokenApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: { Start: { main: [[{ node: 'Get Many', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

export async function benchDmsGetMany(ctx: BenchContext): Promise<Section> {
	const taskCount = Number(process.env.BENCH_TASKS ?? 10_000);
	const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 25);
	const auth = { user: ctx.account.username, user_access_token: ctx.account.token };
	const { sandbox, n8n, credential } = ctx;
	if (latencyMs > 0)
		sandbox.faults.add([{ match: { path: 'get_documents' }, fault: 'slow', delayMs: latencyMs }]);
	try {
		const seeded = (await (
			await fetch(`${sandbox.baseUrl}/api_dvs/task/get_documents`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ ...auth, limit: 1 }),
			})
		).json()) as { total: number };
		await fetch(`${sandbox.baseUrl}/__sandbox/dms/tasks`, {
			method: 'POST',
			body: JSON.stringify({ count: taskCount - seeded.total }),
		});
		const pages = () =>
			sandbox.requests.list().filter((entry) => entry.action === 'get_documents').length;
		const rows: string[][] = [];
		const row = (label: string, requests: number, items: number, ms: number) =>
			rows.push([label, String(requests), String(items), `${(ms / 1000).toFixed(2)} s`]);

		// The floor: the same 200-item pages fetched one after another with plain fetch, no n8n.
		sandbox.requests.clear();
		let started = performance.now();
		let fetched = 0;
		for (let offset = 0, total = Infinity; offset < total; ) {
			const response = await fetch(`${sandbox.baseUrl}/api_dvs/task/get_documents`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ ...auth, limit: 200, offset }),
			});
			const page = (await response.json()) as { items: unknown[]; total: number };
			total = page.total;
			offset += page.items.length;
			fetched += page.items.length;
			if (page.items.length === 0) break;
		}
		row('Plain fetch, pages one after another', pages(), fetched, performance.now() - started);

		for (const concurrency of [1, 4, 8]) {
			console.error(`dms: parallel ${concurrency}...`);
			const imported = await n8n.client.importWorkflow(workflow(credential, concurrency));
			sandbox.requests.clear();
			started = performance.now();
			const result = await n8n.client.runWorkflow(imported.id, { timeoutMs: 600_000 });
			const wall = performance.now() - started;
			if (result.status !== 'success')
				throw new Error(`run failed: ${JSON.stringify(result).slice(0, 500)}`);
			const runData = ((result.data.resultData as Record<string, unknown>).runData ?? {}) as Record<
				string,
				Array<{ executionTime?: number; data?: { main?: unknown[][] } }>
			>;
			const node = runData['Get Many']?.[0];
			const items =
				node?.data?.main?.[0]?.length ?? result.nodes['Get Many']?.[0]?.outputs[0]?.length ?? 0;
			row(
				`DMS Task node, Parallel Requests ${concurrency}`,
				pages(),
				items,
				Number(node?.executionTime ?? wall),
			);
		}
		const intro =
			`${taskCount.toLocaleString('en')} tasks, 200 per page (at least ${Math.ceil(taskCount / 200)} requests). Each \`get_documents\` answer is delayed by ${latencyMs} ms to stand for the network between n8n and the service (loopback alone hides what concurrency saves). ` +
			"Node rows: n8n's own execution time of the node; the first row is a plain `fetch` loop over the same pages without n8n, the floor.";
		return {
			title: `DMS Get Many over ${taskCount.toLocaleString('en')} tasks`,
			markdown: [intro, '', table(['Run', 'Requests', 'Items', 'Time'], rows)].join('\n'),
		};
	} finally {
		// The report's sections share the sandbox: the added latency stays in this one.
		sandbox.faults.clear();
	}
}
