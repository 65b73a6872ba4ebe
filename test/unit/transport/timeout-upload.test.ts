// A real loopback server (not nock, which swallows bodies at once) that does not read the upload body for
// longer than the node's Timeout: the upload must still go through, because the timeout only starts once
// the whole body has been sent. n8n's own timeout would run from the start of the request and cut it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { setTimeout as sleep } from 'node:timers/promises';

import { chain, runWorkflow, type NodeSpec } from '../../engine/harness';
import { TOKEN } from '../storage/run-storage';

const BODY_BYTES = 64 * 1024 * 1024;
const STALL_MS = 5000;

let server: Server;
let baseUrl: string;
let uploadedBytes = 0;

beforeAll(async () => {
	// nock (loaded with the shared helpers) would collect the whole body before passing it on.
	nock.restore();
	server = createServer(async (req, res) => {
		const json = (body: object) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
		if (req.url?.endsWith('/api/authenticate_user.php')) {
			req.resume();
			return void json({ Success: true, Message: 'ok', SessionID: 'sess-1', UserData: { root_upload_hash: 'ROOTHASH1' } });
		}
		// Socket buffers hold ~10 MiB at most on loopback, so the client cannot finish sending 64 MiB while this waits.
		req.pause();
		await sleep(STALL_MS);
		uploadedBytes = 0;
		for await (const chunk of req) uploadedBytes += (chunk as Buffer).length;
		return void json({ file_hash: 'Big1', file_name: 'big.bin', file_delete_key: 'k', timestamp_uploaded: 1, timestamp_last_modified: 1 });
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

it('does not cut an upload that takes longer than the Timeout to send', async () => {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'File', type: 'engine-test.binaryFixture', parameters: { sizeBytes: BODY_BYTES, fileName: 'big.bin' } },
		{
			name: 'Storage',
			type: 'n8n-nodes-cloud-storage.cloudStorage',
			parameters: { resource: 'file', operation: 'upload', folder: { __rl: true, mode: 'id', value: 'Fold3r' }, binaryPropertyName: 'data', requestOptions: { timeout: 2 } },
		},
	];
	const started = Date.now();
	const result = await runWorkflow(
		{ nodes, connections: chain(...nodes.map((node) => node.name)) },
		{ credentials: { cloudStorageTokenApi: { ...TOKEN, baseUrl } } as never },
	);
	expect(result.error).toBeUndefined();
	expect(Date.now() - started).toBeGreaterThanOrEqual(STALL_MS);
	expect(uploadedBytes).toBeGreaterThan(BODY_BYTES);
	expect(result.nodeOutput('Storage')[0].json).toMatchObject({ hash: 'Big1', name: 'big.bin' });
}, 60_000);
