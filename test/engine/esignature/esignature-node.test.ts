import nock from 'nock';

import { BASE, form, rl, runNode, sessionLogin, unexpectedRequests } from '../search/run-search';
import { offlineWithNock } from '../../unit/offline';

const runEsign = (parameters: Record<string, unknown>, options?: Parameters<typeof runNode>[2]) =>
	runNode('cloudStorageESignature', { resource: 'signature', ...parameters } as never, options);

offlineWithNock();

describe('Get Many signatures', () => {
	it('posts file_hash and the dates with the token fields; one item per record', async () => {
		sessionLogin();
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_esignatures',
				(body) => ((sent = form(new URLSearchParams(body).toString())), true),
			)
			.reply(200, [
				{ file_hash: 'Fh1', signing_timestamp: '2026-03-01 09:00:00', signer_name: 'Anna Berg' },
				{ file_hash: 'Fh1', signing_timestamp: '2026-03-02 10:00:00', signer_name: 'Ben Carter' },
			]);
		const { out, error } = await runEsign({
			operation: 'getAll',
			file: rl('Fh1'),
			filters: { fromDate: '2026-03-01', toDate: '2026-03-02T18:30' },
		});
		expect(error).toBeUndefined();
		expect(sent).toEqual({
			file_hash: 'Fh1',
			from_date: '2026-03-01',
			to_date: '2026-03-02 18:30:00',
			user: 'demo',
			user_access_token: 'tok-secret-1',
		});
		expect(out.map((item) => item.json.signer_name)).toEqual(['Anna Berg', 'Ben Carter']);
	});

	it('sends no dates when none are given and honours Limit', async () => {
		sessionLogin();
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_esignatures',
				(body) => ((sent = form(new URLSearchParams(body).toString())), true),
			)
			.reply(200, [{ signer_name: 'a' }, { signer_name: 'b' }, { signer_name: 'c' }]);
		const { out } = await runEsign({
			operation: 'getAll',
			file: rl('https://www.example.test/f/Fh2', 'url'),
			returnAll: false,
			limit: 2,
		});
		expect(Object.keys(sent).sort()).toEqual(['file_hash', 'user', 'user_access_token']);
		expect(sent.file_hash).toBe('Fh2');
		expect(out).toHaveLength(2);
	});

	it('explains a 405 (missing file or no rights)', async () => {
		sessionLogin();
		nock(BASE)
			.post('/api_v2/get_esignatures')
			.reply(405, '', { 'Content-Type': 'application/json' });
		const { error } = await runEsign({ operation: 'getAll', file: rl('Nope') });
		expect(error?.message).toBe('The service refused the operation on file "Nope" (405, item 0)');
	});
});

describe('Request signatures', () => {
	it('posts emails[] and next_share_emails[] as PHP arrays with the message; outputs arrays', async () => {
		sessionLogin();
		let raw = '';
		nock(BASE)
			.post('/api_v2/esignature_share')
			.reply(200, (_uri, body) => {
				raw = String(body);
				return {
					status: 'ok',
					sent_emails: 'anna@example.com,ben@example.org',
					next_share_emails: 'carla@example.net',
				};
			});
		const { out, error } = await runEsign({
			operation: 'request',
			file: rl('Fh1'),
			emails: 'anna@example.com, ben@example.org',
			text: 'Please sign',
			options: { nextShareEmails: 'carla@example.net' },
		});
		expect(error).toBeUndefined();
		expect([...new URLSearchParams(raw)]).toEqual([
			['file_hash', 'Fh1'],
			['emails[]', 'anna@example.com'],
			['emails[]', 'ben@example.org'],
			['text', 'Please sign'],
			['next_share_emails[]', 'carla@example.net'],
			['user', 'demo'],
			['user_access_token', 'tok-secret-1'],
		]);
		expect(out[0].json).toEqual({
			file_hash: 'Fh1',
			status: 'ok',
			sent_emails: ['anna@example.com', 'ben@example.org'],
			next_share_emails: ['carla@example.net'],
			outcome: 'applied',
		});
	});

	it('is not repeated after a 500: the e-mails may have gone out', async () => {
		sessionLogin();
		const scope = nock(BASE).post('/api_v2/esignature_share').once().reply(500, '');
		const { error } = await runEsign({
			operation: 'request',
			file: rl('Fh1'),
			emails: 'anna@example.com',
		});
		expect(scope.isDone()).toBe(true);
		expect(error?.message).toMatch(/may have been applied/);
		expect(error?.description).toMatch(/may have been e-mailed already/);
	});

	it('reports status "error"', async () => {
		sessionLogin();
		nock(BASE)
			.post('/api_v2/esignature_share')
			.reply(200, { status: 'error', sent_emails: '', next_share_emails: '' });
		const { error } = await runEsign({
			operation: 'request',
			file: rl('Fh1'),
			emails: 'anna@example.com',
		});
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The service did not send the signing request (status "error")');
	});
});

