// Benchmark section: 1,000 items of Get File Info through the Storage node, next to n8n's HTTP
// Request node making the same 1,000 get_file_info calls (without and with a credential), in the same n8n
// against the same sandbox. Count: BENCH_INFO_ITEMS (default 1000).
import { readFileSync } from 'node:fs';

import { runNode, table, type BenchContext, type Section } from './context.ts';

/** CPU time (user + system, ms) a process has used so far, from /proc (clock ticks of 10 ms); NaN elsewhere. */
function cpuMs(pid: number): number {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return NaN;
	}
}

export function workflow(
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
	// The same node with Parallel Requests 8: up to eight items' requests in flight, output in input order.
	const storageParallel = workflow(
		ctx,
		'Bench: Get File Info (Storage node, Parallel Requests 8)',
		hashes,
		{
			name: 'Get File Info',
			type: 'n8n-nodes-cloud-storage.cloudStorage',
			typeVersion: 1,
			parameters: {
				authentication: 'tokenApi',
				resource: 'file',
				operation: 'get',
				file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
				options: { concurrency: 8 },
			},
			credentials: { [credential.type]: { id: credential.id, name: credential.name } },
		},
	);
	const httpParameters = {
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
	};
	const http = workflow(ctx, 'Bench: Get File Info (HTTP Request node)', hashes, {
		name: 'HTTP Get File Info',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: httpParameters,
	});
	// The same calls with a credential, as the Storage node has one: a Header Auth credential whose header the
	// sandbox ignores (user and token stay body parameters), so the node pays for reading a credential.
	const header = await ctx.n8n.client.createCredential('httpHeaderAuth', 'Bench header', {
		name: 'X-Bench',
		value: 'unused',
	});
	const httpWithCredential = workflow(
		ctx,
		'Bench: Get File Info (HTTP Request node, Header Auth)',
		hashes,
		{
			name: 'HTTP Get File Info',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				...httpParameters,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
			},
			credentials: { httpHeaderAuth: { id: header.id, name: header.name } },
		},
	);
	const STORAGE = 'Cloud Storage node, Get File Info';
	const STORAGE_PARALLEL = 'Cloud Storage node, Get File Info, Parallel Requests 8';
	const HTTP = "n8n's HTTP Request node, same calls, no credential";
	const HTTP_CREDENTIAL = "n8n's HTTP Request node, same calls, Header Auth credential";
	const runs: Array<{ label: string; ms: number; cpuMs: number; items: number; requests: number }> =
		[];
	// Each once to warm up (node loading, JIT), then measured alternately.
	for (const round of [0, 1, 2]) {
		for (const [label, flow, node] of [
			[STORAGE, storage, 'Get File Info'],
			[STORAGE_PARALLEL, storageParallel, 'Get File Info'],
			[HTTP, http, 'HTTP Get File Info'],
			[HTTP_CREDENTIAL, httpWithCredential, 'HTTP Get File Info'],
		] as const) {
			console.error(`get file info: ${label} (round ${round})...`);
			sandbox.requests.clear();
			const cpuBefore = cpuMs(ctx.n8n.main.pid);
			const result = await runNode(ctx, flow, node);
			const cpu = cpuMs(ctx.n8n.main.pid) - cpuBefore;
			const requests = sandbox.requests
				.list()
				.filter((entry) => entry.action === 'get_file_info').length;
			if (result.items.length !== count)
				throw new Error(`${label}: ${result.items.length} of ${count} items`);
			if (round > 0)
				runs.push({ label, ms: result.ms, cpuMs: cpu, items: result.items.length, requests });
		}
	}
	const rows = runs.map((run) => [
		run.label,
		run.items,
		run.requests,
		`${(run.ms / 1000).toFixed(2)} s`,
		`${(run.ms / run.items).toFixed(2)} ms`,
		`${(run.cpuMs / 1000).toFixed(2)} s`,
	]);
	const best = (label: string, of: 'ms' | 'cpuMs' = 'ms') =>
		Math.min(...runs.filter((run) => run.label === label).map((run) => run[of]));
	const ratio = best(STORAGE) / best(HTTP);
	const ratioCredential = best(STORAGE) / best(HTTP_CREDENTIAL);
	const parallelRatio = best(STORAGE_PARALLEL) / best(HTTP);
	const parallelRatioCredential = best(STORAGE_PARALLEL) / best(HTTP_CREDENTIAL);
	const cpuRatio = best(STORAGE, 'cpuMs') / best(HTTP, 'cpuMs');
	const markdown = [
		`${count} input items, one file hash each, one \`get_file_info\` call per item; two measured rounds each, alternating (after one warm-up run each). ` +
			"Time: n8n's own execution time of the node. n8n CPU: CPU time of n8n's main process during the whole workflow run (the node, the trigger, the Code node's hand-off), from /proc.",
		'',
		table(['Run', 'Items', 'Requests', 'Time', 'Per item', 'n8n CPU'], rows),
		'',
		`Best of each: the Storage node takes **${ratio.toFixed(2)}×** the HTTP Request node's time without a credential and ${ratioCredential.toFixed(2)}× its time with one; ` +
			`its n8n CPU is ${cpuRatio.toFixed(2)}× the HTTP Request node's (without a credential). ` +
			'Both resolve one `{{ $json.hash }}` expression per item. The Storage node also resolves the locator, checks the answer and adds the web link; it sends the requests one after another, ' +
			"each after the previous answer, and resolves the next item's expression while it waits for an answer; the HTTP Request node starts all of them at once and then waits for the answers together. Both overlap n8n's work with the service's. " +
			"The HTTP Request node sends each request through n8n's request helper, which opens a new connection for it and runs it through axios; the Storage node sends its requests itself over one connection kept open for the whole run. " +
			'Without a credential the HTTP Request node pays no credential lookup (user and token are plain body parameters); with the Header Auth credential it reads and decrypts the credential for every item. ' +
			'The Storage node uses its token credential, read and decrypted once per node run, and reads the parameters without an expression once per run.',
		'',
		`With the Parallel Requests option at 8 (up to eight items' requests in flight, the first item alone first, output in input order), the Storage node takes **${parallelRatio.toFixed(2)}×** the HTTP Request node's time without a credential and ${parallelRatioCredential.toFixed(2)}× its time with one.`,
	].join('\n');
	return { title: `${count.toLocaleString('en')} Get File Info items`, markdown };
}
