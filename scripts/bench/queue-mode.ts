// Benchmark section: queue mode with n8n's defaults (main + one worker + Redis, binary data in n8n's database,
// capped at 512 MiB), the Storage node next to n8n's HTTP Request node. A file under the cap goes up and comes back
// through the worker, each transfer in a freshly started queue-mode n8n (a process keeps memory an earlier transfer
// made it take); a file over the cap must fail before its transfer, naming the limit and the settings.
// Size: BENCH_QUEUE_SIZE_MB (default 256). BENCH_QUEUE=0 (or BENCH_ONLY without `queue`) skips it;
// BENCH_QUEUE_OVER_CAP=0 skips the over-cap row.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { runNode, table, type BenchContext, type Section } from './context.ts';
import { growthDuring, withPeakRss } from './rss.ts';
import { curlUpload, makeFile } from './storage-transfer.ts';
import { transferWorkflows } from './transfer-workflows.ts';

const MB = 1024 * 1024;

type RunData = Record<string, Array<{ startTime?: number; executionTime?: number }>>;

export async function benchQueueMode(ctx: BenchContext): Promise<Section> {
	const underMb = Number(process.env.BENCH_QUEUE_SIZE_MB ?? 256);
	const { sandbox, account } = ctx;
	const store = sandbox.store;
	const demo = store.accountByLogin(account.username)!;
	const folder = store.createFolder(demo, store.rootOf(demo), 'bench queue', 'PRIVATE');
	const folderHash = folder.hash;
	const file = join(ctx.work, 'queue-payload.bin');
	const warmFile = join(ctx.work, 'queue-warm-up.bin');
	await makeFile(file, underMb * MB);
	await makeFile(warmFile, MB);
	const sourceHash = await curlUpload(sandbox.baseUrl, folderHash, account, file);
	const rows: string[][] = [];
	/** The Read/Write Files node's growth putting the file into n8n's store, per byte of the file. */
	const storeCosts: number[] = [];

	/** One transfer in a fresh queue-mode n8n, after a 1 MiB upload by the same node (it loads that node's code). */
	const timed = async (
		label: string,
		pick: (flows: ReturnType<typeof transferWorkflows>) => Record<string, unknown>,
		node: string,
	) => {
		console.error(`queue mode: ${label}...`);
		const fresh = await ctx.freshN8n({ mode: 'queue' });
		try {
			const local = { ...ctx, n8n: fresh.n8n, credential: fresh.credential };
			const flows = (path: string) =>
				transferWorkflows({
					file: path,
					folderHash,
					baseUrl: sandbox.baseUrl,
					account,
					credential: fresh.credential,
				});
			const http = node.startsWith('HTTP');
			const warm = flows(warmFile);
			await runNode(
				local,
				http ? warm.httpUpload : warm.storageUpload,
				http ? 'HTTP Upload' : 'Upload',
			);
			const worker = fresh.n8n.worker!.pid;
			const { result, peakGrowth, samples } = await withPeakRss(worker, () =>
				runNode(local, pick(flows(file)), node),
			);
			const during = growthDuring(samples, result.startTime, result.startTime + result.ms);
			// An upload's workflow first has n8n's Read/Write Files node put the file into n8n's database store.
			const runData = (result.result.data.resultData as { runData?: RunData }).runData ?? {};
			const read = runData['Read File']?.[0];
			const readGrowth =
				read?.startTime !== undefined && read.executionTime !== undefined
					? growthDuring(samples, read.startTime, read.startTime + read.executionTime)
					: undefined;
			if (readGrowth !== undefined) storeCosts.push(readGrowth / (underMb * MB));
			console.error(
				`queue mode: ${label}: ${(result.ms / 1000).toFixed(2)} s, worker RSS +${(during / MB).toFixed(0)} MiB during the node, +${(peakGrowth / MB).toFixed(0)} MiB over the run`,
			);
			rows.push([
				label,
				'works',
				`${(result.ms / 1000).toFixed(2)} s`,
				`${((underMb / result.ms) * 1000).toFixed(1)} MiB/s`,
				`${(during / MB).toFixed(1)} MiB (${(during / (underMb * MB)).toFixed(1)}× the file)`,
				readGrowth === undefined ? '—' : `${(readGrowth / MB).toFixed(1)} MiB`,
				`${(peakGrowth / MB).toFixed(1)} MiB`,
			]);
			return during / (underMb * MB);
		} finally {
			await fresh.n8n.stop();
		}
	};

	const upStorage = await timed(
		`Upload ${underMb} MiB: Cloud Storage node`,
		(f) => f.storageUpload,
		'Upload',
	);
	const upHttp = await timed(
		`Upload ${underMb} MiB: n8n's HTTP Request node`,
		(f) => f.httpUpload,
		'HTTP Upload',
	);
	const downStorage = await timed(
		`Download ${underMb} MiB: Cloud Storage node`,
		(f) => f.storageDownload(sourceHash),
		'Download',
	);
	const downHttp = await timed(
		`Download ${underMb} MiB: n8n's HTTP Request node`,
		(f) => f.httpDownload(sourceHash),
		'HTTP Download',
	);
	rmSync(file, { force: true });
	// Every upload's bytes leave the sandbox's disk (the page cache would otherwise grow; see storage-transfer.ts).
	for (const stored of store.filesIn(folder.id)) rmSync(stored.blobPath, { force: true });

	if (process.env.BENCH_QUEUE_OVER_CAP !== '0') rows.push(await overCap(ctx, folderHash));
	return {
		title: `Queue mode, n8n's default binary mode (database, capped at 512 MiB)`,
		markdown: [
			"n8n main + one worker + Redis (SQLite, as n8n's default database), manual runs sent to the worker, no binary-data setting changed. " +
				'Each transfer runs in a freshly started n8n, after a 1 MiB upload by the same node (which loads its code). ' +
				"Worker RSS growth: the worker's resident memory (it runs the node), sampled every 20 ms: during the node's own run (as n8n records it) above its level when the node started, and over the whole run. " +
				"An upload's whole run includes n8n's Read/Write Files node putting the file into n8n's database store first.",
			'',
			table(
				[
					'Transfer',
					'Outcome',
					'Time',
					'Throughput / requests',
					'Worker peak RSS growth: during the node',
					"during n8n's Read/Write Files node before it",
					'whole run',
				],
				rows,
			),
			'',
			queueNotes({
				store: Math.min(...storeCosts),
				upStorage,
				upHttp,
				downStorage,
				downHttp,
			}),
		].join('\n'),
	};
}

