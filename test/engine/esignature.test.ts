/**
 * The E-Signature node through n8n's engine against the sandbox: signatures listed with inclusive date
 * filters, signing requests e-mailed (the sandbox's outbox), the signing page for a file and a folder
 * (keys looked up or given), the form's signing simulated through the sandbox, and bad input refused
 * before any request.
 */
import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { createFolder, uploadOk, type CreatedFolder } from '../unit/sandbox/helpers';
import { chain, type NodeSpec, PACKAGE_NAME, runWorkflow } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let folder: CreatedFolder;
let contract: Awaited<ReturnType<typeof uploadOk>>;

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: DEMO_ACCOUNT.username,
		accessToken: DEMO_ACCOUNT.token,
	},
});

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	folder = await createFolder(sandbox, { folder_name: 'To sign' });
	contract = await uploadOk(sandbox, folder.folder_hash, 'contract.pdf', '%PDF-1.7 contract');
	await uploadOk(sandbox, folder.folder_hash, 'annex.pdf', '%PDF-1.7 annex');
	for (const [signer_name, signing_timestamp] of [
		['Anna Berg', '2026-03-01 09:15:00'],
		['Ben Carter', '2026-03-02 23:59:30'],
		['Carla Diaz', '2026-03-03 00:00:00'],
	]) {
		await control('POST', 'signatures', {
			file_hash: contract.file_hash,
			signer_name,
			signing_timestamp,
		});
	}
});
afterAll(async () => await sandbox?.close());

async function control(method: string, name: string, body?: unknown): Promise<any> {
	const response = await fetch(`${sandbox.baseUrl}/__sandbox/${name}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${name} answered ${response.status}`);
	return await response.json();
}

async function esign(parameters: NodeSpec['parameters']) {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'E-Signature',
			type: `${PACKAGE_NAME}.cloudStorageESignature`,
			parameters: { resource: 'signature', ...parameters },
		},
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'E-Signature') },
		{ credentials: credentials() },
	);
	return { items: result.nodeOutput('E-Signature'), error: result.error };
}

describe('Get Many signatures', () => {
	it('lists every record of a file, oldest first', async () => {
		const { items, error } = await esign({ operation: 'getAll', file: rl(contract.file_hash) });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{
				file_hash: contract.file_hash,
				signer_name: 'Anna Berg',
				signing_timestamp: '2026-03-01 09:15:00',
			},
			{
				file_hash: contract.file_hash,
				signer_name: 'Ben Carter',
				signing_timestamp: '2026-03-02 23:59:30',
			},
			{
				file_hash: contract.file_hash,
				signer_name: 'Carla Diaz',
				signing_timestamp: '2026-03-03 00:00:00',
			},
		]);
	});

	it('filters inclusively: a date alone covers its whole day', async () => {
		const day = await esign({
			operation: 'getAll',
			file: rl(`${sandbox.webUrl}/f/${contract.file_hash}`, 'url'),
			filters: { fromDate: '2026-03-02', toDate: '2026-03-02' },
		});
		expect(day.items.map((item) => item.json.signer_name)).toEqual(['Ben Carter']);
		const timed = await esign({
			operation: 'getAll',
			file: rl(contract.file_hash),
			filters: { fromDate: '2026-03-01 09:15:00', toDate: '2026-03-03 00:00' },
		});
		expect(timed.items).toHaveLength(3);
		const limited = await esign({
			operation: 'getAll',
			file: rl(contract.file_hash),
			returnAll: false,
			limit: 2,
		});
		expect(limited.items).toHaveLength(2);
	});

	it('refuses a bad date or an inverted range before any request', async () => {
		sandbox.requests.clear();
		const bad = await esign({
			operation: 'getAll',
			file: rl(contract.file_hash),
			filters: { fromDate: '2026-02-30' },
		});
		expect(bad.error?.message).toBe('From Date "2026-02-30" is not a real date or time');
		const zoned = await esign({
			operation: 'getAll',
			file: rl(contract.file_hash),
			filters: { toDate: '2026-03-01T10:00:00+02:00' },
		});
		expect(zoned.error?.message).toMatch(/^To Date .* is not a date$/);
		const inverted = await esign({
			operation: 'getAll',
			file: rl(contract.file_hash),
			filters: { fromDate: '2026-03-05', toDate: '2026-03-01' },
		});
		expect(inverted.error?.message).toBe('From Date is after To Date');
		expect(sandbox.requests.list()).toEqual([]);
	});
});

