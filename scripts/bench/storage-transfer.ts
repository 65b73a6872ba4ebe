// Benchmark section: a large file uploaded and downloaded through the Storage node inside a
// real n8n, side by side with n8n's built-in HTTP Request node and with curl, against the sandbox. Wall
// time, throughput, share of curl's throughput, the n8n main process's peak RSS growth and its event loop's
// delay during the transfer. Size: BENCH_SIZE_MB (default 1024). Queue mode is its own section (queue-mode.ts).
import { execFile } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import {
	createWriteStream,
	existsSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	statfsSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';

import { runNode, table, type BenchContext, type Section } from './context.ts';
import { cpuDuring, growthDuring, memoryReturns, ownCpuDuring, withPeakRss } from './rss.ts';
import { transferWorkflows, type Warm } from './transfer-workflows.ts';

const MB = 1024 * 1024;

export async function makeFile(path: string, bytes: number) {
	const out = createWriteStream(path);
	for (let written = 0; written < bytes; written += 4 * MB) {
		const chunk = randomBytes(4 * MB);
		if (!out.write(written + chunk.length <= bytes ? chunk : chunk.subarray(0, bytes - written)))
			await once(out, 'drain');
	}
	out.end();
	await once(out, 'finish');
}

/**
 * The n8n main process's JavaScript heap, from its Prometheus metrics: the least of a few samples, since
 * the figure also counts garbage not yet collected.
 */
async function n8nHeapBytes(baseUrl: string): Promise<number> {
	let least = Infinity;
	for (let sample = 0; sample < 5; sample++) {
		const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
		const match =
			/^n8n_nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)|^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(
				metrics,
			);
		if (!match) throw new Error('n8n /metrics has no heap size');
		least = Math.min(least, Number(match[1] ?? match[2]));
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return least;
}

/** A bare Node.js transfer in its own process (see plain-transfer.ts); asynchronous like curl, for the same reason. */
async function plainTransfer(
	root: string,
	direction: 'upload' | 'download',
	url: string,
	body: string,
	file: string,
	heapMb: number,
): Promise<number> {
	const script = join(root, 'scripts/bench/plain-transfer.ts');
	const { stdout } = await promisify(execFile)(
		process.execPath,
		[script, direction, url, body, file, String(heapMb)],
		{ maxBuffer: 1024 * 1024 },
	);
	return Number(stdout.trim().split(' ')[0]);
}

/**
 * Waits until the disk has written what earlier transfers left in the page cache (the sandbox keeps every
 * upload on disk), so no transfer pays for the one before it.
 */
export async function settleDisk(): Promise<void> {
	await promisify(execFile)('sync');
}

/**
 * This virtual machine hands memory back to its host (virtio-balloon free page reporting), and taking such pages
 * again costs the kernel about 2 s per GiB written into a new file (1 GiB in 512 KiB writes: 0.25-0.4 s right
 * after as much was freed, 2-3 s once the page cache had grown by 10 GiB, as it does over this benchmark). A
 * download writes its file into such pages: curl, which ran right after the previous n8n's store was deleted, got
 * warm ones, and a node, which ran after n8n's start-up, cold ones (its download took 2-4 s instead of 1). The
 * stand-in's writes of an upload met the same. Filling and freeing as much memory just before each timed transfer
 * (for a node's upload: in the workflow, after Read/Write Files, see transferWorkflows) gives every client the same
 * warm pages, as on a machine without a balloon. The memory is a file in /dev/shm (no disk writes to wait for), or
 * in `dir` if /dev/shm is missing or too small.
 */
export async function warmPages(dir: string, bytes: number): Promise<void> {
	const { path, blocks } = warmTarget(dir, bytes);
	try {
		await promisify(execFile)('dd', [
			'if=/dev/zero',
			`of=${path}`,
			`bs=${WARM_BLOCK}`,
			`count=${blocks}`,
			'status=none',
		]);
	} finally {
		rmSync(path, { force: true });
	}
}

const WARM_BLOCK = 8 * MB;

/** Where warmPages writes (see there) and how many 8 MiB blocks. */
function warmTarget(dir: string, bytes: number): Warm {
	const shm = '/dev/shm';
	const roomy =
		existsSync(shm) && statfsSync(shm).bavail * statfsSync(shm).bsize > bytes + WARM_SPARE;
	return {
		path: join(roomy ? shm : dir, `bench-warm-${process.pid}.bin`),
		blocks: Math.ceil(bytes / WARM_BLOCK),
	};
}

/** Room for the downloaded file and what else the run writes meanwhile (n8n's execution data, logs). */
export const WARM_SPARE = 256 * MB;

const ROUNDS = Math.max(1, Number(process.env.BENCH_TRANSFER_ROUNDS ?? 3));

/**
 * An upload by a node uploads the copy Read/Write Files wrote into n8n's store just before, while the disk is
 * still writing it (1 GiB of pending writes made curl's own upload about a fifth slower on this machine). The
 * uploads outside n8n get the same start: a copy of the file written just before, after the disk has settled.
 */
async function freshCopy(file: string, dir: string): Promise<string> {
	await settleDisk();
	await mkdir(dir, { recursive: true });
	const copy = join(dir, basename(file));
	rmSync(copy, { force: true });
	await copyFile(file, copy);
	return copy;
}

/** An untimed upload by curl (the file the downloads read); answers the new file's hash. */
export async function curlUpload(
	baseUrl: string,
	folderHash: string,
	account: { username: string; token: string },
	file: string,
): Promise<string> {
	const fields = [
		`folder_hash=${folderHash}`,
		`user=${account.username}`,
		`user_access_token=${account.token}`,
		`file=@${file}`,
	];
	const { stdout } = await promisify(execFile)(
		'curl',
		['-sS', ...fields.flatMap((field) => ['-F', field]), `${baseUrl}/api_v2/upload_file`],
		{ maxBuffer: 1024 * 1024 },
	);
	const answer = JSON.parse(stdout) as { file_hash?: string; hash?: string };
	return String(answer.file_hash ?? answer.hash);
}

/** curl runs asynchronously: the sandbox lives in this process and must keep serving while curl talks to it. */
async function curl(args: string[], output = '/dev/null'): Promise<number> {
	const own = process.cpuUsage();
	const started = performance.now();
	const { stdout } = await promisify(execFile)(
		'curl',
		['-sS', '-o', output, '-w', '%{http_code}', ...args],
		{ maxBuffer: 1024 * 1024 },
	);
	if (!/^2/.test(stdout)) throw new Error(`curl answered ${stdout}`);
	const ms = performance.now() - started;
	const standIn = process.cpuUsage(own);
	console.error(
		`transfer: curl: ${(ms / 1000).toFixed(2)} s, the stand-in's CPU ${(standIn.user / 1e6).toFixed(2)} s user + ${(standIn.system / 1e6).toFixed(2)} s system`,
	);
	return ms;
}

export async function benchStorageTransfer(ctx: BenchContext): Promise<Section> {
	const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 1024);
	const { sandbox, account } = ctx;
	const file = join(ctx.work, 'payload.bin');
	console.error(`transfer: preparing ${sizeMb} MiB...`);
	await makeFile(file, sizeMb * MB);
	const store = sandbox.store;
	const demo = store.accountByLogin(account.username)!;
	const folder = store.createFolder(demo, store.rootOf(demo), 'bench transfer', 'PRIVATE');
	const options = { folderHash: folder.hash, baseUrl: sandbox.baseUrl, account };
	const warmFile = join(ctx.work, 'warm-up.bin');
	await makeFile(warmFile, MB);
	// The sandbox keeps every upload on disk: over a run, some 17 GiB of page cache, which grows into memory this
	// machine has handed back to its host and makes every later write slower (see warmPages). Each timed upload's
	// file is removed once it is measured; only the file the downloads read stays.
	let downloadSource = '';
	const dropUploads = () => {
		for (const stored of store.filesIn(folder.id))
			if (stored.hash !== downloadSource) rmSync(stored.blobPath, { force: true });
	};

	// Each transfer runs in a freshly started n8n: a process keeps the memory an earlier transfer made it
	// take, so in a shared one whichever ran second would look as if it needed none. A 1 MiB upload by the
	// same kind of node first loads that node's code.
	const timedOnce = async (
		label: string,
		build: (flows: ReturnType<typeof transferWorkflows>) => Record<string, unknown>,
		node: string,
		env: Record<string, string> = {},
	) => {
		console.error(`transfer: ${label}...`);
		const loopDir = mkdtempSync(join(ctx.work, 'loop-'));
		const upload = node.includes('Upload');
		// The warm-up Code node (see transferWorkflows) runs dd.
		const codeEnv: Record<string, string> = upload
			? { NODE_FUNCTION_ALLOW_BUILTIN: 'child_process' }
			: {};
		const fresh = await ctx.freshN8n({
			env: { ...loopDelayEnv(ctx.root, loopDir), ...codeEnv, ...env },
		});
		try {
			const local = { ...ctx, n8n: fresh.n8n, credential: fresh.credential };
			const warm = transferWorkflows({ file: warmFile, ...options, credential: fresh.credential });
			await runNode(
				local,
				node.startsWith('HTTP') ? warm.httpUpload : warm.storageUpload,
				node.startsWith('HTTP') ? 'HTTP Upload' : 'Upload',
			);
			const workflow = build(
				transferWorkflows({
					file,
					...options,
					credential: fresh.credential,
					warm: upload ? warmTarget(ctx.work, sizeMb * MB + WARM_SPARE) : undefined,
				}),
			);
			const heapBytes = await n8nHeapBytes(fresh.n8n.baseUrl);
			await settleDisk();
			if (node.includes('Download')) await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
			const { result, peakGrowth, samples } = await withPeakRss(fresh.n8n.main.pid, () =>
				runNode(local, workflow, node),
			);
			// The preload writes its samples every 500 ms.
			await new Promise((resolve) => setTimeout(resolve, 1200));
			const loop = loopDelay(
				loopDir,
				fresh.n8n.main.pid,
				result.startTime,
				result.startTime + result.ms,
				memoryReturns(samples),
			);
			const nodeGrowth = growthDuring(samples, result.startTime, result.startTime + result.ms);
			const nodeCpuMs = cpuDuring(samples, result.startTime, result.startTime + result.ms);
			const standIn = ownCpuDuring(samples, result.startTime, result.startTime + result.ms);
			console.error(
				`transfer: ${label}: ${(result.ms / 1000).toFixed(2)} s, n8n's CPU ${(nodeCpuMs / 1000).toFixed(2)} s, ` +
					`the stand-in's CPU ${(standIn.userMs / 1000).toFixed(2)} s user + ${(standIn.systemMs / 1000).toFixed(2)} s system, ` +
					`longest loop stall ${loop?.worst ?? '—'}`,
			);
			return {
				ms: result.ms,
				peakGrowth,
				nodeGrowth,
				nodeCpuMs,
				items: result.items,
				heapBytes,
				loop,
			};
		} finally {
			await fresh.n8n.stop();
			rmSync(loopDir, { recursive: true, force: true });
			if (upload) dropUploads();
		}
	};

	const direction = process.env.BENCH_TRANSFER;
	if (direction === 'upload' || direction === 'download')
		return await pathsSideBySide(ctx, direction, {
			sizeMb,
			file,
			folderHash: folder.hash,
			timed: timedOnce,
			keep: (hash) => {
				downloadSource = hash;
			},
			dropUploads,
		});

	const copies = join(ctx.work, 'fresh-copy');
	downloadSource = await curlUpload(sandbox.baseUrl, folder.hash, account, file);
	// The two ways an upload of a file on disk can go (see transferPath), and the HTTP Request node.
	const uploads = await inRounds(
		{
			main: () => timedOnce('Storage node upload', (flows) => flows.storageUpload, 'Upload'),
			helper: () =>
				timedOnce(
					"Storage node upload, n8n's request helper",
					(flows) => flows.storageUpload,
					'Upload',
					{ CLOUD_STORAGE_WORKER_TRANSFERS: 'false' },
				),
			http: () => timedOnce('HTTP Request node upload', (flows) => flows.httpUpload, 'HTTP Upload'),
		},
		async () => {
			const uploaded = await freshCopy(file, copies);
			await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
			const ms = await curl([
				'-F',
				`folder_hash=${folder.hash}`,
				'-F',
				`user=${account.username}`,
				'-F',
				`user_access_token=${account.token}`,
				'-F',
				`file=@${uploaded}`,
				`${sandbox.baseUrl}/api_v2/upload_file`,
			]);
			dropUploads();
			return ms;
		},
	);
	const { main: storageUp, helper: helperUp, http: httpUp } = uploads.best;
	const curlUp = uploads.curl;
	const fileHash = downloadSource;
	// Into a file on the same disk, as n8n's binary store does: the same transfer, not a copy to /dev/null.
	const curlCopy = join(ctx.work, 'curl-download.bin');
	// The two ways a download into n8n's filesystem store can go (see transferPath), and the HTTP Request node.
	const downloads = await inRounds(
		{
			helper: () =>
				timedOnce(
					'Storage node download, streaming',
					(flows) => flows.storageDownload(fileHash),
					'Download',
					{ CLOUD_STORAGE_WORKER_TRANSFERS: 'false' },
				),
			main: () =>
				timedOnce('Storage node download', (flows) => flows.storageDownload(fileHash), 'Download'),
			http: () =>
				timedOnce(
					'HTTP Request node download',
					(flows) => flows.httpDownload(fileHash),
					'HTTP Download',
				),
		},
		async () => {
			await settleDisk();
			await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
			const ms = await curl(
				[
					'-d',
					`file_hash=${fileHash}`,
					'-d',
					`user=${account.username}`,
					'-d',
					`user_access_token=${account.token}`,
					`${sandbox.baseUrl}/api_v2/download_file`,
				],
				curlCopy,
			);
			rmSync(curlCopy);
			return ms;
		},
	);
	const { helper: storageDown, main: mainDown, http: httpDown } = downloads.best;
	const curlDown = downloads.curl;
	const heapMb = Math.round(storageDown.heapBytes / MB);
	const auth = { user: account.username, user_access_token: account.token };
	const downloadForm = new URLSearchParams({ file_hash: fileHash, ...auth }).toString();
	const uploadForm = new URLSearchParams({ folder_hash: folder.hash, ...auth }).toString();
	const plainCopy = join(ctx.work, 'plain-download.bin');
	const plain: Record<string, number> = {};
	for (const [label, heap] of [
		['empty', 0],
		['held', heapMb],
	] as const) {
		console.error(`transfer: bare Node.js client, ${label} heap...`);
		const uploaded = await freshCopy(file, copies);
		await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
		plain[`upload-${label}`] = await plainTransfer(
			ctx.root,
			'upload',
			`${sandbox.baseUrl}/api_v2/upload_file`,
			uploadForm,
			uploaded,
			heap,
		);
		dropUploads();
		await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
		plain[`download-${label}`] = await plainTransfer(
			ctx.root,
			'download',
			`${sandbox.baseUrl}/api_v2/download_file`,
			downloadForm,
			plainCopy,
			heap,
		);
		rmSync(plainCopy);
	}
	const bytes = statSync(file).size;
	rmSync(file);
	rmSync(copies, { recursive: true, force: true });

	const row = (
		label: string,
		ms: number,
		curlMs: number,
		run?: { peakGrowth: number; nodeGrowth: number; nodeCpuMs: number; loop?: LoopDelay },
	) => [
		label,
		`${(ms / 1000).toFixed(2)} s`,
		`${((sizeMb / ms) * 1000).toFixed(1)} MiB/s`,
		`${((curlMs / ms) * 100).toFixed(0)} %`,
		run ? `${(run.nodeCpuMs / 1000).toFixed(2)} s` : '—',
		run ? `${(run.peakGrowth / MB).toFixed(1)} MiB` : '—',
		run ? `${(run.nodeGrowth / MB).toFixed(1)} MiB` : '—',
		maxCell(run?.loop),
		run?.loop ? `${run.loop.p99Ms.toFixed(0)} ms` : '—',
	];
	const markdown = [
		`${sizeMb} MiB (${bytes} bytes) of random bytes, uploaded from a file read by n8n's Read/Write Files node and downloaded into n8n's binary store (filesystem mode). ` +
			`Node rows: n8n's own execution time of that node. Every node and curl row is the fastest of ${ROUNDS} rounds (BENCH_TRANSFER_ROUNDS), and curl runs in every round right after the node rows: this shared virtual machine's speed varies from one minute to the next, and a slow minute then falls on the nodes and curl alike. ` +
			"Each transfer runs in a freshly started n8n (after a 1 MiB upload by the same node, which loads its code). RSS growth: that n8n main process's peak resident memory, sampled every 20 ms, over the whole run (the Read/Write Files node included, which copies the file into n8n's binary store through fresh buffers) above its level before the run, and during the node's own run (as n8n records it) above its level when the node started. n8n's CPU time during the node: the user and system time of that n8n process, every thread included (V8's garbage collector, Node's thread pool, a transfer thread), from /proc over the node's run: what the transfer costs the machine n8n runs on, besides its time. " +
			'curl runs on the same machine against the same sandbox, as the ceiling: it uploads the same file and downloads into a file on the same disk. ' +
			"Like the node rows, which upload the copy n8n's Read/Write Files node has just written into n8n's store, curl and the bare clients upload a copy of the file written just before (1 GiB of writes the disk has not finished made curl's upload about a fifth slower on this machine).",
		'',
		table(
			[
				'Transfer',
				'Time',
				'Throughput',
				'Share of curl',
				"n8n's CPU time during the node",
				'Peak RSS growth: whole run',
				'during the node',
				'Event loop delay: max',
				'p99',
			],
			[
				row(
					'Upload: Cloud Storage node, main thread through reused buffers (the default in filesystem mode)',
					storageUp.ms,
					curlUp,
					storageUp,
				),
				row(
					"Upload: Cloud Storage node, n8n's request helper (CLOUD_STORAGE_WORKER_TRANSFERS=false; the other binary modes)",
					helperUp.ms,
					curlUp,
					helperUp,
				),
				row("Upload: n8n's HTTP Request node", httpUp.ms, curlUp, httpUp),
				row('Upload: curl', curlUp, curlUp),
				row('Upload: bare Node.js client, empty heap', plain['upload-empty'], curlUp),
				row(
					`Upload: bare Node.js client holding ${heapMb} MiB of heap, as n8n's main does`,
					plain['upload-held'],
					curlUp,
				),
				row(
					'Download: Cloud Storage node, main thread through reused buffers (the default in filesystem mode)',
					mainDown.ms,
					curlDown,
					mainDown,
				),
				row(
					"Download: Cloud Storage node, n8n's request helper (CLOUD_STORAGE_WORKER_TRANSFERS=false; the other binary modes)",
					storageDown.ms,
					curlDown,
					storageDown,
				),
				row("Download: n8n's HTTP Request node", httpDown.ms, curlDown, httpDown),
				row('Download: curl', curlDown, curlDown),
				row('Download: bare Node.js client, empty heap', plain['download-empty'], curlDown),
				row(
					`Download: bare Node.js client holding ${heapMb} MiB of heap, as n8n's main does`,
					plain['download-held'],
					curlDown,
				),
			],
		),
		'',
		"The bare Node.js rows are a plain `http.request` (with `form-data` for the upload) streaming from or into a file in a separate Node.js process, once with an empty heap and once holding as much heap as n8n's main process had before the Storage node's download (least of five samples of its `/metrics`). " +
			'Each socket read is a fresh buffer counted as external memory; every ~64 MiB of it makes V8 run a full mark-compact, whose cost grows with the live heap. ' +
			"That, not the node's code, is what holds a transfer inside n8n (this node and n8n's own HTTP Request node alike) below curl's speed.",
		'',
		`Upload of a file in n8n's filesystem store, by default: the node reads the file itself into four reused 1 MiB buffers, each filled again only once the socket has sent it, and writes them to its own socket (\`node:net\`/\`node:tls\`, the same HTTP/1.1 client and strict parser as the download), on n8n's main thread. No chunk is a fresh buffer, so V8 has no garbage to collect n8n's big heap for: ${(helperUp.ms / storageUp.ms).toFixed(2)}× the speed of streaming through n8n's request helper in this run (which the other binary modes use: their data is not a file the node may read), with ${(helperUp.nodeCpuMs / Math.max(storageUp.nodeCpuMs, 10)).toFixed(1)}× less of n8n's CPU time. The gain in time is capped by the stand-in, which receives the upload on the same 2 cores: curl itself took ${(helperUp.ms / curlUp).toFixed(2)}× less time than the helper. ` +
			"With a proxy configured the upload goes through n8n's helper, which honours it (the worker-thread upload of earlier reports offered nothing the default lacks and was removed). " +
			"Before each upload timed here (and curl's and the bare clients'), `sync` waits until the disk has written the earlier uploads the sandbox stored, and once measured each upload's bytes are removed from the sandbox (only the file the downloads read, uploaded by curl before the rounds, stays): kept, they grew the page cache by some 17 GiB over a run, into memory this virtual machine had handed back to its host (see the next sentence). " +
			"Each timed upload then gets warm memory for the stand-in's writes, filled and freed just before it as for a download: by a Code node between Read/Write Files and the upload node in n8n (its time is not the upload's), by the benchmark right before curl and the bare clients. Without that, the default upload took 3.4-4.3 s in an upload-only run, with curl at 2.2 s. " +
			"Before each download timed here (the nodes', curl's and the bare clients'), the benchmark fills and frees as much memory as the file in /dev/shm: this virtual machine hands unused memory back to its host, and a file written into such pages cost about 2 s more per GiB (1 GiB in 512 KiB writes: 0.25-0.4 s into warm pages, 2-3 s into cold ones); without it curl, which ran right after the previous n8n's store was deleted, got warm pages and each node, after n8n's start-up, cold ones (the default download took 2-4 s where it takes 1 s).",
		'',
		`Download into n8n's filesystem store, by default: the node reads the answer on its own connection straight into two reused 1 MiB buffers (Node's \`onread\`), parses HTTP/1.1 itself, and hands each filled part to n8n's \`prepareBinaryData\`, pausing the socket while n8n still writes both; no chunk is a fresh buffer, and there is no thread, temporary file or second copy: ${(storageDown.ms / mainDown.ms).toFixed(2)}× the speed of streaming through n8n's request helper in this run, with ${(storageDown.nodeCpuMs / Math.max(mainDown.nodeCpuMs, 10)).toFixed(1)}× less of n8n's CPU time. ` +
			"It is safe because n8n's filesystem store writes each chunk before it asks for the next; the node checks the stored copy afterwards (its size, and a CRC-32 over every byte read back from it, included in the time above) and downloads again through n8n's request helper if n8n kept other bytes. " +
			"With a proxy configured the download goes through n8n's helper, which honours it as n8n's HTTP Request node does (the worker-thread download of earlier reports was removed so that each direction has one path beside the helper).",
		'',
		"Event loop delay: how late n8n's main process ran a 10 ms timer (the quantity `perf_hooks.monitorEventLoopDelay` samples), from a preload (`scripts/bench/loop-delay.cjs`, `NODE_OPTIONS=--require`) inside that n8n (its main thread only: Node loads the preload into worker threads too), over the node's run as n8n recorded it (start time + execution time). While it is late, every other workflow, webhook and the editor wait too. " +
			"Only the part of a stall inside the node's run counts. This virtual machine's kernel hands freed memory back to its host about 2 s after it was freed, and n8n's loop stalled for 14-111 ms while it did, in every path alike: a stall that began at most 150 ms after the kernel's counter of memory handed back (/sys/module/page_reporting/parameters/reported_kib, sampled every 20 ms) moved, or during which it moved, is also left out of the figure in brackets.",
	].join('\n');
	return {
		title: `Storage: ${sizeMb >= 1024 ? `${sizeMb / 1024} GiB` : `${sizeMb} MiB`} upload and download`,
		markdown,
	};
}

