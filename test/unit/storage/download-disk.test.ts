// Storage's download into n8n's filesystem store on the main thread's own socket, against a real loopback
// server, with a stand-in for n8n's binary helpers and n8n's own request helper: how the file reaches n8n's
// store, and how a store that kept other bytes is noticed and served again through n8n's helper.
import { httpRequest } from '@n8n/backend-network/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { downloadFile } from '../../../nodes/shared/storage/download';

const content = randomBytes(4 * 1024 * 1024 + 5);
const folder = mkdtempSync(join(tmpdir(), 'download-disk-test-'));
let server: Server;
let baseUrl: string;
/** The User-Agent of every request, in order. */
const names: Array<string | undefined> = [];
beforeEach(() => names.splice(0));

beforeAll(async () => {
	server = createServer((req, res) => {
		names.push(req.headers['user-agent']);
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
	rmSync(folder, { recursive: true, force: true });
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

/**
 * n8n's helpers, storing into files as n8n's filesystem mode does. `keepChunks` collects chunks before writing,
 * as a careless store would; `lagging` holds each chunk after the second until the next one has come.
 */
function context(store: 'writes' | 'keepChunks' | 'lagging' = 'writes') {
	const stored = new Map<string, string>();
	let calls = 0;
	const ctx = {
		getNode: () => ({ name: 'Cloud Storage', type: 'cloudStorage', typeVersion: 1 }),
		getNodeParameter: () => null,
		getInputData: () => [{ json: {} }],
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequest: async (options: never) => await httpRequest(options),
			prepareBinaryData: async (data: Readable, fileName: string, mimeType: string) => {
				const chunks: Buffer[] = [];
				let held: Buffer | undefined;
				for await (const chunk of data) {
					const buffer = chunk as Buffer;
					if (store === 'keepChunks') chunks.push(buffer);
					else if (store === 'lagging' && chunks.length >= 2) {
						if (held) chunks.push(Buffer.from(held));
						held = buffer;
					} else chunks.push(Buffer.from(buffer));
				}
				if (held) chunks.push(Buffer.from(held));
				const id = `filesystem-v2:${++calls}`;
				const path = join(folder, `stored-${calls}`);
				writeFileSync(path, Buffer.concat(chunks));
				stored.set(id, path);
				return { id, data: 'filesystem-v2', fileName, mimeType, bytes: statSync(path).size };
			},
			getBinaryPath: async (id: string) => stored.get(id)!,
		},
	};
	const bytesOf = (binary: IBinaryData) => readFileSync(stored.get(binary.id!)!);
	return { ctx: ctx as unknown as IExecuteFunctions, bytesOf, calls: () => calls };
}

describe('read on the main thread into reused buffers', () => {
	it('hands the answer straight to n8n: the same bytes, one store call, no temporary file', async () => {
		const { ctx, bytesOf, calls } = context();
		const result = await downloadFile(ctx, { baseUrl, webUrl: baseUrl }, 'H4sh', {
			fileName: 'report.csv',
			via: 'main thread',
		});
		if (!('binary' in result)) throw new Error('skipped');
		expect(result.bytes).toBe(content.length);
		expect(bytesOf(result.binary as IBinaryData).equals(content)).toBe(true);
		expect(result.binary).toMatchObject({ fileName: 'report.csv', mimeType: 'text/csv' });
		expect(calls()).toBe(1);
		expect(names.splice(0)).toEqual(['n8n']);
	});

	it('a store that keeps chunks is noticed by the stored-copy check: downloaded again through n8n’s helper, stored intact', async () => {
		const { ctx, bytesOf, calls } = context('keepChunks');
		const result = await downloadFile(ctx, { baseUrl, webUrl: baseUrl }, 'H4sh', {
			fileName: 'report.csv',
			via: 'main thread',
		});
		if (!('binary' in result)) throw new Error('skipped');
		// The kept chunks, then the helper's fresh buffers (which a store may keep).
		expect(calls()).toBe(2);
		expect(names.length).toBe(2);
		expect(bytesOf(result.binary as IBinaryData).equals(content)).toBe(true);
	});

	it('a store that lags a chunk behind ends with the right bytes, checked or downloaded again', async () => {
		const { ctx, bytesOf } = context('lagging');
		const result = await downloadFile(ctx, { baseUrl, webUrl: baseUrl }, 'H4sh', {
			fileName: 'report.csv',
			via: 'main thread',
		});
		if (!('binary' in result)) throw new Error('skipped');
		expect(bytesOf(result.binary as IBinaryData).equals(content)).toBe(true);
	});

	it('skips a download announced larger than the limit before its body', async () => {
		const { ctx } = context();
		const result = await downloadFile(ctx, { baseUrl, webUrl: baseUrl }, 'H4sh', {
			fileName: 'report.csv',
			maxBytes: 1000,
			via: 'main thread',
		});
		expect(result).toEqual({ skipped: 'tooLarge', bytes: content.length });
	});
});
