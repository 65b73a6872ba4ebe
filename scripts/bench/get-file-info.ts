// Benchmark section: 1,000 items of Get File Info through the Storage node, next to n8n's HTTP
// Request node making the same 1,000 get_file_info calls, in the same n8n against the same sandbox.
// Count: BENCH_INFO_ITEMS (default 1000).
import { runNode, table, type BenchContext, type Section } from './context.ts';

function workflow(
	ctx: BenchContext,
	name: string,
	hashes: string[],
	node: Record<string, unknown>,
) {
	return {
		name,
		nodes: [
			{
				id: 'e0000000-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'e0000000-0000-4000-8000-000000000002',
				name: 'Hashes',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return ${JSON.stringify(hashes)}.map((hash) => ({ json: { hash } }));`,
				},
			},
			{ id: 'e0000000-0000-4000-8000-000000000003', position: [440, 0], ...node },
		],
		connections: {
			Start: { main: [[{ node: 'Hashes', type: 'main', index: 0 }]] },
			Hashes: { main: [[{ node: String(node.name), type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

export async function benchGetFileInfo(ctx: BenchContext): Promise<Section> {
	const count = Number(process.env.BENCH_INFO_ITEMS ?? 1000);
	const { sandbox, account, credential } = ctx;
	const store = sandbox.store;
	const demo = store.accountByLogin(account.username)!;
	const folder = store.createFolder(demo, store.rootOf(demo), 'bench file info', 'PRIVATE');
	const hashes = store
		.bulkCreate(demo, { folders: 0, filesPerFolder: count, parent: folder })
		.files.map((file) => file.hash);
	const storage = workflow(ctx, 'Bench: Get File Info (Storage node)', hashes, {
		name: 'Get File Info',
		type: 'n8n-nodes-cloud-storage.cloudStorage',
		typeVersion: 1,
		parameters: {
			authentication: 'tokenApi',
			resource: 'file',
			operation: 'get',
			file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
			options: {},
		},
		credentials: { [credential.type]: { id: credential.id, name: credential.name } },
	});
	const http = workflow(ctx, 'Bench: Get File Info (HTTP Request node)', hashes, {
		name: 'HTTP Get File Info',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${sandbox.baseUrl}/api_v2/get_file_info`,
			sendBody: true,
			contentType: 'form-urlencoded',
			bodyParameters: {
				parameters: [
					{ name: 'file_hash', value: '={{ $json.hash }}' },
					{ name: 'user', value: account.username },
					{ name: 'user_access_token', value: account.token },
				],
			},
			options: {},
		},
	});
	const runs: Array<{ label: string; ms: number; items: number; requests: number }> = [];
	// Each side once to warm up (node loading, JIT), then measured alternately.
	for (const round of [0, 1, 2]) {
		for (const [label, flow, node] of [
			['Cloud Storage node, Get File Info', storage, 'Get File Info'],
			["n8n's HTTP Request node, same calls", http, 'HTTP Get File Info'],
		] as const) {
			console.error(`get file info: ${label} (round ${round})...`);
			sandbox.requests.clear();
			const result = await runNode(ctx, flow, node);
			const requests = sandbox.requests
				.list()
				.filter((entry) => entry.action === 'get_file_info').length;
			if (result.items.length !== count)
				throw new Error(`${label}: ${result.items.length} of ${count} items`);
			if (round > 0) runs.push({ label, ms: result.ms, items: result.items.length, requests });
		}
	}
	const rows = runs.map((run) => [
		run.label,
		run.items,
		run.requests,
		`${(run.ms / 1000).toFixed(2)} s`,
		`${(run.ms / run.items).toFixed(2)} ms`,
	]);
	const best = (label: string) =>
		Math.min(...runs.filter((run) => run.label === label).map((run) => run.ms));
	const ratio =
		best('Cloud Storage node, Get File Info') / best("n8n's HTTP Request node, same calls");
	const markdown = [
		`${count} input items, one file hash each, one \`get_file_info\` call per item, one after another; two measured rounds each, alternating (after one warm-up run each). ` +
			"Time: n8n's own execution time of the node.",
		'',
		table(['Run', 'Items', 'Requests', 'Time', 'Per item'], rows),
		'',
		`Best of each: the Storage node takes **${ratio.toFixed(2)}×** the HTTP Request node's time (it also resolves the locator, checks the answer and adds the file's web link). ` +
			'Both resolve one `{{ $json.hash }}` expression per item. The HTTP Request node uses no credential: user and token are plain body parameters, so it pays no credential lookup; ' +
			'the Storage node uses its token credential, read and decrypted once per node run.',
	].join('\n');
	return { title: `${count.toLocaleString('en')} Get File Info items`, markdown };
}
