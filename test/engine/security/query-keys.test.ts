/**
 * Capability keys that the documents place in a query string (DeleteKey, del_key, add_key, key) go there,
 * and never reach an error message: URLs are shown without their query string.
 */
import nock from 'nock';

import { displayUrl, withoutQueryStrings } from '../../../nodes/shared/transport';
import { BASE, rl, runStorage } from '../../unit/storage/run-storage';
import { callsThroughNock } from '../../unit/offline';

callsThroughNock();

beforeEach(() => {
	nock.cleanAll();
	nock.disableNetConnect();
});
afterAll(() => {
	nock.enableNetConnect();
	nock.restore();
});

describe('URLs in messages', () => {
	it('drop the query string of every URL in a text', () => {
		expect(
			withoutQueryStrings(
				'GET https://api.example.test/api/get_upload_tree.php?Hash=a&DeleteKey=secret failed',
			),
		).toBe('GET https://api.example.test/api/get_upload_tree.php failed');
		expect(withoutQueryStrings('at "http://localhost:1/save_file.php?up_id=x&key=k3y"')).toBe(
			'at "http://localhost:1/save_file.php"',
		);
		expect(displayUrl('https://api.example.test/api/get_file_info.php?hash=h&del_key=d')).toBe(
			'https://api.example.test/api/get_file_info.php',
		);
	});
});

describe('keys in documented query strings never reach an error', () => {
	it('a tree request that fails by status names no key', async () => {
		nock(BASE)
			.post('/api/authenticate_user.php')
			.reply(200, { Success: true, SessionID: 's1', UserData: { root_upload_hash: 'R1' } });
		nock(BASE)
			.post('/api_v2/get_folder_info')
			.reply(200, { hash: 'T1', delete_key: 'edit-key-secret' });
		nock(BASE).get('/api/get_upload_tree.php').query(true).reply(403, '');
		const { error } = await runStorage({
			resource: 'folder',
			operation: 'getTree',
			folder: rl('T1'),
		});
		expect(error).toBeDefined();
		expect(
			JSON.stringify({ message: error?.message, description: error?.description }),
		).not.toContain('edit-key-secret');
	});

	it('an unreachable service is named by host and path only', async () => {
		nock(BASE)
			.post('/api/authenticate_user.php')
			.reply(200, { Success: true, SessionID: 's1', UserData: { root_upload_hash: 'R1' } });
		nock(BASE)
			.post('/api_v2/get_file_info')
			.reply(200, { hash: 'I', name: 'p.png', delete_key: 'del-key-secret' });
		nock(BASE)
			.get('/api/get_file_info.php')
			.query(true)
			.times(5)
			.replyWithError(
				Object.assign(
					new Error(
						`connect ECONNREFUSED ${BASE}/api/get_file_info.php?hash=I&del_key=del-key-secret`,
					),
					{ code: 'ECONNREFUSED' },
				),
			);
		const { error } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('I'),
			options: { legacyDetails: true, requestOptions: {} },
		});
		expect(error).toBeDefined();
		expect(
			JSON.stringify({ message: error?.message, description: error?.description }),
		).not.toContain('del-key-secret');
	});
});
