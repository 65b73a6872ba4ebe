// Storage's download through the transfer thread, against a real loopback server (nock cannot see into a
// worker thread), with a stand-in for n8n's binary helpers: how the file reaches n8n's store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { downloadFile } from '../../../nodes/shared/storage/download';

const content = randomBytes(4 * 1024 * 1024 + 5);
let server: Server;
let baseUrl: string;

beforeAll(async () => {
	server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(200, { 'content-length': content.length, 'content-type': 'text/csv' });
			res.write(content.subarray(0, 1024 * 1024));
			setTimeout(() => res.end(content.subarray(1024 * 1024)), 50);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

/** n8n's helpers, storing into memory; `keepChunks` collects chunks before writing, as a careless store would. */
function context(keepChunks: boolean) {
	const stored = new Map<string, Buffer>();
	let calls = 0;
	const ctx = {
		getNode: () => ({ name: 'Cloud Storage', type: 'cloudStorage', typeVersion: 1 }),
		getNodeParameter: () => null,
		getInputData: () => [{ json: {} }],
		getExecutionCancelSignal: () => undefined,
		helpers: {
			prepareBinaryData: async (data: Readable, fileName: string, mimeType: string) => {
				const chunks: Buffer[] = [];
				for await (const chunk of data)
					chunks.push(keepChunks ? (chunk as Buffer) : Buffer.from(chunk as Buffer));
				const id = `filesystem-v2:${++calls}`;
				stored.set(id, Buffer.concat(chunks));
				return { id, data: 'filesystem-v2', fileName, mimeType, bytes: stored.get(id)!.length };
			},
			getBinaryStream: async (id: string) => Readable.from([stored.get(id)!]),
		},
	};
	return { ctx: ctx as unknown as IExecuteFunctions, stored, calls: () => calls };
}

it('hands the file to n8n as the thread writes it: the same bytes, one store call', async () => {
	const { ctx, stored, calls } = context(false);
	const result = await downloadFile(ctx, { baseUrl, webUrl: baseUrl }, 'H4sh', {
		fileName: 'report.csv',
		viaWorker: true,
	});
	if (!('binary' in result)) throw new Error('skipped');
	expect(result.bytes).toBe(content.length);
	expect(stored.get((result.binary as IBinaryData).id!)!.equals(content)).toBe(true);
	expect(result.binary).toMatchObject({ fileName: 'report.csv', mimeType: 'text/csv' });
	expect(calls()).toBe(1);
});

it('a store that keeps chunks instead of writing each is noticed, and the file is handed over again by a plain copy', async () => {
	const { ctx, stored, calls } = context(true);
	const result = await downloadFile(ctx, { baseUrl, webUrl: baseUrl }, 'H4sh', {
		fileName: 'report.csv',
		viaWorker: true,
	});
	if (!('binary' in result)) throw new Error('skipped');
	expect(calls()).toBe(2);
	expect(stored.get((result.binary as IBinaryData).id!)!.equals(content)).toBe(true);
});