describe('Request signatures', () => {
	it('e-mails the recipients and outputs the lists as arrays', async () => {
		const { items, error } = await esign({
			operation: 'request',
			file: rl(contract.file_hash),
			emails: 'anna@example.com, ben@example.org;anna@example.com',
			text: 'Please sign by Friday',
			options: { nextShareEmails: 'carla@example.net' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			file_hash: contract.file_hash,
			status: 'ok',
			sent_emails: ['anna@example.com', 'ben@example.org'],
			next_share_emails: ['carla@example.net'],
			outcome: 'applied',
		});
		const { outbox } = await control('GET', 'outbox');
		expect(outbox.at(-1)).toMatchObject({
			file_hash: contract.file_hash,
			emails: ['anna@example.com', 'ben@example.org'],
			text: 'Please sign by Friday',
			next_share_emails: ['carla@example.net'],
		});
	});

	it('refuses a bad address before any request', async () => {
		sandbox.requests.clear();
		const bad = await esign({
			operation: 'request',
			file: rl(contract.file_hash),
			emails: 'anna@example.com, not-an-address',
		});
		expect(bad.error?.message).toBe('Recipient E-Mails: "not-an-address" is not an e-mail address');
		const badNext = await esign({
			operation: 'request',
			file: rl(contract.file_hash),
			emails: 'anna@example.com',
			options: { nextShareEmails: 'x@y' },
		});
		expect(badNext.error?.message).toBe('Next Share E-Mails: "x@y" is not an e-mail address');
		expect(sandbox.requests.list()).toEqual([]);
	});
});

/** The settings block of the page, as the page script reads it. */
function pageConfig(html: string) {
	const match = /<script type="application\/json" id="esignature-config">([^<]*)<\/script>/.exec(
		html,
	);
	if (!match) throw new Error('no config block');
	return JSON.parse(match[1]);
}

describe('Create Signing Page', () => {
	it('builds a page for one file, looking up its delete key, and the sandbox signs what it names', async () => {
		const callbackUrl = 'https://n8n.example.com/webhook/esignature-result';
		const { items, error } = await esign({
			operation: 'createSigningPage',
			file: rl(contract.file_hash),
			callbackUrl,
			formSettings: { formats: ['pdf', 'asice'], defaultFormat: 'asice', validateSignatures: true },
			options: { reference: 'order-42', binary: true },
		});
		expect(error).toBeUndefined();
		const html = String(items[0].json.html);
		expect(html).toContain(`<script src="${sandbox.baseUrl}/esignature/form.js"></script>`);
		const config = pageConfig(html);
		expect(config).toEqual({
			target: { kind: 'file', hash: contract.file_hash, deleteKey: contract.file_delete_key },
			callbackUrl,
			reference: 'order-42',
			settings: {
				emobile_signing: { open_new_tab: true },
				allowed_signing_formats: { edoc: false, pdf: true, asice: true },
				default_signing_format: 'asice',
				signature_validation: { enabled: true },
				sign_files_separate: { allow_select: false, default: false },
			},
		});
		expect(items[0].binary?.data).toMatchObject({
			mimeType: 'text/html',
			fileName: 'signing-page.html',
		});

		// What the form would do in the browser with these values.
		const signed = await fetch(`${sandbox.baseUrl}/esignature/sign`, {
			method: 'POST',
			body: new URLSearchParams({
				file_hash: config.target.hash,
				file_delete_key: config.target.deleteKey,
				format: 'asice',
				signer: 'Dana Ek',
			}),
		});
		expect(await signed.json()).toMatchObject({
			success: true,
			file_hash: contract.file_hash,
			signed_file_format: 'asice',
		});
	});

	it('builds a page for the files of a folder with a given edit key', async () => {
		const { items, error } = await esign({
			operation: 'createSigningPage',
			target: 'folder',
			folder: rl(folder.folder_hash),
			folderEditKey: folder.folder_edit_key,
			callbackUrl: 'http://localhost:5678/webhook/esignature-result',
			formSettings: { allowSelectSeparate: true, separateByDefault: true, mobileNewTab: false },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			folder_hash: folder.folder_hash,
			callback_url: 'http://localhost:5678/webhook/esignature-result',
		});
		expect(pageConfig(String(items[0].json.html))).toMatchObject({
			target: { kind: 'folder', hash: folder.folder_hash, editKey: folder.folder_edit_key },
			settings: {
				sign_files_separate: { allow_select: true, default: true },
				emobile_signing: { open_new_tab: false },
			},
		});
	});

	it('refuses a plain-http callback, no format, or a default format not allowed, before any request', async () => {
		sandbox.requests.clear();
		const http = await esign({
			operation: 'createSigningPage',
			file: rl(contract.file_hash),
			callbackUrl: 'http://n8n.example.com/webhook/x',
		});
		expect(http.error?.message).toBe(
			'The callback URL must use https (got http://n8n.example.com)',
		);
		const none = await esign({
			operation: 'createSigningPage',
			file: rl(contract.file_hash),
			callbackUrl: 'https://n8n.example.com/w',
			formSettings: { formats: [] },
		});
		expect(none.error?.message).toBe('No signing format allowed');
		const wrongDefault = await esign({
			operation: 'createSigningPage',
			file: rl(contract.file_hash),
			callbackUrl: 'https://n8n.example.com/w',
			formSettings: { formats: ['pdf'], defaultFormat: 'edoc' },
		});
		expect(wrongDefault.error?.message).toBe(
			'The default format edoc is not among the allowed formats',
		);
		expect(sandbox.requests.list()).toEqual([]);
	});
});
