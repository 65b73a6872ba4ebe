import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { DEMO_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import { EICAR } from '../../sandbox/http/upload-sink.ts';
import {
	boot,
	control,
	createFolder,
	DEMO_TOKEN,
	expectEmpty,
	FREE_TOKEN,
	upload,
	uploadOk,
	v2,
	readJson,
} from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

/** Sends a raw HTTP request, half-closes, and returns whatever came back. */
function rawExchange(port: number, head: string, body: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1', () => {
			socket.write(head + body);
			setTimeout(() => socket.end(), 50);
		});
		let answer = '';
		socket.on('data', (chunk) => (answer += chunk));
		socket.on('close', () => resolve(answer));
		socket.on('error', reject);
	});
}

describe('upload_file', () => {
	it('stores the file, suffixes duplicates before the extension and records watermark fields', async () => {
		const folder = await createFolder(sandbox);
		const first = await uploadOk(sandbox, folder.folder_hash, 'report.pdf', 'one');
		expect(first.file_name).toBe('report.pdf');
		expect(first.file_delete_key).toMatch(/^[0-9a-f]{32}$/);
		expect(
			Number.isInteger(first.timestamp_uploaded) && Number.isInteger(first.timestamp_last_modified),
		).toBe(true);
		expect((await uploadOk(sandbox, folder.folder_hash, 'report.pdf', 'two')).file_name).toBe(
			'report (1).pdf',
		);
		expect((await uploadOk(sandbox, folder.folder_hash, 'REPORT.pdf', 'three')).file_name).toBe(
			'REPORT (2).pdf',
		);

		const marked = await upload(sandbox, 'photo.jpg', 'jpg', {
			...DEMO_TOKEN,
			folder_hash: folder.folder_hash,
			watermark_text: '© demo',
			watermark_position: 'TOP_LEFT',
		});
		const { file_hash } = await readJson(marked);
		expect(sandbox.store.file(file_hash)!.watermark).toEqual({
			text: '© demo',
			position: 'TOP_LEFT',
			color: 'F0FF3C',
		});
		// Stamping changes the image: the stored size is not the size sent (a client cannot match on it).
		expect(sandbox.store.file(file_hash)!.size).not.toBe(3);
		const bad = await upload(sandbox, 'p.jpg', 'x', {
			...DEMO_TOKEN,
			folder_hash: folder.folder_hash,
			watermark_text: 'w',
			watermark_position: 'MIDDLE',
		});
		await expectEmpty(bad, 400);
	});

	it('lets a folder_upload_key alone authorize; a wrong key without credentials is 401', async () => {
		const folder = await createFolder(sandbox);
		const keyed = await upload(sandbox, 'k.txt', 'key', {
			folder_hash: folder.folder_hash,
			folder_upload_key: folder.folder_upload_key,
		});
		expect(keyed.status).toBe(200);
		await expectEmpty(
			await upload(sandbox, 'k.txt', 'key', {
				folder_hash: folder.folder_hash,
				folder_upload_key: 'f'.repeat(32),
			}),
			401,
		);
		await expectEmpty(
			await upload(sandbox, 'k.txt', 'key', { folder_hash: folder.folder_hash }),
			401,
		);
		await expectEmpty(
			await upload(sandbox, 'k.txt', 'key', { ...FREE_TOKEN, folder_hash: folder.folder_hash }),
			405,
		);
	});

	it('refuses ROOT, missing folders and malformed requests', async () => {
		await expectEmpty(
			await upload(sandbox, 'r.txt', 'r', { ...DEMO_TOKEN, folder_hash: DEMO_ACCOUNT.rootHash }),
			405,
		);
		await expectEmpty(
			await upload(sandbox, 'r.txt', 'r', { ...DEMO_TOKEN, folder_hash: 'missing' }),
			405,
		);
		await expectEmpty(await upload(sandbox, 'r.txt', 'r', DEMO_TOKEN), 400);
		await expectEmpty(await v2(sandbox, 'upload_file', { ...DEMO_TOKEN, folder_hash: 'x' }), 400);
	});

	it('answers 400 for a multipart content type without a boundary', async () => {
		const response = await fetch(`${sandbox.baseUrl}/api_v2/upload_file`, {
			method: 'POST',
			headers: { 'Content-Type': 'multipart/form-data' },
			body: 'whatever',
		});
		await expectEmpty(response, 400);
	});

	it('answers 490 for EICAR (even across chunk borders) and 491 for a double extension', async () => {
		const folder = await createFolder(sandbox);
		const fields = { ...DEMO_TOKEN, folder_hash: folder.folder_hash };
		await expectEmpty(await upload(sandbox, 'eicar.com.txt', EICAR, fields), 490);
		const padded = Buffer.alloc(3 * 65536, 'a');
		padded.write(EICAR, 65536 - 20, 'latin1');
		await expectEmpty(await upload(sandbox, 'big.bin', padded, fields), 490);
		await expectEmpty(await upload(sandbox, 'invoice.pdf.exe', 'MZ', fields), 491);
		expect((await uploadOk(sandbox, folder.folder_hash, 'archive.tar.gz', 'ok')).file_name).toBe(
			'archive.tar.gz',
		);
		expect(sandbox.store.filesIn(sandbox.store.folder(folder.folder_hash)!.id)).toHaveLength(1);
	});

	it('answers 493 over the file size limit and 492 over the folder size limit', async () => {
		sandbox.store.updateAccount('free', { fileSizeLimit: 1000, folderSizeLimit: 1500 });
		const folder = await createFolder(sandbox, {}, FREE_TOKEN);
		const fields = { ...FREE_TOKEN, folder_hash: folder.folder_hash };
		await expectEmpty(await upload(sandbox, 'big.bin', Buffer.alloc(1001), fields), 493);
		expect((await upload(sandbox, 'a.bin', Buffer.alloc(1000), fields)).status).toBe(200);
		await expectEmpty(await upload(sandbox, 'b.bin', Buffer.alloc(501), fields), 492);
		expect((await upload(sandbox, 'c.bin', Buffer.alloc(500), fields)).status).toBe(200);
	});

	it('answers 494 for a truncated multipart body', async () => {
		const folder = await createFolder(sandbox);
		const body =
			`--XyZ\r\nContent-Disposition: form-data; name="folder_hash"\r\n\r\n${folder.folder_hash}\r\n` +
			`--XyZ\r\nContent-Disposition: form-data; name="user"\r\n\r\ndemo\r\n` +
			`--XyZ\r\nContent-Disposition: form-data; name="user_access_token"\r\n\r\n${DEMO_ACCOUNT.token}\r\n` +
			`--XyZ\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\nhalf of the fi`;
		const response = await fetch(`${sandbox.baseUrl}/api_v2/upload_file`, {
			method: 'POST',
			headers: { 'Content-Type': 'multipart/form-data; boundary=XyZ' },
			body,
		});
		await expectEmpty(response, 494);
		expect(sandbox.store.filesIn(sandbox.store.folder(folder.folder_hash)!.id)).toHaveLength(0);
	});

	it('answers 494 when the body ends before the declared Content-Length', async () => {
		const folder = await createFolder(sandbox);
		const body = `--XyZ\r\nContent-Disposition: form-data; name="folder_hash"\r\n\r\n${folder.folder_hash}\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\nhalf`;
		const head = `POST /api_v2/upload_file HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${body.length + 500}\r\n\r\n`;
		const answer = await rawExchange(sandbox.port, head, body);
		expect(answer).toMatch(/^HTTP\/1\.1 494 /);
		const log = await readJson(control(sandbox, 'GET', 'requests'));
		expect(log.requests.at(-1)).toMatchObject({ path: '/api_v2/upload_file', status: 494 });
	});
});

