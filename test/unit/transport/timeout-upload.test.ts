// A real loopback server (not nock, which swallows bodies at once) that does not read the upload body while
// more than the node's Timeout passes: the upload must still go through, because the timeout only starts
// once the whole body has been sent. n8n's own timeout would run from the start of the request and cut it.
//
// No wall-clock race: the Timeout's timer is a fake one that this test advances while most of the body is
// still unsent (the server has read less than half of it), and never after; the server waits on events only.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';

import { chain, runWorkflow, type NodeSpec } from '../../engine/harness';
import { TOKEN } from '../storage/run-storage';

const BODY_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 2000;

let server: Server;
let baseUrl: string;
let uploadedBytes = 0;
let bytesReadBeforeClockMoved = Infinity;

/** Reads a request body; a client that gives up mid-body (socket closed) ends the count, not the test run. */
async function drain(req: IncomingMessage): Promise<number> {
	let bytes = 0;
	try {
		for await (const chunk of req) bytes += (chunk as Buffer).length;
	} catch {
		// 'aborted' (ECONNRESET): the assertions on uploadedBytes report it.
	}
	return bytes;
}

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
		// Unread, the body cannot be sent completely: loopback socket buffers hold a few MiB, the body is 64 MiB.
		// Three Timeouts pass now: a deadline running from the start of the request would fire.
		req.pause();
		bytesReadBeforeClockMoved = req.socket.bytesRead;
		jest.advanceTimersByTime(3 * TIMEOUT_MS);
		void drain(req).then((bytes) => {
			uploadedBytes = bytes;
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

it('does not cut an upload that takes longer than the Timeout to send', async () => {
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
	expect(bytesReadBeforeClockMoved).toBeLessThan(BODY_BYTES / 2);
	expect(result.error).toBeUndefined();
	expect(uploadedBytes).toBeGreaterThan(BODY_BYTES);
	expect(result.nodeOutput('Storage')[0].json).toMatchObject({ hash: 'Big1', name: 'big.bin' });
}, 60_000);
