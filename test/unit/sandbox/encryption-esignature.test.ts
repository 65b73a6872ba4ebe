import { DEMO_ACCOUNT, FREE_ACCOUNT, type Sandbox } from '../../sandbox/server.ts';
import {
	boot,
	control,
	createFolder,
	DEMO_TOKEN,
	expectEmpty,
	FREE_TOKEN,
	readJson,
	uploadOk,
	v2,
} from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const DEMO_ID = String(DEMO_ACCOUNT.id);
const FREE_ID = String(FREE_ACCOUNT.id);
const keysOf = (prefix: string) => ({
	kem: `${prefix}-kem`,
	dsa: `${prefix}-dsa`,
	x25519: `${prefix}-x25519`,
	ed25519: `${prefix}-ed25519`,
});

describe('end-to-end-encryption key storage', () => {
	it('saves user keys and a file key, and returns it with the sender public keys', async () => {
		expect(
			await readJson(
				v2(sandbox, 'save_user_encryption_keys', {
					...DEMO_TOKEN,
					userID: DEMO_ID,
					...keysOf('demo'),
				}),
			),
		).toEqual({
			success: true,
		});
		const folder = await createFolder(sandbox, { access_type: 'LINK' });
		const file = await uploadOk(sandbox, folder.folder_hash, 'secret.bin', 'ciphertext');
		const saved = await v2(sandbox, 'save_file_encryption_key', {
			...DEMO_TOKEN,
			userID: DEMO_ID,
			fileHash: file.file_hash,
			encryptionKey: 'wrapped-key',
			keySignature: 'key-sig',
			fileSignature: 'file-sig',
		});
		expect(await readJson(saved)).toEqual({ success: true });
		expect(sandbox.store.file(file.file_hash)!.encrypted).toBe(true);
		const got = await readJson(
			v2(sandbox, 'get_file_encryption_key', {
				...DEMO_TOKEN,
				userID: DEMO_ID,
				fileHash: file.file_hash,
			}),
		);
		expect(got).toEqual({
			encryptionKey: 'wrapped-key',
			keySignature: 'key-sig',
			fileSignature: 'file-sig',
			senderPublicKEMKey: 'demo-kem',
			senderPublicDSAKey: 'demo-dsa',
			senderPublicX25519Key: 'demo-x25519',
			senderPublicED25519Key: 'demo-ed25519',
			senderUserID: DEMO_ACCOUNT.id,
		});
		// Another user with download rights (LINK) reads the encrypting user's entry with isEncryptedFolder.
		const other = { ...FREE_TOKEN, userID: FREE_ID, fileHash: file.file_hash };
		await expectEmpty(await v2(sandbox, 'get_file_encryption_key', other), 404);
		const shared = await readJson(
			v2(sandbox, 'get_file_encryption_key', { ...other, isEncryptedFolder: 'true' }),
		);
		expect(shared).toMatchObject({ encryptionKey: 'wrapped-key', senderUserID: DEMO_ACCOUNT.id });
	});

	it('stores folder keys and share keys with the receiver public keys', async () => {
		await v2(sandbox, 'save_user_encryption_keys', {
			...DEMO_TOKEN,
			userID: DEMO_ID,
			...keysOf('demo'),
		});
		const folder = await createFolder(sandbox);
		const base = { ...DEMO_TOKEN, userID: DEMO_ID, uploadHash: folder.folder_hash };
		await expectEmpty(await v2(sandbox, 'get_upload_encryption_key', base), 404);
		expect(
			await readJson(
				v2(sandbox, 'save_upload_encryption_key', {
					...base,
					encryptionKey: 'fk',
					keySignature: 'fs',
				}),
			),
		).toEqual({ success: true });
		expect(await readJson(v2(sandbox, 'get_upload_encryption_key', base))).toEqual({
			encryptionKey: 'fk',
			keySignature: 'fs',
			senderPublicKEMKey: 'demo-kem',
			senderPublicDSAKey: 'demo-dsa',
			senderPublicX25519Key: 'demo-x25519',
			senderPublicED25519Key: 'demo-ed25519',
			senderUserID: DEMO_ACCOUNT.id,
		});
		const share = { ...base, receiverEmail: FREE_ACCOUNT.email };
		await expectEmpty(await v2(sandbox, 'get_share_encryption_key', share), 404);
		await v2(sandbox, 'save_user_encryption_keys', {
			...FREE_TOKEN,
			userID: FREE_ID,
			...keysOf('free'),
		});
		expect(await readJson(v2(sandbox, 'get_share_encryption_key', share))).toEqual({
			encryptionKey: 'fk',
			keySignature: 'fs',
			receiverKEMKey: 'free-kem',
			receiverDSAKey: 'free-dsa',
			receiverX25519Key: 'free-x25519',
			receiverED25519Key: 'free-ed25519',
			receiverUserID: FREE_ACCOUNT.id,
		});
		await expectEmpty(
			await v2(sandbox, 'get_share_encryption_key', { ...share, fileHash: 'x' }),
			400,
		);
		const { uploadHash: _omit, ...neither } = share;
		await expectEmpty(await v2(sandbox, 'get_share_encryption_key', neither), 400);
	});

	it('checks userID, fields, items and rights', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.bin', 'a');
		const save = { encryptionKey: 'k', keySignature: 's', fileHash: file.file_hash };
		await expectEmpty(
			await v2(sandbox, 'save_file_encryption_key', { ...DEMO_TOKEN, ...save, userID: FREE_ID }),
			403,
		);
		await expectEmpty(
			await v2(sandbox, 'save_file_encryption_key', { ...DEMO_TOKEN, ...save, userID: 'abc' }),
			400,
		);
		await expectEmpty(
			await v2(sandbox, 'save_file_encryption_key', { ...DEMO_TOKEN, ...save }),
			400,
		);
		const { keySignature: _drop, ...missing } = save;
		await expectEmpty(
			await v2(sandbox, 'save_file_encryption_key', { ...DEMO_TOKEN, ...missing, userID: DEMO_ID }),
			400,
		);
		await expectEmpty(
			await v2(sandbox, 'save_file_encryption_key', {
				...DEMO_TOKEN,
				...save,
				fileHash: 'gone',
				userID: DEMO_ID,
			}),
			404,
		);
		// Someone else's PRIVATE file: no edit and no download rights.
		await expectEmpty(
			await v2(sandbox, 'save_file_encryption_key', { ...FREE_TOKEN, ...save, userID: FREE_ID }),
			403,
		);
		await expectEmpty(
			await v2(sandbox, 'get_file_encryption_key', {
				...FREE_TOKEN,
				fileHash: file.file_hash,
				userID: FREE_ID,
			}),
			403,
		);
		await expectEmpty(
			await v2(sandbox, 'save_user_encryption_keys', { ...DEMO_TOKEN, userID: DEMO_ID, kem: 'k' }),
			400,
		);
		await expectEmpty(
			await v2(sandbox, 'save_user_encryption_keys', { userID: DEMO_ID, ...keysOf('x') }),
			401,
		);
	});
});

