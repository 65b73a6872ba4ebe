// A real loopback server (not nock, which swallows bodies at once) that reads an upload while more than the
// node's Timeout passes: the upload must still go through, because the Timeout limits silence, not the whole
// transfer. n8n's own timeout would run from the start of the request and cut it.
//
// No wall-clock race: the Timeout's timer is a fake one that this test advances as the server reads, never
// by more than 0.4 of it per 48 MiB read; the server waits on events only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';

import { chain, runWorkflow, type NodeSpec } from '../../engine/harness';
import { TOKEN } from '../storage/run-storage';

const BODY_BYTES = 144 * 1024 * 1024;
const TIMEOUT_MS = 2000;

let server: Server;
let baseUrl: string;
const STEP_BYTES = 48 * 1024 * 1024;
let uploadedBytes = 0;
let advancedMs = 0;

beforeAll(async () => {
	// nock (loaded with the shared helpers) would collect the whole body before passing it on.
	nock.restore();
	server = createServer((req, res) => {
		req.on('error', () => undefined);
		res.on('error', () => undefined);
		const json = (body: object) =>
			res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
		if (req.url?.endsWith('/api/authenticate_user.php')) {
			req.resume();
			return void json({
				Success: true,
				Message: 'ok',
				SessionID: 'sess-1',
				UserData: { root_upload_hash: 'ROOTHASH1' },
			});
		}
		// The clock moves 0.4 Timeout after every 48 MiB the server reads: 144 MiB take 1.2 Timeouts in all.
		// Everything between the sender and the server (its buffers, the kernel's send buffer of at most 4 MiB and
		// receive buffer of at most 32 MiB here) holds less than 48 MiB, so between two moves the sender must have
		// handed on more of the body, and no silence reaches 0.8 Timeout.
		let read = 0;
		req.on('data', (chunk: Buffer) => {
			const before = Math.floor(read / STEP_BYTES);
			read += chunk.length;
			if (Math.floor(read / STEP_BYTES) > before) {
				jest.advanceTimersByTime(TIMEOUT_MS * 0.4);
				advancedMs += TIMEOUT_MS * 0.4;
			}
		});
		req.once('end', () => {
			uploadedBytes = read;
			json({
				file_hash: 'Big1',
				file_name: 'big.bin',
				file_delete_key: 'k',
				timestamp_uploaded: 1,
				timestamp_last_modified: 1,
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	jest.useRealTimers();
	await new Promise((resolve) => server.close(resolve));
});

it('does not cut an upload that keeps moving, though it takes longer than the Timeout to send', async () => {
	// The deadline's timer is the only global setTimeout on this path; I/O, immediates and Date stay real.
	jest.useFakeTimers({
		doNotFake: [
			'nextTick',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'queueMicrotask',
			'hrtime',
			'performance',
			'Date',
		],
	});
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'File',
			type: 'engine-test.binaryFixture',
			parameters: { sizeBytes: BODY_BYTES, fileName: 'big.bin' },
		},
		{
			name: 'Storage',
			type: 'n8n-nodes-cloud-storage.cloudStorage',
			parameters: {
				resource: 'file',
				operation: 'upload',
				folder: { __rl: true, mode: 'id', value: 'Fold3r' },
				binaryPropertyName: 'data',
				requestOptions: { timeout: TIMEOUT_MS / 1000 },
			},
		},
	];
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: { cloudStorageTokenApi: { ...TOKEN, baseUrl } } as never },
	);
	expect(advancedMs).toBeGreaterThan(TIMEOUT_MS);
	expect(result.error).toBeUndefined();
	expect(uploadedBytes).toBeGreaterThan(BODY_BYTES);
	expect(result.nodeOutput('Storage')[0].json).toMatchObject({ hash: 'Big1', name: 'big.bin' });
}, 60_000);
