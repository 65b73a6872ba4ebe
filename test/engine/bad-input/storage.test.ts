/**
 * Bad input for the Storage node (and the answers only the service can reveal as bad): every case gives
 * an error naming the problem on each item, with the item index, and sends nothing it could check first.
 */
import nock from 'nock';

import { BASE, badInputSuite, CREDENTIALS, rl, WEB, type BadInput } from './harness';

const node = 'cloudStorage';
const file = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'file',
	operation,
	...extra,
});
const folder = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'folder',
	operation,
	...extra,
});
const PDF = { content: '%PDF-1.4 x' };

/** A persisting answer for one v2 action. */
const v2Answer =
	(action: string, status: number, body: string | Buffer, type = 'application/json') =>
	() => {
		nock(BASE).persist().post(`/api_v2/${action}`).reply(status, body, { 'Content-Type': type });
	};

const cases: BadInput[] = [
	// Malformed hashes and links
	{
		name: 'file hash with a space',
		node,
		parameters: file('get', { file: rl('ab cd') }),
		error: /"ab cd" is not a file hash/,
	},
	{
		name: 'file hash with a slash',
		node,
		parameters: file('delete', { file: rl('ab/cd') }),
		error: /"ab\/cd" is not a file hash/,
	},
	{
		name: 'file hash with a query',
		node,
		parameters: file('download', { file: rl('abc?x=1') }),
		error: /is not a file hash/,
	},
	{
		name: 'empty file hash from an expression',
		node,
		parameters: file('get', { file: rl('={{ "" }}') }),
		error: /No file given/,
	},
	{
		name: 'whitespace-only file hash',
		node,
		parameters: file('getKeys', { file: rl('={{ "   " }}') }),
		error: /No file given/,
	},
	{
		name: 'folder link given for a file',
		node,
		parameters: file('get', { file: rl(`={{ "${WEB}/u/Fh1" }}`, 'url') }),
		error: /is not a file link/,
	},
	{
		name: 'file link of an unknown kind',
		node,
		parameters: file('rename', { file: rl(`={{ "${WEB}/zz/Fh1" }}`, 'url'), name: 'a.pdf' }),
		error: /is not a file link/,
	},
	{
		name: 'file link with no hash',
		node,
		parameters: file('delete', { file: rl(`={{ "${WEB}/f/" }}`, 'url') }),
		error: /is not a file link/,
	},
	{
		name: 'folder hash with a slash',
		node,
		parameters: folder('list', { folder: rl('a/b') }),
		error: /"a\/b" is not a folder hash/,
	},
	{
		name: 'file link given for a folder',
		node,
		parameters: folder('get', { folder: rl(`={{ "${WEB}/f/abc" }}`, 'url') }),
		error: /is not a folder link/,
	},
	{
		name: 'empty target folder of a move',
		node,
		parameters: file('move', { file: rl('Fh1'), targetFolder: rl('={{ "" }}') }),
		error: /No folder given/,
	},
	{
		name: 'malformed target folder link of a move',
		node,
		parameters: file('move', {
			file: rl('Fh1'),
			targetFolder: rl('={{ "https://www.example.test/x/1" }}', 'url'),
		}),
		error: /is not a folder link/,
	},
	{
		name: 'path link of another account',
		node,
		parameters: file('get', { file: rl(`${WEB}/pa/other/a.pdf`, 'url') }),
		error: /belongs to "other", not to this account/,
		answer: () => {
			nock(BASE)
				.persist()
				.post('/api/authenticate_user.php')
				.reply(200, {
					Success: true,
					UserData: { ID: 7, UserName: 'demo', root_upload_hash: 'R1' },
				});
		},
	},

	// ROOT where it is not allowed
	{
		name: 'delete ROOT',
		node,
		parameters: folder('delete', { folder: rl('ROOT') }),
		error: /ROOT cannot be deleted/,
	},
	{
		name: 'rename ROOT',
		node,
		parameters: folder('rename', { folder: rl('root'), name: 'x' }),
		error: /ROOT cannot be renamed/,
	},
	{
		name: 'upload into ROOT',
		node,
		parameters: file('upload', { folder: rl('ROOT'), binaryPropertyName: 'data' }),
		binary: PDF,
		error: /cannot be uploaded directly into ROOT/,
	},

	// Empty and malformed names and values
	{
		name: 'empty new file name',
		node,
		parameters: file('rename', { file: rl('Fh1'), name: '={{ "  " }}' }),
		error: /The name is empty/,
	},
	{
		name: 'file name with a slash',
		node,
		parameters: file('rename', { file: rl('Fh1'), name: 'a/b.pdf' }),
		error: /"a\/b.pdf" contains a slash/,
	},
	{
		name: 'folder name with a slash',
		node,
		parameters: folder('rename', { folder: rl('F1'), name: 'x/y' }),
		error: /contains a slash/,
	},
	{
		name: 'empty folder path',
		node,
		parameters: folder('createPath', { path: '={{ "/" }}' }),
		error: /The path is empty/,
	},
	{
		name: 'folder path with ..',
		node,
		parameters: folder('createPath', { path: 'a/../b' }),
		error: /contains \. or \.\./,
	},
	{
		name: 'no folder hashes to check',
		node,
		parameters: folder('checkExistence', { hashes: '={{ " , " }}' }),
		error: /No folder hashes given/,
	},
	{
		name: 'unknown access type',
		node,
		parameters: folder('create', { name: 'x', options: { accessType: 'SECRET' } }),
		error: /Unknown access type "SECRET"/,
	},
	{
		name: 'share key for a malformed e-mail',
		node,
		parameters: {
			resource: 'encryption',
			operation: 'getShareKey',
			receiverEmail: 'anna@',
			shareKind: 'file',
			file: rl('Fh1'),
		},
		error: /"anna@" is not an e-mail address/,
	},
	{
		name: 'missing binary property',
		node,
		parameters: file('upload', { folder: rl('F1'), binaryPropertyName: 'attachment' }),
		binary: PDF,
		error: /No binary property "attachment"/,
	},
	{
		name: 'watermark that is not an image',
		node,
		parameters: file('upload', {
			folder: rl('F1'),
			binaryPropertyName: 'data',
			options: { watermarkText: 'Draft' },
		}),
		binary: PDF,
		error: /watermark needs a JPG or PNG image/,
	},
	{
		name: 'watermark colour that is not a colour',
		node,
		parameters: file('upload', {
			folder: rl('F1'),
			binaryPropertyName: 'data',
			options: { watermarkText: 'Draft', watermarkColor: 'blue-ish' },
		}),
		binary: { content: 'x', fileName: 'w.png', mimeType: 'image/png' },
		error: /"blue-ish" is not a colour/,
	},
	{
		name: 'plain http base URL',
		node,
		parameters: file('get', { file: rl('Fh1') }),
		credentials: {
			cloudStorageTokenApi: {
				...CREDENTIALS.cloudStorageTokenApi,
				baseUrl: 'http://api.example.test',
			},
		},
		error: /Refusing plain http for api\.example\.test/,
	},
	{
		name: 'base URL that is not a URL',
		node,
		parameters: file('get', { file: rl('Fh1') }),
		credentials: {
			cloudStorageTokenApi: { ...CREDENTIALS.cloudStorageTokenApi, baseUrl: 'api example' },
		},
		error: /not a valid URL/,
	},

	// Answers that are not what the contract promises
	{
		name: 'a 200 with an HTML body',
		node,
		parameters: file('get', { file: rl('Fh1') }),
		error: /HTML page/,
		answer: v2Answer(
			'get_file_info',
			200,
			'<!doctype html><html><body>Maintenance</body></html>',
			'text/html',
		),
	},
	{
		name: 'a 200 with malformed JSON',
		node,
		parameters: file('get', { file: rl('Fh1') }),
		error: /JSON|plain text/i,
		answer: v2Answer('get_file_info', 200, '{"hash": "Fh1", '),
	},
	{
		name: 'a response larger than the cap',
		node,
		parameters: file('get', { file: rl('Fh1') }),
		error: /response larger than 32 MiB .*refuses oversized responses/,
		answer: v2Answer('get_file_info', 200, Buffer.alloc(33 * 1024 * 1024, 0x20)),
	},
];

badInputSuite(cases);

it('still works for a good item after all the bad ones', async () => {
	const { runWorkflow, chain, PACKAGE_NAME } = await import('../../engine/harness');
	nock.cleanAll();
	nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'Fh1', name: 'a.pdf' });
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'Node', type: `${PACKAGE_NAME}.${node}`, parameters: file('get', { file: rl('Fh1') }) },
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'Node') },
		{ credentials: structuredClone(CREDENTIALS) as never },
	);
	expect(result.error).toBeUndefined();
	expect(result.nodeOutput('Node')[0].json).toMatchObject({ hash: 'Fh1' });
});
