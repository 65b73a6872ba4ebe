// Benchmark (issue 3): a large file uploaded and downloaded through the Storage node inside a real n8n,
// side by side with n8n's built-in HTTP Request node and with curl, against the sandbox. Prints wall
// time, throughput and the n8n main process's peak RSS growth. Size: BENCH_SIZE_MB (default 1024).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';

import { DEMO_ACCOUNT, startSandbox } from '../../test/sandbox/server.ts';
import { startN8n } from '../lib/n8n-server.ts';
import { repoPaths } from '../lib/paths.ts';
import { withPeakRss } from './rss.ts';
import { transferWorkflows } from './transfer-workflows.ts';

// The script lives in scripts/bench/; its path is argv[1] (no import.meta: the tests' tsconfig is CommonJS).
const root = join(process.argv[1], '../../..');
const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 1024);
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

async function createFolder(baseUrl: string): Promise<{ hash: string }> {
	const body = new URLSearchParams({ folder_name: 'bench', user: DEMO_ACCOUNT.username, user_access_token: DEMO_ACCOUNT.token });
	const response = await fetch(`${baseUrl}/api_v2/create_folder`, { method: 'POST', body });
	const created = (await response.json()) as { folder_hash: string };
	return { hash: created.folder_hash };
}

const row = (label: string, ms: number, growth?: number) =>
	`| ${label.padEnd(44)} | ${(ms / 1000).toFixed(2).padStart(8)} s | ${((sizeMb / ms) * 1000).toFixed(1).padStart(8)} MB/s | ${
		growth === undefined ? '       —' : `${(growth / MB).toFixed(1).padStart(6)} MiB`
	} |`;

async function main() {
	const work = mkdtempSync(join(tmpdir(), 'bench-transfer-'));
	console.error(`preparing ${sizeMb} MiB; starting the sandbox and n8n...`);
	const sandbox = await startSandbox({ port: 0 });
	console.error(`sandbox at ${sandbox.baseUrl}`);
	const n8n = await startN8n({
		paths: repoPaths(root),
		env: { N8N_RESTRICT_FILE_ACCESS_TO: work },
	});
	try {
		const file = join(work, 'payload.bin');
		await makeFile(file, sizeMb * MB);
		const folder = await createFolder(sandbox.baseUrl);
		const credential = await n8n.client.createCredential('cloudStorageTokenApi', 'Bench', {
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			user: DEMO_ACCOUNT.username,
			accessToken: DEMO_ACCOUNT.token,
		});
		const flows = transferWorkflows({ file, folderHash: folder.hash, baseUrl: sandbox.baseUrl, account: DEMO_ACCOUNT, credential });
		const lines: string[] = [];
		const runTimed = async (workflow: Record<string, unknown>, node: string) => {
			console.error(`running ${String(workflow.name)}...`);
			const imported = await n8n.client.importWorkflow(workflow);
			const { result, peakGrowth } = await withPeakRss(n8n.main.pid, () => n8n.client.runWorkflow(imported.id, { timeoutMs: 3_600_000 }));
			if (result.status !== 'success') throw new Error(`${node} failed: ${JSON.stringify(result).slice(0, 500)}`);
			const runData = ((result.data.resultData as Record<string, unknown>).runData ?? {}) as Record<string, Array<{ executionTime?: number }>>;
			return { ms: Number(runData[node]?.[0]?.executionTime ?? NaN), peakGrowth, result };
		};

		// A first small run loads the nodes and warms n8n up, so the figures below are the transfers' own.
		const warmFile = join(work, 'warm-up.bin');
		await makeFile(warmFile, MB);
		await runTimed(transferWorkflows({ file: warmFile, folderHash: folder.hash, baseUrl: sandbox.baseUrl, account: DEMO_ACCOUNT, credential }).storageUpload, 'Upload');

		const storageUp = await runTimed(flows.storageUpload, 'Upload');
		lines.push(row('Upload: Cloud Storage node', storageUp.ms, storageUp.peakGrowth));
		const httpUp = await runTimed(flows.httpUpload, 'HTTP Upload');
		lines.push(row('Upload: HTTP Request node', httpUp.ms, httpUp.peakGrowth));
		lines.push(row('Upload: curl', await curl(['-F', `folder_hash=${folder.hash}`, '-F', `user=${DEMO_ACCOUNT.username}`, '-F', `user_access_token=${DEMO_ACCOUNT.token}`, '-F', `file=@${file}`, `${sandbox.baseUrl}/api_v2/upload_file`])));

		const fileHash = String(storageUp.result.nodes.Upload?.[0]?.outputs[0]?.[0]?.json.hash);
		const storageDown = await runTimed(flows.storageDownload(fileHash), 'Download');
		lines.push(row('Download: Cloud Storage node', storageDown.ms, storageDown.peakGrowth));
		const httpDown = await runTimed(flows.httpDownload(fileHash), 'HTTP Download');
		lines.push(row('Download: HTTP Request node', httpDown.ms, httpDown.peakGrowth));
		lines.push(row('Download: curl', await curl(['-d', `file_hash=${fileHash}`, '-d', `user=${DEMO_ACCOUNT.username}`, '-d', `user_access_token=${DEMO_ACCOUNT.token}`, `${sandbox.baseUrl}/api_v2/download_file`])));

		console.log(`\nStorage transfer benchmark: ${sizeMb} MiB (${statSync(file).size} bytes), n8n 2.41.1 against the sandbox on loopback`);
		console.log('Node time is n8n\'s own per-node execution time; RSS growth is the n8n main process\'s peak over its baseline during the run.\n');
		console.log(`| ${'Transfer'.padEnd(44)} | ${'Time'.padStart(10)} | ${'Throughput'.padStart(13)} | RSS growth |`);
		console.log(`|${'-'.repeat(46)}|${'-'.repeat(12)}|${'-'.repeat(15)}|------------|`);
		for (const line of lines) console.log(line);
	} finally {
		await n8n.stop();
		await sandbox.close();
		rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
