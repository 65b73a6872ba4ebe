// Benchmark section: the Storage node and n8n's HTTP Request node behind a forwarding proxy (forward-proxy.ts, its
// own process), set in n8n's environment as a user would: HTTP_PROXY and HTTPS_PROXY, NO_PROXY unset. 1,000 Get
// File Info items and a 1 GiB download, each node against the same proxy; the proxy counts what passed through it,
// so a row whose requests bypassed the proxy fails instead of being reported. Sizes: BENCH_PROXY_INFO_ITEMS
// (default 1000), BENCH_PROXY_SIZE_MB (default 1024).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

import { runNode, table, type BenchContext, type Section } from './context.ts';
import { workflow } from './get-file-info.ts';
import { cpuDuring, growthDuring, withPeakRss } from './rss.ts';
import { curlUpload, makeFile, settleDisk, warmPages, WARM_SPARE } from './storage-transfer.ts';
import { transferWorkflows } from './transfer-workflows.ts';

const MB = 1024 * 1024;

type Counts = { requests: Record<string, number>; tunnels: number; bytesDown: number };

async function startProxy(root: string): Promise<{
	url: string;
	counts(): Promise<Counts>;
	reset(): Promise<void>;
	stop(): Promise<void>;
}> {
	const child: ChildProcess = spawn(
		process.execPath,
		[join(root, 'scripts/bench/forward-proxy.ts')],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
	const url = `http://127.0.0.1:${Number(line)}`;
	return {
		url,
		counts: async () => (await (await fetch(`${url}/__counts`)).json()) as Counts,
		reset: async () => {
			await (await fetch(`${url}/__reset`, { method: 'POST' })).arrayBuffer();
		},
		stop: async () => {
			child.kill('SIGTERM');
			if (child.exitCode === null) await once(child, 'exit');
		},
	};
}

/** How many requests for `action` went through the proxy (absolute-URI requests), and how many tunnels opened. */
function through(counts: Counts, action: string): string {
	const requests = counts.requests[`/api_v2/${action}`] ?? 0;
	return counts.tunnels ? `${requests} (+${counts.tunnels} CONNECT tunnels)` : String(requests);
}

export async function benchBehindProxy(ctx: BenchContext): Promise<Section> {
	const items = Number(process.env.BENCH_PROXY_INFO_ITEMS ?? 1000);
	const sizeMb = Number(process.env.BENCH_PROXY_SIZE_MB ?? 1024);
	const { sandbox, account } = ctx;
	const store = sandbox.store;
	const demo = store.accountByLogin(account.username)!;
	const folder = store.createFolder(demo, store.rootOf(demo), 'bench proxy', 'PRIVATE');
	const proxy = await startProxy(ctx.root);
	// As a user behind a proxy sets it: both schemes. The sandbox is plain http on loopback, so n8n's rule
	// (proxy-from-env, which does not exempt loopback) sends it through HTTP_PROXY; NO_PROXY must not name it.
	// Both cases (the lower one wins in that rule), and npm's own settings, which come first in it, emptied: the
	// benchmark's environment (`npm run` adds npm's settings) is inherited.
	const env = {
		npm_config_http_proxy: '',
		npm_config_https_proxy: '',
		npm_config_no_proxy: '',
		HTTP_PROXY: proxy.url,
		http_proxy: proxy.url,
		HTTPS_PROXY: proxy.url,
		https_proxy: proxy.url,
		NO_PROXY: '',
		no_proxy: '',
	};
	const rows: string[][] = [];
	let infoRatio = NaN;
	let parallelRatio = NaN;
	const file = join(ctx.work, 'proxy-payload.bin');
	try {
		// Get File Info: one n8n behind the proxy, each node once to warm up, then two rounds alternating.
		const hashes = store
			.bulkCreate(demo, { folders: 0, filesPerFolder: items, parent: folder })
			.files.map((entry) => entry.hash);
		const infoN8n = await ctx.freshN8n({ env });
		try {
			const local = { ...ctx, n8n: infoN8n.n8n, credential: infoN8n.credential };
			const storage = workflow(local, 'Bench: Get File Info behind a proxy', hashes, {
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
				credentials: {
					[infoN8n.credential.type]: { id: infoN8n.credential.id, name: infoN8n.credential.name },
				},
			});
			// The same node with Parallel Requests 8, as in the direct section: the HTTP Request node has all of its
			// items' requests in flight at once, the Storage node one at a time unless asked.
			const parallel = workflow(
				local,
				'Bench: Get File Info behind a proxy (Parallel Requests 8)',
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
					credentials: {
						[infoN8n.credential.type]: {
							id: infoN8n.credential.id,
							name: infoN8n.credential.name,
						},
					},
				},
			);
			const http = workflow(local, 'Bench: HTTP Get File Info behind a proxy', hashes, {
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
			const labels = {
				storage: `Get File Info, ${items} items: Cloud Storage node, HTTPS_PROXY and HTTP_PROXY set`,
				parallel: `Get File Info, ${items} items: Cloud Storage node, Parallel Requests 8, HTTPS_PROXY and HTTP_PROXY set`,
				http: `Get File Info, ${items} items: n8n's HTTP Request node (same calls, no credential), HTTPS_PROXY and HTTP_PROXY set`,
			};
			const best: Record<string, { ms: number; cpuMs: number; through: string }> = {};
			for (const round of [0, 1, 2]) {
				for (const [key, flow, node] of [
					['storage', storage, 'Get File Info'],
					['parallel', parallel, 'Get File Info'],
					['http', http, 'HTTP Get File Info'],
				] as const) {
					console.error(`proxy: ${labels[key]} (round ${round})...`);
					await proxy.reset();
					const { result, samples } = await withPeakRss(infoN8n.n8n.main.pid, () =>
						runNode(local, flow, node),
					);
					const counts = await proxy.counts();
					const passed = counts.requests['/api_v2/get_file_info'] ?? 0;
					if (result.items.length !== items)
						throw new Error(`${labels[key]}: ${result.items.length} of ${items} items`);
					if (passed < items && counts.tunnels === 0)
						throw new Error(
							`${labels[key]}: only ${passed} of ${items} requests went through the proxy`,
						);
					const cpuMs = cpuDuring(samples, result.startTime, result.startTime + result.ms);
					if (round > 0 && (!best[key] || result.ms < best[key].ms))
						best[key] = { ms: result.ms, cpuMs, through: through(counts, 'get_file_info') };
				}
			}
			for (const key of ['storage', 'parallel', 'http'] as const)
				rows.push([
					labels[key],
					`${(best[key].ms / 1000).toFixed(2)} s`,
					`${(best[key].ms / items).toFixed(2)} ms per item`,
					best[key].through,
					`${(best[key].cpuMs / 1000).toFixed(2)} s`,
					'—',
				]);
			infoRatio = best.storage.ms / best.http.ms;
			parallelRatio = best.parallel.ms / best.http.ms;
		} finally {
			await infoN8n.n8n.stop();
		}

		// The download: the file is put into the sandbox by curl (directly), then each node downloads it in a
		// freshly started n8n behind the proxy, into n8n's filesystem store, and curl through the same proxy.
		console.error(`proxy: preparing ${sizeMb} MiB...`);
		await makeFile(file, sizeMb * MB);
		const hash = await curlUpload(sandbox.baseUrl, folder.hash, account, file);
		rmSync(file);
		const download = async (label: string, node: 'Download' | 'HTTP Download') => {
			console.error(`proxy: ${label}...`);
			const fresh = await ctx.freshN8n({ env });
			try {
				const local = { ...ctx, n8n: fresh.n8n, credential: fresh.credential };
				const flows = transferWorkflows({
					file,
					folderHash: folder.hash,
					baseUrl: sandbox.baseUrl,
					account,
					credential: fresh.credential,
				});
				const flow = node === 'Download' ? flows.storageDownload(hash) : flows.httpDownload(hash);
				await settleDisk();
				await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
				await proxy.reset();
				const { result, samples } = await withPeakRss(fresh.n8n.main.pid, () =>
					runNode(local, flow, node),
				);
				const counts = await proxy.counts();
				const size = Number(
					(result.items[0] as { binary?: { data?: { bytes?: number } } } | undefined)?.binary?.data
						?.bytes ?? NaN,
				);
				if (counts.bytesDown < sizeMb * MB)
					throw new Error(`${label}: only ${counts.bytesDown} bytes came through the proxy`);
				const during = growthDuring(samples, result.startTime, result.startTime + result.ms);
				const cpuMs = cpuDuring(samples, result.startTime, result.startTime + result.ms);
				console.error(
					`proxy: ${label}: ${(result.ms / 1000).toFixed(2)} s, ${size} bytes stored, n8n's CPU ${(cpuMs / 1000).toFixed(2)} s`,
				);
				rows.push([
					label,
					`${(result.ms / 1000).toFixed(2)} s`,
					`${((sizeMb / result.ms) * 1000).toFixed(1)} MiB/s`,
					through(counts, 'download_file'),
					`${(cpuMs / 1000).toFixed(2)} s`,
					`${(during / MB).toFixed(1)} MiB`,
				]);
			} finally {
				await fresh.n8n.stop();
			}
		};
		const sizeLabel = sizeMb >= 1024 ? `${sizeMb / 1024} GiB` : `${sizeMb} MiB`;
		await download(
			`Download ${sizeLabel}: Cloud Storage node, HTTPS_PROXY and HTTP_PROXY set`,
			'Download',
		);
		await download(
			`Download ${sizeLabel}: n8n's HTTP Request node, HTTPS_PROXY and HTTP_PROXY set`,
			'HTTP Download',
		);
		// curl through the same proxy, into a file, as the ceiling.
		const copy = join(ctx.work, 'proxy-curl.bin');
		await settleDisk();
		await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
		await proxy.reset();
		const started = performance.now();
		await promisify(execFile)('curl', [
			'-sS',
			'-x',
			proxy.url,
			'-o',
			copy,
			'-d',
			`file_hash=${hash}`,
			'-d',
			`user=${account.username}`,
			'-d',
			`user_access_token=${account.token}`,
			`${sandbox.baseUrl}/api_v2/download_file`,
		]);
		const curlMs = performance.now() - started;
		rmSync(copy, { force: true });
		rows.push([
			`Download ${sizeLabel}: curl through the same proxy`,
			`${(curlMs / 1000).toFixed(2)} s`,
			`${((sizeMb / curlMs) * 1000).toFixed(1)} MiB/s`,
			through(await proxy.counts(), 'download_file'),
			'—',
			'—',
		]);
	} finally {
		await proxy.stop();
		rmSync(file, { force: true });
	}
	return {
		title: 'Behind a proxy: Get File Info and a download',
		markdown: [
			"n8n started with `HTTPS_PROXY` and `HTTP_PROXY` naming a local forwarding proxy (`scripts/bench/forward-proxy.ts`, a separate Node.js process: absolute-URI requests forwarded with `node:http`, CONNECT tunnelled), in both cases, with `NO_PROXY` (and npm's own proxy settings, which n8n's rule reads first) empty, as a user behind a proxy sets it; nothing else changed. The sandbox is plain http on loopback, so n8n's proxy rule (proxy-from-env, which exempts no loopback address) sends it through `HTTP_PROXY`; a real service over https would go through `HTTPS_PROXY` the same way. " +
				'The proxy counts the requests that passed through it (a row whose requests did not is an error, not a figure). ' +
				`Get File Info: one n8n, each node once to warm up, then the best of two rounds alternating; time is n8n's own execution time of the node, n8n CPU that process's over the node's run. ` +
				"Download: each node in a freshly started n8n, into n8n's filesystem store (its default outside queue mode); memory: n8n main's peak RSS growth during the node; curl downloads through the same proxy into a file, after the same warm memory (see the transfer section).",
			'',
			table(
				[
					'Run',
					'Time',
					'Per item / throughput',
					'Requests through the proxy',
					"n8n's CPU during the node",
					'RSS growth during the node',
				],
				rows,
			),
			'',
			`Get File Info behind the proxy: the Storage node takes **${infoRatio.toFixed(2)}×** the HTTP Request node's time (best of each); with Parallel Requests 8, **${parallelRatio.toFixed(2)}×**. The HTTP Request node has every item's request in flight at once; the Storage node sends one at a time unless Parallel Requests says otherwise (its default keeps the service's rate limits and the order of side effects simple).`,
		].join('\n'),
	};
}
