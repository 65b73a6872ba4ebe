// Benchmark section (issue 3/9): a large file uploaded and downloaded through the Storage node inside a
// real n8n, side by side with n8n's built-in HTTP Request node and with curl, against the sandbox. Wall
// time, throughput, share of curl's throughput and the n8n main process's peak RSS growth.
// Size: BENCH_SIZE_MB (default 1024).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';

import { runNode, table, type BenchContext, type Section } from './context.ts';
import { withPeakRss } from './rss.ts';
import { transferWorkflows } from './transfer-workflows.ts';

const MB = 1024 * 1024;

async function makeFile(path: string, bytes: number) {
	const out = createWriteStream(path);
	for (let written = 0; written < bytes; written += 4 * MB) {
		const chunk = randomBytes(4 * MB);
		if (!out.write(written + chunk.length <= bytes ? chunk : chunk.subarray(0, bytes - written))) await once(out, 'drain');
	}
	out.end();
	await once(out, 'finish');
}

/** curl runs asynchronously: the sandbox lives in this process and must keep serving while curl talks to it. */
async function curl(args: string[]): Promise<number> {
	const started = performance.now();
	const { stdout } = await promisify(execFile)('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', ...args], { maxBuffer: 1024 * 1024 });
	if (!/^2/.test(stdout)) throw new Error(`curl answered ${stdout}`);
	return performance.now() - started;
}

export async function benchStorageTransfer(ctx: BenchContext): Promise<Section> {
	const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 1024);
	const { sandbox, account, credential } = ctx;
	const file = join(ctx.work, 'payload.bin');
	console.error(`transfer: preparing ${sizeMb} MiB...`);
	await makeFile(file, sizeMb * MB);
	const store = sandbox.store;
	const demo = store.accountByLogin(account.username)!;
	const folder = store.createFolder(demo, store.rootOf(demo), 'bench transfer', 'PRIVATE');
	const options = { folderHash: folder.hash, baseUrl: sandbox.baseUrl, account, credential };
	const flows = transferWorkflows({ file, ...options });
	const timed = async (workflow: Record<string, unknown>, node: string) => {
		console.error(`transfer: ${String(workflow.name)}...`);
		const { result, peakGrowth } = await withPeakRss(ctx.n8n.main.pid, () => runNode(ctx, workflow, node));
		return { ms: result.ms, peakGrowth, items: result.items };
	};

	// A first small run loads the nodes and warms n8n up, so the figures below are the transfers' own.
	const warmFile = join(ctx.work, 'warm-up.bin');
	await makeFile(warmFile, MB);
	await timed(transferWorkflows({ file: warmFile, ...options }).storageUpload, 'Upload');

	const storageUp = await timed(flows.storageUpload, 'Upload');
	const httpUp = await timed(flows.httpUpload, 'HTTP Upload');
	const curlUp = await curl(['-F', `folder_hash=${folder.hash}`, '-F', `user=${account.username}`, '-F', `user_access_token=${account.token}`, '-F', `file=@${file}`, `${sandbox.baseUrl}/api_v2/upload_file`]);
	const fileHash = String(storageUp.items[0]?.json.hash);
	const storageDown = await timed(flows.storageDownload(fileHash), 'Download');
	const httpDown = await timed(flows.httpDownload(fileHash), 'HTTP Download');
	const curlDown = await curl(['-d', `file_hash=${fileHash}`, '-d', `user=${account.username}`, '-d', `user_access_token=${account.token}`, `${sandbox.baseUrl}/api_v2/download_file`]);
	const bytes = statSync(file).size;
	rmSync(file);

	const row = (label: string, ms: number, curlMs: number, growth?: number) => [
		label,
		`${(ms / 1000).toFixed(2)} s`,
		`${((sizeMb / ms) * 1000).toFixed(1)} MiB/s`,
		`${((curlMs / ms) * 100).toFixed(0)} %`,
		growth === undefined ? '—' : `${(growth / MB).toFixed(1)} MiB`,
	];
	const markdown = [
		`${sizeMb} MiB (${bytes} bytes) of random bytes, uploaded from a file read by n8n's Read/Write Files node and downloaded into n8n's binary store (filesystem mode). ` +
			"Node rows: n8n's own execution time of that node. RSS growth: the n8n main process's peak resident memory over its level before the run, sampled every 20 ms. " +
			'curl runs on the same machine against the same sandbox, as the ceiling of the loopback link.',
		'',
		table(
			['Transfer', 'Time', 'Throughput', 'Share of curl', 'Peak RSS growth'],
			[
				row('Upload: Cloud Storage node', storageUp.ms, curlUp, storageUp.peakGrowth),
				row("Upload: n8n's HTTP Request node", httpUp.ms, curlUp, httpUp.peakGrowth),
				row('Upload: curl', curlUp, curlUp),
				row('Download: Cloud Storage node', storageDown.ms, curlDown, storageDown.peakGrowth),
				row("Download: n8n's HTTP Request node", httpDown.ms, curlDown, httpDown.peakGrowth),
				row('Download: curl', curlDown, curlDown),
			],
		),
	].join('\n');
	return { title: `Storage: ${sizeMb >= 1024 ? `${sizeMb / 1024} GiB` : `${sizeMb} MiB`} upload and download`, markdown };
}