describe('download_file', () => {
	it('streams the bytes with Content-Type and Content-Length', async () => {
		const folder = await createFolder(sandbox);
		const content = 'name,value\n1,2\n';
		const file = await uploadOk(sandbox, folder.folder_hash, 'data.csv', content);
		const response = await v2(sandbox, 'download_file', {
			...DEMO_TOKEN,
			file_hash: file.file_hash,
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('text/csv');
		expect(response.headers.get('content-length')).toBe(String(content.length));
		expect(await response.text()).toBe(content);
		expect(sandbox.store.file(file.file_hash)!.sha256).toBe(
			createHash('sha256').update(content).digest('hex'),
		);
	});

	it('serves LINK files to anyone, PRIVATE ones only to the owner (401 anonymous, 403 other account)', async () => {
		const open = await createFolder(sandbox, { access_type: 'LINK' });
		const closed = await createFolder(sandbox, { access_type: 'PRIVATE' });
		const openFile = await uploadOk(sandbox, open.folder_hash, 'open.txt', 'open');
		const closedFile = await uploadOk(sandbox, closed.folder_hash, 'closed.txt', 'closed');
		expect(
			await (await v2(sandbox, 'download_file', { file_hash: openFile.file_hash })).text(),
		).toBe('open');
		expect(
			await (
				await v2(sandbox, 'download_file', { ...FREE_TOKEN, file_hash: openFile.file_hash })
			).text(),
		).toBe('open');
		await expectEmpty(await v2(sandbox, 'download_file', { file_hash: closedFile.file_hash }), 401);
		await expectEmpty(
			await v2(sandbox, 'download_file', { ...FREE_TOKEN, file_hash: closedFile.file_hash }),
			403,
		);
		await expectEmpty(
			await v2(sandbox, 'download_file', {
				user: 'demo',
				pass: 'wrong',
				file_hash: openFile.file_hash,
			}),
			401,
		);
		expect(await (await fetch(`${sandbox.baseUrl}/down.php?i=${openFile.file_hash}`)).text()).toBe(
			'open',
		);
		expect((await fetch(`${sandbox.webUrl}/f/${openFile.file_hash}`)).status).toBe(200);
		expect((await fetch(`${sandbox.webUrl}/u/${closed.folder_hash}`)).status).toBe(404);
	});
});

it('leaves no temp files behind after refused, truncated and stored uploads', async () => {
	// Temp files are removed asynchronously: wait for the folder to empty (the jest timeout bounds a leak).
	while (fs.readdirSync(sandbox.store.tmpDir).length > 0)
		await new Promise((resolve) => setImmediate(resolve));
	expect(fs.readdirSync(sandbox.store.tmpDir)).toEqual([]);
});
