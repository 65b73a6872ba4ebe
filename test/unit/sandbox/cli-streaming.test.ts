import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { EICAR, sinkFile } from '../../sandbox/http/upload-sink.ts';
import { DEMO_TOKEN, readJson } from './helpers.ts';

// Streams 200 MB through the sandbox: seconds on a quiet machine, much longer when CI shares its 2 cores.
jest.setTimeout(120_000);

const REPO = path.resolve(__dirname, '../../..');
// Jest runs under Node 24 (scripts/node24.mjs), which runs the sandbox's .ts files directly.
const NODE = process.execPath;
const MB = 1024 * 1024;

let child: ChildProcess;
let started: { baseUrl: string; webUrl: string; accounts: { username: string; token: string }[] };
let scratch: string;

beforeAll(async () => {
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-test-'));
	child = spawn(
		NODE,
		['test/sandbox/main.ts', '--port', '0', '--data-dir', path.join(scratch, 'data')],
		{
			cwd: REPO,
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	started = await new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (chunk) => {
			out += chunk;
			if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
		});
		child.once('exit', (code) => reject(new Error(`sandbox exited early with ${code}`)));
	});
});

afterAll(() => {
	if (child.exitCode === null) child.kill('SIGKILL');
	fs.rmSync(scratch, { recursive: true, force: true });
});

/** Peak resident memory of the sandbox process in bytes (Linux only). */
function peakRss(pid: number): number | undefined {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
	} catch {
		return undefined;
	}
}

it('prints one JSON line with the URLs and the seeded accounts', () => {
	expect(started.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	expect(started.webUrl).toBe(started.baseUrl.replace('127.0.0.1', 'localhost'));
	expect(started.accounts.map((account) => account.username)).toEqual([
		'demo',
		'free',
		'twofa',
		'tasks',
	]);
});

it('streams a 200 MB upload to disk and back without holding it in memory', async () => {
	const source = path.join(scratch, 'big.bin');
	const block = randomBytes(MB);
	const expected = createHash('sha256');
	const out = fs.openSync(source, 'w');
	for (let i = 0; i < 200; i++) {
		fs.writeSync(out, block);
		expected.update(block);
	}
	fs.closeSync(out);
	const sha256 = expected.digest('hex');

	const call = (action: string, body: URLSearchParams | FormData) =>
		fetch(`${started.baseUrl}/api_v2/${action}`, { method: 'POST', body });
	const folder = await readJson(call('create_folder', new URLSearchParams(DEMO_TOKEN)));
	const before = peakRss(child.pid!);

	const form = new FormData();
	form.append('user', DEMO_TOKEN.user);
	form.append('user_access_token', DEMO_TOKEN.user_access_token);
	form.append('folder_hash', folder.folder_hash);
	form.append('file', await fs.openAsBlob(source), 'big.bin');
	const uploaded = await call('upload_file', form);
	expect(uploaded.status).toBe(200);
	const { file_hash } = await readJson(uploaded);

	const download = await call('download_file', new URLSearchParams({ ...DEMO_TOKEN, file_hash }));
	expect(download.headers.get('content-length')).toBe(String(200 * MB));
	const received = createHash('sha256');
	for await (const chunk of Readable.fromWeb(download.body as never))
		received.update(chunk as Buffer);
	expect(received.digest('hex')).toBe(sha256);

	// Streaming settles at ~65 MB of garbage-collector slack whatever the size (1 GB measured the same);
	// buffering would add at least the 200 MB of the file.
	const after = peakRss(child.pid!);
	if (before !== undefined && after !== undefined) expect(after - before).toBeLessThan(120 * MB);
});

it('finds EICAR split across two chunks', async () => {
	const tmp = fs.mkdtempSync(path.join(scratch, 'sink-'));
	const half = Math.floor(EICAR.length / 2);
	const parts = [
		Buffer.from(`xx${EICAR.slice(0, half)}`, 'latin1'),
		Buffer.from(`${EICAR.slice(half)}yy`, 'latin1'),
	];
	const sink = sinkFile(
		Readable.from(parts),
		{ field: 'file', filename: 'a', declaredType: '' },
		tmp,
		1000,
	);
	await sink.done;
	expect(sink.file).toMatchObject({ virus: true, size: EICAR.length + 4, overCap: false });
	const capped = sinkFile(
		Readable.from([Buffer.alloc(600), Buffer.alloc(600)]),
		{ field: 'file', filename: 'b', declaredType: '' },
		tmp,
		1000,
	);
	await capped.done;
	expect(capped.file).toMatchObject({ size: 1200, overCap: true, virus: false });
	expect(fs.statSync(capped.file.tmpPath).size).toBe(600);
});

it('finds EICAR however the reads split it, in one byte reads too, and nothing in its near misses', async () => {
	const tmp = fs.mkdtempSync(path.join(scratch, 'split-'));
	const scan = async (parts: Buffer[]) => {
		const sink = sinkFile(
			Readable.from(parts),
			{ field: 'file', filename: 'c', declaredType: '' },
			tmp,
			10_000,
		);
		await sink.done;
		return sink.file.virus;
	};
	const whole = Buffer.from(`ab${EICAR}cd`, 'latin1');
	for (let first = 1; first < whole.length; first += 7)
		for (let second = first + 1; second < whole.length; second += 5)
			expect(
				await scan([
					whole.subarray(0, first),
					whole.subarray(first, second),
					whole.subarray(second),
				]),
			).toBe(true);
	expect(await scan([...whole].map((byte) => Buffer.from([byte])))).toBe(true);
	const nearMiss = Buffer.from(`${EICAR.slice(0, -1)}x${EICAR.slice(1)}`, 'latin1');
	expect(await scan([nearMiss.subarray(0, 30), nearMiss.subarray(30)])).toBe(false);
	expect(await scan([...nearMiss].map((byte) => Buffer.from([byte])))).toBe(false);
});

it('exits cleanly on SIGTERM', async () => {
	const exited = new Promise<number | null>((resolve) =>
		child.once('exit', (code) => resolve(code)),
	);
	child.kill('SIGTERM');
	expect(await exited).toBe(0);
});
