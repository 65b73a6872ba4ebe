// The transfers the transport sends on its own socket (an upload of a file on disk, a download into n8n's
// filesystem store), authenticated by the credential's own `authenticate` as n8n's helper would: against a
// real loopback server, through `apiRequest`.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../nodes/shared/transport/request';
import {
	fileBody,
	formBody,
	type CredentialType,
	type FileUpload,
} from '../../../nodes/shared/transport/request-types';
import { MODE_MARKER_HEADER } from '../../../nodes/shared/transport';
import { SocketBody } from '../../../nodes/shared/transport/socket-exchange';

let server: Server;
let base: string;
let received: Array<{ url?: string; headers: IncomingMessage['headers']; body: string }> = [];
const dir = mkdtempSync(join(tmpdir(), 'transfer-auth-'));
const path = join(dir, 'up.bin');
writeFileSync(path, 'file content');

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
			res.writeHead(200, { 'content-length': 2 }).end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => (received = []));
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	rmSync(dir, { recursive: true, force: true });
});

const CREDENTIALS: Record<string, Record<string, string>> = {
	cloudStorageTokenApi: { user: 'u', accessToken: 'T0ken', baseUrl: 'http://127.0.0.1' },
	cloudStoragePasswordApi: { user: 'u', password: 'pa:ss', baseUrl: 'http://127.0.0.1' },
};

function context(): { ctx: IExecuteFunctions; asked: string[] } {
	const asked: string[] = [];
	const ctx = {
		getNode: () => ({
			name: 'Cloud Storage',
			type: 'cloudStorage',
			typeVersion: 1,
			parameters: {},
		}),
		getNodeParameter: (_name: string, _item: number, fallback: unknown) => fallback,
		getExecutionCancelSignal: () => undefined,
		getCredentials: async (type: string) => {
			asked.push(type);
			return CREDENTIALS[type];
		},
		helpers: {},
	};
	return { ctx: ctx as unknown as IExecuteFunctions, asked };
}

const upload = (fields: Record<string, string | undefined>): FileUpload => ({
	fields,
	field: 'file',
	fileName: 'up.bin',
	source: {
		fileName: 'up.bin',
		mimeType: 'text/plain',
		size: 12,
		path,
		open: async () => Buffer.from('file content'),
	},
});

async function read(body: unknown): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of body as Readable) chunks.push(Buffer.from(chunk as Buffer));
	return Buffer.concat(chunks).toString();
}

it('adds a token credential’s fields to an upload’s form, after its own and before the file, never to the URL', async () => {
	const { ctx } = context();
	await apiRequest(ctx, {
		api: 'v1',
		url: `${base}/save_file.php`,
		method: 'POST',
		credential: { type: 'cloudStorageTokenApi' },
		write: {},
		query: { up_id: 'F', do: 'update' },
		answer: { as: 'text' },
		body: fileBody(upload({ folder_hash: 'F', folder_upload_key: undefined, watermark_text: '' })),
	});
	const [sent] = received;
	// The query string as n8n's helper would join it; the secret only in the body.
	expect(sent.url).toBe('/save_file.php?up_id=F&do=update');
	expect(sent.headers[MODE_MARKER_HEADER]).toBeUndefined();
	expect(sent.headers['user-agent']).toBe('n8n');
	const names = [...sent.body.matchAll(/; name="([^"]+)"/g)].map((match) => match[1]);
	// Undefined and empty fields are left out, as the multipart path leaves them out.
	expect(names).toEqual(['folder_hash', 'user', 'user_access_token', 'file']);
	expect(sent.body).toContain('T0ken');
	expect(sent.body).toContain('file content');
});

it('sends an upload by upload key anonymously: no credential read, no authentication', async () => {
	const { ctx, asked } = context();
	await apiRequest(ctx, {
		api: 'v2',
		url: `${base}/api_v2/upload_file`,
		method: 'POST',
		write: {},
		answer: { as: 'text' },
		body: fileBody(upload({ folder_hash: 'F', folder_upload_key: 'K3y' })),
	});
	expect(asked).toEqual([]);
	const names = [...received[0].body.matchAll(/; name="([^"]+)"/g)].map((match) => match[1]);
	expect(names).toEqual(['folder_hash', 'folder_upload_key', 'file']);
	expect(received[0].headers.authorization).toBeUndefined();
});

it.each<[string, CredentialType, string, string | undefined]>([
	['token', 'cloudStorageTokenApi', 'file_hash=H&user=u&user_access_token=T0ken', undefined],
	[
		'password',
		'cloudStoragePasswordApi',
		'file_hash=H',
		`Basic ${Buffer.from('u:pa:ss').toString('base64')}`,
	],
])(
	'authenticates a download on its own socket with a %s credential as n8n’s helper would',
	async (_name, credentialType, body, authorization) => {
		const { ctx } = context();
		const response = await apiRequest(ctx, {
			api: 'v2',
			url: `${base}/api_v2/download_file`,
			method: 'POST',
			credential: { type: credentialType },
			body: formBody({ file_hash: 'H' }),
			answer: { as: 'store' },
		});
		expect(response.body).toBeInstanceOf(SocketBody);
		expect(await read(response.body)).toBe('ok');
		const [sent] = received;
		expect(sent.url).toBe('/api_v2/download_file');
		expect(sent.body).toBe(body);
		expect(sent.headers.authorization).toBe(authorization);
		expect(sent.headers[MODE_MARKER_HEADER]).toBeUndefined();
	},
);
