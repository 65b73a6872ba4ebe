// Storage's download in n8n's database binary mode (the default in queue mode): n8n keeps the file there as one
// buffer, so the answer is read into one buffer of its announced length and handed over as that buffer (given a
// stream, n8n keeps every chunk and then joins them: two copies before its database takes its own).
import { Readable } from 'node:stream';
import type { IExecuteFunctions } from 'n8n-workflow';

import { downloadFile } from '../../../nodes/shared/storage/download';
import { readWhole } from '../../../nodes/shared/storage/download-whole';

const MODE = 'N8N_DEFAULT_BINARY_DATA_MODE';
const before = process.env[MODE];
beforeAll(() => {
	process.env[MODE] = 'database';
});
afterAll(() => {
	if (before === undefined) delete process.env[MODE];
	else process.env[MODE] = before;
});

/** n8n's helpers: the answer `chunks` with `length` announced; what the store was handed is recorded. */
function context(chunks: Buffer[], length: number) {
	const handed: unknown[] = [];
	const ctx = {
		getNode: () => ({ name: 'Cloud Storage', type: 'cloudStorage', typeVersion: 1 }),
		getNodeParameter: () => null,
		getInputData: () => [{ json: {} }],
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequest: async () => ({
				statusCode: 200,
				headers: { 'content-length': String(length), 'content-type': 'text/csv' },
				body: Readable.from(chunks),
			}),
			prepareBinaryData: async (data: unknown, fileName: string, mimeType: string) => {
				handed.push(data);
				return { data: 'database', id: 'database:1', fileName, mimeType };
			},
			getBinaryMetadata: async () => ({ fileSize: length }),
		},
	};
	return { ctx: ctx as unknown as IExecuteFunctions, handed };
}

const account = { baseUrl: 'http://127.0.0.1:9', webUrl: 'http://127.0.0.1:9' };

describe('download in n8n database binary mode', () => {
	it('hands n8n one buffer of the announced length holding the answer, not a stream', async () => {
		const chunks = [Buffer.from('id,name\n'), Buffer.from('1,a\n'), Buffer.from('2,b\n')];
		const content = Buffer.concat(chunks);
		const { ctx, handed } = context(chunks, content.length);
		const result = await downloadFile(ctx, account, 'H4sh', { fileName: 'list.csv' });
		expect(result).toMatchObject({ bytes: content.length, fileName: 'list.csv' });
		expect(handed).toHaveLength(1);
		expect(Buffer.isBuffer(handed[0])).toBe(true);
		expect((handed[0] as Buffer).equals(content)).toBe(true);
	});

	it('refuses an answer cut short before n8n stores anything', async () => {
		const { ctx, handed } = context([Buffer.from('12345')], 10);
		await expect(downloadFile(ctx, account, 'H4sh', { fileName: 'a.bin' })).rejects.toThrow(
			/cut short: 5 of 10 bytes/,
		);
		expect(handed).toHaveLength(0);
	});

	it('refuses an answer longer than announced before n8n stores anything', async () => {
		const { ctx, handed } = context([Buffer.from('1234'), Buffer.from('567')], 5);
		await expect(downloadFile(ctx, account, 'H4sh', { fileName: 'a.bin' })).rejects.toThrow(
			/more than the announced 5 bytes arrived/,
		);
		expect(handed).toHaveLength(0);
	});
});

describe('readWhole', () => {
	it('copies every chunk into one buffer of the announced length', async () => {
		const { buffer, bytes } = await readWhole(
			Readable.from([Buffer.from('ab'), Buffer.from('cde')]),
			5,
		);
		expect(bytes).toBe(5);
		expect(buffer.toString()).toBe('abcde');
	});

	it('answers the bytes that came when fewer than announced came', async () => {
		const { buffer, bytes } = await readWhole(Readable.from([Buffer.from('ab')]), 5);
		expect(bytes).toBe(2);
		expect(buffer.toString()).toBe('ab');
	});
});