type Timed = (
	label: string,
	build: (flows: ReturnType<typeof transferWorkflows>) => Record<string, unknown>,
	node: string,
	env?: Record<string, string>,
) => Promise<{
	ms: number;
	peakGrowth: number;
	nodeGrowth: number;
	nodeCpuMs: number;
	items: Array<{ json: Record<string, unknown> }>;
	heapBytes: number;
	loop?: LoopDelay;
}>;

type Run = Awaited<ReturnType<Timed>>;

/**
 * Every row is the fastest of BENCH_TRANSFER_ROUNDS rounds (default 3), and curl runs in every round right after
 * the nodes: this shared virtual machine's speed varies from one minute to the next, and a slow minute then falls
 * on the nodes and curl alike rather than on whichever happened to run in it.
 */
async function inRounds<K extends string>(
	runs: Record<K, () => Promise<Run>>,
	curlRun: () => Promise<number>,
): Promise<{ best: Record<K, Run>; curl: number }> {
	const best = {} as Record<K, Run>;
	let curlBest = Infinity;
	for (let round = 0; round < ROUNDS; round++) {
		for (const key of Object.keys(runs) as K[]) {
			const run = await runs[key]();
			if (!best[key] || run.ms < best[key].ms) best[key] = run;
		}
		const ms = await curlRun();
		console.error(`transfer: round ${round + 1}: curl ${(ms / 1000).toFixed(2)} s`);
		curlBest = Math.min(curlBest, ms);
	}
	return { best, curl: curlBest };
}