describe('e-signature actions', () => {
	it('get_esignatures filters by inclusive from/to dates', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'contract.pdf', '%PDF');
		for (const [when, who] of [
			['2026-03-01 09:00:00', 'Anna Berzina'],
			['2026-03-02 23:59:59', 'Janis Ozols'],
			['2026-03-03 00:00:00', 'Liga Kalna'],
		]) {
			await control(sandbox, 'POST', 'signatures', {
				file_hash: file.file_hash,
				signing_timestamp: when,
				signer_name: who,
			});
		}
		const signatures = (fields: Record<string, string>) =>
			readJson(
				v2(sandbox, 'get_esignatures', { ...DEMO_TOKEN, file_hash: file.file_hash, ...fields }),
			);
		expect(await signatures({})).toHaveLength(3);
		expect(await signatures({ from_date: '2026-03-02', to_date: '2026-03-02' })).toEqual([
			{
				file_hash: file.file_hash,
				signing_timestamp: '2026-03-02 23:59:59',
				signer_name: 'Janis Ozols',
			},
		]);
		expect(
			(await signatures({ from_date: '2026-03-01 09:00:00', to_date: '2026-03-03 00:00' })).length,
		).toBe(3);
		await expectEmpty(
			await v2(sandbox, 'get_esignatures', {
				...DEMO_TOKEN,
				file_hash: file.file_hash,
				to_date: '2026-02-30',
			}),
			400,
		);
		await expectEmpty(
			await v2(sandbox, 'get_esignatures', {
				...DEMO_TOKEN,
				file_hash: file.file_hash,
				from_date: 'yesterday',
			}),
			400,
		);
		await expectEmpty(await v2(sandbox, 'get_esignatures', DEMO_TOKEN), 400);
		await expectEmpty(
			await v2(sandbox, 'get_esignatures', { ...FREE_TOKEN, file_hash: file.file_hash }),
			405,
		);
	});

	it('esignature_share records what would be e-mailed and validates addresses', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'contract.pdf', '%PDF');
		const body = new URLSearchParams({
			...DEMO_TOKEN,
			file_hash: file.file_hash,
			text: 'Please sign',
		});
		body.append('emails[]', 'anna@example.com');
		body.append('emails[]', 'janis@example.lv');
		body.append('next_share_emails[]', 'boss@example.com');
		const response = await fetch(`${sandbox.baseUrl}/api_v2/esignature_share`, {
			method: 'POST',
			body,
		});
		expect(await readJson(response)).toEqual({
			status: 'ok',
			sent_emails: 'anna@example.com,janis@example.lv',
			next_share_emails: 'boss@example.com',
		});
		const outbox = (await readJson(control(sandbox, 'GET', 'outbox'))).outbox;
		expect(outbox).toEqual([
			expect.objectContaining({
				file_hash: file.file_hash,
				emails: ['anna@example.com', 'janis@example.lv'],
				text: 'Please sign',
				next_share_emails: ['boss@example.com'],
				byUserId: DEMO_ACCOUNT.id,
			}),
		]);
		const share = (fields: Record<string, string>) =>
			v2(sandbox, 'esignature_share', { ...DEMO_TOKEN, file_hash: file.file_hash, ...fields });
		await expectEmpty(await share({ 'emails[]': 'not-an-address' }), 400);
		await expectEmpty(await share({ emails: 'a@example.com,b@example.com' }), 400);
		await expectEmpty(await share({}), 400);
		await expectEmpty(
			await share({ 'emails[]': 'a@example.com', 'next_share_emails[]': 'nope' }),
			400,
		);
		expect((await share({ 'emails[0]': 'a@example.com' })).status).toBe(200);
		await expectEmpty(
			await v2(sandbox, 'esignature_share', {
				...FREE_TOKEN,
				file_hash: file.file_hash,
				'emails[]': 'a@example.com',
			}),
			405,
		);
	});
});