/** What n8n's database store itself costs, and what the nodes add to it (growth per byte of the file). */
function queueNotes(f: {
	store: number;
	upStorage: number;
	upHttp: number;
	downStorage: number;
	downHttp: number;
}): string {
	const x = (ratio: number) => `${ratio.toFixed(1)}×`;
	return [
		`What n8n itself costs here: its database store keeps a file as one buffer in a SQLite row. Putting a file in (\`prepareBinaryData\`) took the worker ${x(f.store)} the file's size in this run (n8n's Read/Write Files node, the column above): given a stream, n8n keeps every chunk, joins them into one buffer (\`binaryToBuffer\`), and SQLite's insert makes copies of its own. ` +
			"Reading a file back (`getBinaryStream` and `getBinaryDataBuffer` alike: n8n's `getAsBuffer` reads the whole row, and its stream is `Readable.from` of that one buffer, a single chunk whatever chunk size is asked for) holds SQLite's copy and the buffer at once. " +
			`An upload in this mode therefore costs at least that read: the Storage node ${x(f.upStorage)} the file, the HTTP Request node ${x(f.upHttp)}, both nothing beyond n8n's read (form-data and n8n's helper send the buffer without copying it). ` +
			`A download is read by the Storage node into one buffer of the announced length, handed to n8n as that buffer, so n8n keeps no chunk list and makes no joined copy; what remains is that buffer, the answer's chunks until V8 collects them, and SQLite's insert: ${x(f.downStorage)} the file, the HTTP Request node ${x(f.downHttp)}. In a bare Node.js process with the \`sqlite3\` module n8n ships, inserting a buffer into such a row raised RSS by 3× its size and reading it back by 2× (\`scripts/bench/database-store-cost.cjs\`): n8n's store alone asks 4× the file for a download handed over as one buffer, 2× for an upload. ` +
			'The whole-run column of an upload is the Read/Write Files node putting the file in; the figures of earlier reports (1,294 MiB for a 256 MiB upload, 777 MiB for a download, in one shared queue-mode n8n) were whole runs too. ' +
			'For files of more than a few MiB in queue mode, n8n\'s `s3` binary mode (or `filesystem` on one machine) avoids these copies: see the README\'s "Limits and large files".',
	].join('\n');
}

/** A file over the database mode's cap, put straight into the sandbox (curl), downloaded by the node: must fail before its transfer. */
async function overCap(ctx: BenchContext, folderHash: string): Promise<string[]> {
	const overMb = 513;
	const { sandbox, account } = ctx;
	const big = join(ctx.work, 'queue-over-cap.bin');
	await makeFile(big, overMb * MB);
	const bigHash = await curlUpload(sandbox.baseUrl, folderHash, account, big);
	rmSync(big);
	const fresh = await ctx.freshN8n({ mode: 'queue' });
	try {
		const flows = transferWorkflows({
			file: big,
			folderHash,
			baseUrl: sandbox.baseUrl,
			account,
			credential: fresh.credential,
		});
		sandbox.requests.clear();
		const imported = await fresh.n8n.client.importWorkflow(flows.storageDownload(bigHash));
		const started = performance.now();
		const result = await fresh.n8n.client.runWorkflow(imported.id, { timeoutMs: 600_000 });
		const ms = performance.now() - started;
		const actions = sandbox.requests.list().map((entry) => entry.action);
		const failure = ((result.data.resultData as Record<string, unknown>).error ?? {}) as {
			message?: string;
			description?: string;
		};
		const error =
			[failure.message, failure.description].filter(Boolean).join(' — ') || '(no message)';
		return [
			`Download ${overMb} MiB: Cloud Storage node`,
			result.status === 'success' ? 'worked (unexpected)' : `fails: "${error}"`,
			`${(ms / 1000).toFixed(2)} s (whole run)`,
			`requests: ${actions.join(', ') || 'none'}`,
			'—',
			'—',
			'—',
		];
	} finally {
		await fresh.n8n.stop();
	}
}