/**
 * BENCH_TRANSFER=upload or download: that direction's paths only, in rounds with curl: n8n's request helper and the
 * main thread through reused buffers (see transferPath). For the download the file is put into the sandbox with
 * curl first.
 */
async function pathsSideBySide(
	ctx: BenchContext,
	direction: 'upload' | 'download',
	{
		sizeMb,
		file,
		folderHash,
		timed,
		keep,
		dropUploads,
	}: {
		sizeMb: number;
		file: string;
		folderHash: string;
		timed: Timed;
		/** The file the downloads read, kept when `dropUploads` removes the others' bytes. */
		keep: (hash: string) => void;
		dropUploads: () => void;
	},
): Promise<Section> {
	const { sandbox, account } = ctx;
	const auth = [`user=${account.username}`, `user_access_token=${account.token}`];
	const uploadArgs = (path: string) => [
		...[`folder_hash=${folderHash}`, ...auth, `file=@${path}`].flatMap((field) => ['-F', field]),
		`${sandbox.baseUrl}/api_v2/upload_file`,
	];
	const copies = join(ctx.work, 'fresh-copy');
	let fileHash = '';
	if (direction === 'download') {
		fileHash = await curlUpload(sandbox.baseUrl, folderHash, account, file);
		keep(fileHash);
	}
	const Direction = direction === 'upload' ? 'Upload' : 'Download';
	const node = (label: string, env: Record<string, string>) => () =>
		timed(
			`${Direction}: Cloud Storage node, ${label}`,
			(flows) => (direction === 'upload' ? flows.storageUpload : flows.storageDownload(fileHash)),
			Direction,
			env,
		);
	const labels: Record<string, string> = {
		helper: "n8n's request helper",
		main: 'main thread through reused buffers (the default)',
	};
	const copy = join(ctx.work, 'curl-download.bin');
	const runs: Record<string, ReturnType<typeof node>> = {
		helper: node(labels.helper, { CLOUD_STORAGE_WORKER_TRANSFERS: 'false' }),
		main: node(labels.main, {}),
	};
	const { best, curl: curlBest } = await inRounds(runs, async () => {
		if (direction === 'upload') {
			const uploaded = await freshCopy(file, copies);
			await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
			const ms = await curl(uploadArgs(uploaded));
			dropUploads();
			return ms;
		}
		await settleDisk();
		await warmPages(ctx.work, sizeMb * MB + WARM_SPARE);
		const ms = await curl(
			[
				...[`file_hash=${fileHash}`, ...auth].flatMap((field) => ['-d', field]),
				`${sandbox.baseUrl}/api_v2/download_file`,
			],
			copy,
		);
		rmSync(copy, { force: true });
		return ms;
	});
	rmSync(file, { force: true });
	rmSync(copies, { recursive: true, force: true });
	const rows = Object.keys(labels).map((key) => {
		const run = best[key];
		return [
			`${Direction}: Cloud Storage node, ${labels[key]}`,
			`${(run.ms / 1000).toFixed(2)} s`,
			`${((sizeMb / run.ms) * 1000).toFixed(1)} MiB/s`,
			`${((curlBest / run.ms) * 100).toFixed(0)} %`,
			`${(best.helper.ms / run.ms).toFixed(2)}×`,
			`${(run.nodeCpuMs / 1000).toFixed(2)} s`,
			`${(run.peakGrowth / MB).toFixed(1)} MiB`,
			`${(run.nodeGrowth / MB).toFixed(1)} MiB`,
			maxCell(run.loop),
			run.loop ? `${run.loop.p99Ms.toFixed(0)} ms` : '—',
		];
	});
	rows.push([
		`${Direction}: curl`,
		`${(curlBest / 1000).toFixed(2)} s`,
		`${((sizeMb / curlBest) * 1000).toFixed(1)} MiB/s`,
		'100 %',
		...Array<string>(6).fill('—'),
	]);
	return {
		title: `Storage: ${sizeMb} MiB ${direction} paths side by side`,
		markdown: table(
			[
				'Transfer (best of rounds)',
				'Time',
				'Throughput',
				'Share of curl',
				"vs n8n's helper",
				"n8n's CPU time during the node",
				'Peak RSS growth: whole run',
				'during the node',
				'Event loop delay: max',
				'p99',
			],
			rows,
		),
	};
}

