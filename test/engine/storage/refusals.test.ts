/**
 * What the user gave, named back: a 405 (the service's answer to a wrong hash, no rights or a forbidden
 * operation, with an empty body) says which item and which hash it refused; an empty file is stored and said.
 */
import nock from 'nock';

import { EMPTY_NOTICE } from '../../../nodes/Storage/actions/file/upload.operation';
import { BASE, rl, runStorage, sessionLogin } from '../../unit/storage/run-storage';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const uploaded = {
	file_hash: 'Empty1',
	file_delete_key: 'd'.repeat(32),
	file_name: 'empty.txt',
	timestamp_uploaded: 1700000000,
	timestamp_last_modified: 1700000000,
};

it('a 405 on Get names the file hash and the item it refused', async () => {
	sessionLogin();
	nock(BASE).post('/api_v2/get_file_info').reply(405, '', { 'Content-Type': 'application/json' });
	const { error } = await runStorage({ resource: 'file', operation: 'get', file: rl('Gone42') });
	expect(error?.message).toBe('The service refused the operation on file "Gone42" (405, item 0)');
	expect(error?.description).toMatch(/wrong or deleted hash/);
});

it('a 405 on Move names both the file and the target folder', async () => {
	sessionLogin();
	nock(BASE).post('/api_v2/move_file').reply(405, '');
	const { error } = await runStorage({
		resource: 'file',
		operation: 'move',
		file: rl('F1le'),
		targetFolder: rl('Other'),
	});
	expect(error?.message).toBe(
		'The service refused the operation on file "F1le", folder "Other" (405, item 0)',
	);
});

it('a 0-byte upload is stored and the output says the file is empty', async () => {
	sessionLogin(2); // the session, then the account data that tells ROOT's hash
	let body = '';
	// The folder's files before the upload (what a lost answer's proof must never adopt).
	nock(BASE).post('/api_v2/get_folder_content').reply(200, []);
	nock(BASE)
		.post('/api_v2/upload_file')
		.reply((_uri, raw) => ((body = String(raw)), [200, uploaded]));
	const { out, error } = await runStorage(
		{ resource: 'file', operation: 'upload', folder: rl('Fold3r'), binaryPropertyName: 'data' },
		{ binary: { content: '', fileName: 'empty.txt', mimeType: 'text/plain' } },
	);
	expect(error).toBeUndefined();
	expect(body).toMatch(
		/name="file"; filename="empty.txt"\r\nContent-Type: text\/plain\r\n\r\n\r\n--/,
	);
	expect(out[0].json).toMatchObject({ hash: 'Empty1', size: 0, empty: true, notice: EMPTY_NOTICE });
});

it('a file with content carries no empty notice', async () => {
	sessionLogin(2);
	nock(BASE).post('/api_v2/get_folder_content').reply(200, []);
	nock(BASE)
		.post('/api_v2/upload_file')
		.reply(200, { ...uploaded, file_name: 'a.txt' });
	const { out } = await runStorage(
		{ resource: 'file', operation: 'upload', folder: rl('Fold3r'), binaryPropertyName: 'data' },
		{ binary: { content: 'x', fileName: 'a.txt', mimeType: 'text/plain' } },
	);
	expect(out[0].json).not.toHaveProperty('empty');
	expect(out[0].json).not.toHaveProperty('notice');
});
