/**
 * Upload, Replace Content and Download move bytes on two paths. In n8n's filesystem binary mode (a single
 * n8n's default) both go from n8n's main thread through reused buffers, on connections of their own (the
 * download reads its answer straight into n8n's binary store); CLOUD_STORAGE_WORKER_TRANSFERS=true changes
 * nothing (the worker-thread download is gone), and =false sends both through n8n's request helper, which the
 * database mode (queue mode's default) always uses.
 * Each path, in a real n8n against the sandbox, must give back exactly the bytes it was given. n8n loads the
 * packed tarball installed as its Community Nodes screen installs it (scripts/lib/packed-package.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { describeErrors, itemsOf, startN8n, type N8nInstance } from './harness/n8n';

jest.setTimeout(300_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'e2e-transfer-'));
// Sizes that are not a multiple of any chunk size, larger than one socket buffer.
const first = randomBytes(3 * 1024 * 1024 + 11);
const second = randomBytes(2 * 1024 * 1024 + 7);
const firstPath = join(dir, 'first.bin');
const secondPath = join(dir, 'second.bin');

beforeAll(async () => {
	writeFileSync(firstPath, first);
	writeFileSync(secondPath, second);
	sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
	await sandbox?.close();
	rmSync(dir, { recursive: true, force: true });
});

const storage = (
	id: number,
	name: string,
	parameters: Record<string, unknown>,
	credentialId: string,
) => ({
	id: `c1000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
	name,
	type: 'n8n-nodes-cloud-storage.cloudStorage',
	typeVersion: 1,
	position: [id * 220, 0],
	parameters: { authentication: 'tokenApi', ...parameters },
	credentials: { cloudStorageTokenApi: { id: credentialId, name: 'Cloud Storage (access token)' } },
});
const readFile = (id: number, name: string, path: string) => ({
	id: `c1000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
	name,
	type: 'n8n-nodes-base.readWriteFile',
	typeVersion: 1,
	position: [id * 220, 0],
	parameters: { operation: 'read', fileSelector: path, options: {} },
});
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

function roundTrip(credentialId: string) {
	const nodes = [
		{
			id: 'c1000000-0000-4000-8000-000000000000',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		storage(
			1,
			'Create Folder',
			{
				resource: 'folder',
				operation: 'create',
				parentFolder: rl('ROOT'),
				name: "={{ 'transfer paths ' + $now.toMillis() }}",
				options: {},
			},
			credentialId,
		),
		readFile(2, 'Read First', firstPath),
		storage(
			3,
			'Upload',
			{
				resource: 'file',
				operation: 'upload',
				folder: rl("={{ $('Create Folder').item.json.hash }}"),
				binaryPropertyName: 'data',
				options: {},
			},
			credentialId,
		),
		storage(
			4,
			'Download First',
			{
				resource: 'file',
				operation: 'download',
				file: rl("={{ $('Upload').item.json.hash }}"),
				binaryPropertyName: 'data',
			},
			credentialId,
		),
		readFile(5, 'Read Second', secondPath),
		storage(
			6,
			'Replace Content',
			{
				resource: 'file',
				operation: 'replace',
				file: rl("={{ $('Upload').item.json.hash }}"),
				binaryPropertyName: 'data',
			},
			credentialId,
		),
		storage(
			7,
			'Download Second',
			{
				resource: 'file',
				operation: 'download',
				file: rl("={{ $('Upload').item.json.hash }}"),
				binaryPropertyName: 'data',
			},
			credentialId,
		),
	];
	const connections = Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((node, i) => [
				node.name,
				{ main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	return { name: 'Transfer paths', nodes, connections, settings: { executionOrder: 'v1' } };
}

/** Which path sent each upload or asked for each download, as a pass-through proxy in front of the sandbox sees it (`client`). */
const uploadClients: Path[] = [];
const downloadClients: Path[] = [];
/** When set, the proxy passes a download's headers on but cuts its body after this many bytes. */
let cutDownloadsAfter: number | undefined;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
	const target = new URL(sandbox.baseUrl);
	proxy = createServer((req, res) => {
		if (/upload_file|save_file\.php/.test(req.url ?? '')) uploadClients.push(client(req));
		if (/download_file/.test(req.url ?? '')) downloadClients.push(client(req));
		const forward = request(
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: target.host },
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				const limit = /download_file/.test(req.url ?? '') ? cutDownloadsAfter : undefined;
				if (limit === undefined) {
					answer.pipe(res);
					return;
				}
				let passed = 0;
				answer.on('data', (chunk: Buffer) => {
					if (passed >= limit) return;
					passed += chunk.length;
					res.write(chunk);
					if (passed >= limit) {
						answer.destroy();
						res.socket?.destroy();
					}
				});
			},
		);
		forward.on('error', () => res.destroy());
		req.pipe(forward);
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname.replace(/\/$/, '')}`;
});
afterAll(async () => {
	proxy?.closeAllConnections();
	await new Promise((resolve) => proxy?.close(resolve));
});

type Path = 'main thread' | 'streaming' | 'unnamed';

/**
 * Which client sent a request: every path names itself n8n (User-Agent), but only n8n's helper (axios) and
 * the calls that copy its headers ask for typed or compressed answers (an `Accept` header; the transfers ask
 * for the bytes as stored, `Accept-Encoding: identity`, and so does a download through the helper).
 */
function client(req: IncomingMessage): Path {
	if (req.headers['user-agent'] !== 'n8n') return 'unnamed';
	const encoding = req.headers['accept-encoding'];
	if ((encoding !== undefined && encoding !== 'identity') || req.headers.accept !== undefined)
		return 'streaming';
	return 'main thread';
}

function paths(sent: Path[]): Path[] {
	return sent.splice(0);
}

/** The demo account's token credential, through the proxy that records which client sent each transfer. */
async function tokenCredential(n8n: N8nInstance) {
	return await n8n.client.createCredential('cloudStorageTokenApi', 'Cloud Storage (access token)', {
		baseUrl: proxyUrl,
		webUrl: sandbox.webUrl,
		user: DEMO_ACCOUNT.username,
		accessToken: DEMO_ACCOUNT.token,
	});
}

async function runRoundTrip(n8n: N8nInstance) {
	const credential = await tokenCredential(n8n);
	const workflow = await n8n.client.importWorkflow(roundTrip(credential.id));
	sandbox.requests.clear();
	uploadClients.length = 0;
	downloadClients.length = 0;
	const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 240_000 });
	expect(describeErrors(execution)).toBe('');
	const bytesOf = async (node: string) =>
		await n8n.client.downloadBinary(itemsOf(execution, node)[0].binary!.data as { id?: string });
	expect((await bytesOf('Download First')).equals(first)).toBe(true);
	expect((await bytesOf('Download Second')).equals(second)).toBe(true);
	expect(itemsOf(execution, 'Download First')[0].binary!.data).toMatchObject({
		fileName: 'first.bin',
		mimeType: 'application/octet-stream',
	});
	expect(itemsOf(execution, 'Replace Content')[0].json).toMatchObject({
		replaced: true,
		size: second.length,
	});
	expect(sandbox.requests.list().every((entry) => entry.credentialsInUrl.length === 0)).toBe(true);
	return { uploads: paths(uploadClients), downloads: paths(downloadClients) };
}

/**
 * One n8n with these settings for the tests of the enclosing describe (started before them, stopped after them):
 * each setting's n8n starts once. `workers` sets CLOUD_STORAGE_WORKER_TRANSFERS.
 */
function n8nWith(mode: 'regular' | 'queue', workers: 'true' | 'false' | undefined) {
	let n8n: N8nInstance | undefined;
	beforeAll(async () => {
		n8n = await startN8n({
			mode,
			// The package as n8n installs it: its runtime dependencies must come from the tarball.
			packageSource: 'packed',
			env: {
				N8N_RESTRICT_FILE_ACCESS_TO: dir,
				...(workers ? { CLOUD_STORAGE_WORKER_TRANSFERS: workers } : {}),
			},
		});
	});
	afterAll(async () => await n8n?.stop());
	return () => n8n!;
}

/** The paths of both uploads and the three downloads of a round trip that took `upload` and `download`. */
const roundTripPaths = (upload: Path, download: Path) => ({
	uploads: [upload, upload],
	// Between the two downloads, Replace Content reads the file's ETag from the headers of a download_file
	// call (an ordinary call, its body not read), the before of the proof that settles a lost answer.
	downloads: [download, 'streaming', download],
});

async function downloadCutShort(n8n: N8nInstance, path: Path) {
	try {
		const flow = roundTrip((await tokenCredential(n8n)).id);
		// Create Folder, Read First, Upload, Download First.
		flow.nodes = flow.nodes.slice(0, 5);
		const kept = flow.nodes.slice(0, -1).map((node) => node.name);
		flow.connections = Object.fromEntries(
			Object.entries(flow.connections).filter(([source]) => kept.includes(source)),
		);
		const workflow = await n8n.client.importWorkflow(flow);
		downloadClients.length = 0;
		cutDownloadsAfter = 1024 * 1024;
		const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 240_000 });
		expect(describeErrors(execution)).toMatch(
			// n8n's helper reports a connection closed mid-body as "aborted".
			/^Download First: The download of first\.bin failed: (the connection closed before the whole answer arrived|aborted)/,
		);
		expect(paths(downloadClients)).toEqual([path]);
	} finally {
		cutDownloadsAfter = undefined;
	}
}

describe('filesystem mode with CLOUD_STORAGE_WORKER_TRANSFERS=true', () => {
	const n8n = n8nWith('regular', 'true');
	it('no worker thread any more: the default paths, bytes identical', async () => {
		expect(await runRoundTrip(n8n())).toEqual(roundTripPaths('main thread', 'main thread'));
	});
});

describe('filesystem mode by default', () => {
	const n8n = n8nWith('regular', undefined);
	it('uploads and downloads on the main thread through reused buffers, bytes identical', async () => {
		expect(await runRoundTrip(n8n())).toEqual(roundTripPaths('main thread', 'main thread'));
	});
	it('a download cut short fails with the transport’s message', async () => {
		await downloadCutShort(n8n(), 'main thread');
	});
});

describe('filesystem mode with worker transfers off', () => {
	const n8n = n8nWith('regular', 'false');
	it('the streaming path, bytes identical', async () => {
		expect(await runRoundTrip(n8n())).toEqual(roundTripPaths('streaming', 'streaming'));
	});
	it('a download cut short through n8n’s helper fails with the transport’s message', async () => {
		await downloadCutShort(n8n(), 'streaming');
	});
});

describe("queue mode with n8n's default database binary mode", () => {
	const n8n = n8nWith('queue', 'true');
	it('the streaming path even with worker transfers on, bytes identical', async () => {
		expect(await runRoundTrip(n8n())).toEqual(roundTripPaths('streaming', 'streaming'));
	});
});