interface LoopDelay {
	/** The longest stall, and when it ended: for the log. */
	worst: string;
	maxMs: number;
	/** The longest stall that did not meet the machine handing memory back to its host (see loopDelay). */
	apartMs: number;
	p99Ms: number;
	samples: number;
}

/** The report's cell for the maximum: with the figure apart from the machine's memory hand-back when it differs. */
function maxCell(loop: LoopDelay | undefined): string {
	if (!loop) return '—';
	const max = `${loop.maxMs.toFixed(0)} ms`;
	return loop.apartMs.toFixed(0) === loop.maxMs.toFixed(0)
		? max
		: `${max} (${loop.apartMs.toFixed(0)} ms apart from the VM's memory hand-back)`;
}

function loopDelayEnv(root: string, dir: string): Record<string, string> {
	const preload = `--require ${join(root, 'scripts/bench/loop-delay.cjs')}`;
	return {
		NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
		BENCH_LOOP_DELAY_DIR: dir,
	};
}

/**
 * Max and p99 of the main process's timer lateness between `from` and `to` (epoch ms). A timer `delay` ms late at
 * `time` means the loop was blocked from `time - delay` to `time`; only the part of that inside the window counts,
 * so a stall of the node before (n8n taking in the previous node's output) is not charged to this one.
 * `returns`: when this machine's kernel handed memory back to its host (`memoryReturns`). It does so about 2 s
 * after memory was freed, and n8n's loop then stalled for 14-111 ms in upload runs whose warm-up (see warmPages)
 * left such memory, 6-7 ms without the warm-up. A stall that began at most 150 ms after such a return was seen, or
 * during which one was seen (the counter, sampled every 20 ms, moved 55-141 ms before those stalls ended), counts
 * for the maximum but not for the maximum apart from the hand-back.
 */