describe('Create Signing Page', () => {
	it('looks up the delete key when none is given and outputs the page, also as an HTML file', async () => {
		sessionLogin();
		let sent: Record<string, string> = {};
		nock(BASE)
			.post(
				'/api_v2/get_file_info',
				(body) => ((sent = form(new URLSearchParams(body).toString())), true),
			)
			.reply(200, { hash: 'Fh1', name: 'contract.pdf', delete_key: 'k'.repeat(32) });
		const { out, error } = await runEsign({
			operation: 'createSigningPage',
			file: rl('Fh1'),
			callbackUrl: 'https://n8n.example.test/webhook/esign',
			options: { binary: true, binaryPropertyName: 'page', title: 'Sign, please' },
		});
		expect(error).toBeUndefined();
		expect(sent.file_hash).toBe('Fh1');
		expect(out[0].json).toMatchObject({
			file_hash: 'Fh1',
			callback_url: 'https://n8n.example.test/webhook/esign',
			formats: ['edoc', 'pdf', 'asice'],
		});
		const html = String(out[0].json.html);
		expect(html).toContain(`<script src="${BASE}/esignature/form.js"></script>`);
		expect(html).toContain('"deleteKey":"kkkkkkkk');
		expect(html).toContain('<title>Sign, please</title>');
		expect(out[0].binary?.page).toMatchObject({
			mimeType: 'text/html',
			fileName: 'signing-page.html',
		});
	});

	it('uses a given key without any request', async () => {
		const unexpected = unexpectedRequests();
		const { out, error } = await runEsign({
			operation: 'createSigningPage',
			target: 'folder',
			folder: rl('Dh1'),
			folderEditKey: 'e'.repeat(32),
			callbackUrl: 'https://n8n.example.test/webhook/esign',
		});
		expect(error).toBeUndefined();
		expect(unexpected).toEqual([]);
		expect(out[0].json).toMatchObject({ folder_hash: 'Dh1' });
	});

	it('says why when the account gets no key for the file', async () => {
		sessionLogin();
		nock(BASE).post('/api_v2/get_file_info').reply(200, { hash: 'Fh1', delete_key: null });
		const { error } = await runEsign({
			operation: 'createSigningPage',
			file: rl('Fh1'),
			callbackUrl: 'https://n8n.example.test/w',
		});
		expect(error?.message).toBe('This account may not edit this file, so the form cannot sign it');
	});
});

describe('E-Signature: bad input fails before any request', () => {
	it.each([
		[
			{ operation: 'getAll', file: rl('Fh1'), filters: { fromDate: '1.3.2026' } },
			'From Date "1.3.2026" is not a date',
		],
		[
			{
				operation: 'getAll',
				file: rl('Fh1'),
				filters: { fromDate: '2026-03-02', toDate: '2026-03-01' },
			},
			'From Date is after To Date',
		],
		[{ operation: 'getAll', file: rl('a b') }, '"a b" is not a file hash'],
		[
			{ operation: 'request', file: rl('Fh1'), emails: 'anna@example' },
			'Recipient E-Mails: "anna@example" is not an e-mail address',
		],
		[
			{ operation: 'request', file: rl('Fh1'), emails: '={{ " , " }}' },
			'Recipient E-Mails: no e-mail address given',
		],
		[
			{
				operation: 'request',
				file: rl('Fh1'),
				emails: 'a@b.io',
				options: { nextShareEmails: 'nope' },
			},
			'Next Share E-Mails: "nope" is not an e-mail address',
		],
		[
			{ operation: 'createSigningPage', file: rl('Fh1'), callbackUrl: 'not a url' },
			'"not a url" is not a URL',
		],
		[
			{ operation: 'createSigningPage', file: rl('Fh1'), callbackUrl: 'ftp://n8n.example.test/w' },
			'The callback URL must use https (got ftp://n8n.example.test)',
		],
		[
			{
				operation: 'createSigningPage',
				file: rl('Fh1'),
				callbackUrl: 'https://x.test/w',
				formSettings: { formats: [] },
			},
			'No signing format allowed',
		],
	])('%j', async (parameters, message) => {
		const unexpected = unexpectedRequests();
		const { error } = await runEsign(parameters);
		expect(error?.message).toBe(message);
		expect(error?.name).toBe('NodeOperationError');
		expect(unexpected).toEqual([]);
	});
});