function loopDelay(
	dir: string,
	pid: number,
	from: number,
	to: number,
	returns: number[],
): LoopDelay | undefined {
	const file = join(dir, `loop-${pid}.log`);
	if (!existsSync(file) || !Number.isFinite(from) || !Number.isFinite(to)) return undefined;
	const stalls = readFileSync(file, 'utf8')
		.split('\n')
		.map((line) => line.split(' ').map(Number))
		.filter(([time, delay]) => time >= from && time - delay <= to && Number.isFinite(delay))
		.map(([time, delay]) => ({
			delay: Math.max(0, Math.min(time, to) - Math.max(time - delay, from)),
			end: time,
			handBack: returns.some((at) => at >= time - delay - 150 && at <= time + 25),
		}));
	if (stalls.length === 0) return undefined;
	const worst = stalls.reduce((a, b) => (b.delay > a.delay ? b : a));
	const delays = stalls.map((stall) => stall.delay).sort((a, b) => a - b);
	const apart = stalls.filter((stall) => !stall.handBack).map((stall) => stall.delay);
	return {
		worst: `${worst.delay.toFixed(0)} ms ending ${(worst.end - from).toFixed(0)} ms into the node's run${worst.handBack ? ', as the VM handed memory back' : ''}`,
		maxMs: delays[delays.length - 1],
		apartMs: Math.max(0, ...apart),
		p99Ms: delays[Math.min(delays.length - 1, Math.floor(delays.length * 0.99))],
		samples: delays.length,
	};
}
