/**
 * The documented e-signature flow in a real n8n against the sandbox, from the example workflow
 * (workflows/esignature-flow.json), without a browser: n8n serves the signing page from a webhook; the
 * test checks that it loads the service's form.js with the file, its key and the settings, signs
 * through the sandbox as the form would, and posts the form's result to the callback webhook exactly as
 * the page does; the workflow then downloads the signed file and deletes the original. A form closed
 * without signing deletes the original only.
 */
import { startSandbox } from '../sandbox/server';
import { createFolder, uploadOk } from '../unit/sandbox/helpers';
import { createServiceCredential } from './harness/credentials';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	startN8n,
	type CredentialRef,
	type ExecutionSummary,
	type N8nInstance,
	type WorkflowRef,
} from './harness/n8n';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let n8n: N8nInstance;
let workflow: WorkflowRef;
let credential: CredentialRef;
let folderHash: string;
const seenExecutions = new Set<string>();

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	folderHash = (await createFolder(sandbox, { folder_name: 'Contracts' })).folder_hash;
	n8n = await startN8n({ mode: 'regular' });
	credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox);
	workflow = await n8n.client.importWorkflow(loadWorkflow('esignature-flow.json'), {
		credentials: { [credential.type]: credential },
	});
	await n8n.client.activate(workflow.id);
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

/** The execution a webhook call started: the first one of this workflow not seen before. */
async function nextExecution(): Promise<ExecutionSummary> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const fresh = (await n8n.client.listExecutionIds(workflow.id)).filter(
			(id) => !seenExecutions.has(id),
		);
		if (fresh.length) {
			const id = fresh[fresh.length - 1];
			seenExecutions.add(id);
			return await n8n.client.waitForExecution(id);
		}
		if (Date.now() > deadline) throw new Error('no new execution');
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

function pageConfig(html: string) {
	const match = /<script type="application\/json" id="esignature-config">([^<]*)<\/script>/.exec(
		html,
	);
	if (!match) throw new Error('the page has no settings block');
	return JSON.parse(match[1]);
}

/** GET the signing page as a browser would, and read what the page would hand to the form. */
async function openPage(fileHash: string, reference: string) {
	const response = await n8n.client.callWebhook(
		`esignature-page?file=${encodeURIComponent(fileHash)}&reference=${reference}`,
	);
	expect(response.status).toBe(200);
	expect(response.headers.get('content-type')).toMatch(/^text\/html/);
	const html = await response.text();
	await nextExecution();
	return { html, config: pageConfig(html) };
}

async function postResult(callbackUrl: string, body: object) {
	const response = await fetch(callbackUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Origin: 'null' },
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(200);
	await response.body?.cancel();
	return await nextExecution();
}

const live = (hash: string) => {
	const file = sandbox.store.file(hash);
	return Boolean(file && !file.deleted);
};

describe('E-signature flow in n8n', () => {
	it('answers a link to an unknown file with a page that says why (the error path), not a bare 500', async () => {
		const response = await n8n.client.callWebhook('esignature-page?file=UnknownHash123');
		const html = await response.text();
		const execution = await nextExecution();
		expect(response.status).toBe(400);
		expect(response.headers.get('content-type')).toMatch(/^text\/html/);
		expect(html).toContain('<h1>This document cannot be signed here</h1>');
		// The node's own error message, escaped into the page.
		const [failed] = itemsOf(execution, 'Create Signing Page', 1);
		expect(typeof failed.json.error).toBe('string');
		const escaped = String(failed.json.error)
			.replaceAll('&', '&amp;')
			.replaceAll('<', '&lt;')
			.replaceAll('>', '&gt;');
		expect(html).toContain(escaped);
		expect(html).not.toMatch(/Error in workflow/);
	});

	it('serves the page, receives the signed result, downloads the signed file and deletes the original', async () => {
		const original = await uploadOk(
			sandbox,
			folderHash,
			'contract.pdf',
			'%PDF-1.7 contract to sign',
		);
		const { html, config } = await openPage(original.file_hash, 'order-1');

		const formScript = `${sandbox.baseUrl}/esignature/form.js`;
		expect(html).toContain(`<script src="${formScript}"></script>`);
		expect(await (await fetch(formScript)).text()).toContain('EsignatureForm');
		expect(config).toEqual({
			target: { kind: 'file', hash: original.file_hash, deleteKey: original.file_delete_key },
			callbackUrl: `${n8n.client.baseUrl}/webhook/esignature-result`,
			reference: 'order-1',
			settings: {
				emobile_signing: { open_new_tab: true },
				allowed_signing_formats: { edoc: true, pdf: true, asice: true },
				signature_validation: { enabled: false },
				sign_files_separate: { allow_select: false, default: false },
			},
		});

		// The page's script runs in a sandboxed (opaque-origin) frame: the callback must pass CORS.
		const preflight = await fetch(config.callbackUrl, {
			method: 'OPTIONS',
			headers: {
				Origin: 'null',
				'Access-Control-Request-Method': 'POST',
				'Access-Control-Request-Headers': 'content-type',
			},
		});
		expect(preflight.status).toBeLessThan(300);
		expect(preflight.headers.get('access-control-allow-origin')).toMatch(/^(\*|null)$/);

		// What the form does when the signer signs, then what the page posts to the callback.
		const signing = await fetch(`${sandbox.baseUrl}/esignature/sign`, {
			method: 'POST',
			body: new URLSearchParams({
				file_hash: config.target.hash,
				file_delete_key: config.target.deleteKey,
				format: 'pdf',
				signer: 'Anna Berg',
			}),
		});
		const result = (await signing.json()) as Record<string, string> & { signed_file_hash: string };
		expect(result).toMatchObject({
			success: true,
			file_hash: original.file_hash,
			signed_file_hash: expect.any(String),
		});
		const execution = await postResult(config.callbackUrl, {
			event: 'on_signing_finished',
			reference: config.reference,
			...result,
		});

		expect(describeErrors(execution)).toBe('');
		const [downloaded] = itemsOf(execution, 'Download Signed File');
		expect(downloaded.json).toMatchObject({
			hash: result.signed_file_hash,
			name: 'contract (signed).pdf',
		});
		const bytes = await n8n.client.downloadBinary(downloaded.binary!.data);
		expect(bytes.toString()).toMatch(
			/^SANDBOX SIGNED CONTAINER\nsigner: Anna Berg\ncontract\.pdf sha256=/,
		);
		expect(itemsOf(execution, 'Delete Original')).toHaveLength(1);
		expect(live(original.file_hash)).toBe(false);
		expect(live(result.signed_file_hash)).toBe(true);

		// The form closed afterwards: the page says it was already signed, so nothing more happens.
		const closed = await postResult(config.callbackUrl, {
			event: 'on_form_closed',
			reference: 'order-1',
			folder_hash: null,
			file_hash: original.file_hash,
			already_signed: true,
		});
		expect(describeErrors(closed)).toBe('');
		expect(Object.keys(closed.nodes)).toEqual(['Signing Result', 'Signed?', 'Still Unsigned?']);
	});

	it('deletes the original when the form is closed without signing', async () => {
		const original = await uploadOk(sandbox, folderHash, 'offer.pdf', '%PDF-1.7 offer');
		const { config } = await openPage(original.file_hash, 'order-2');
		const execution = await postResult(config.callbackUrl, {
			event: 'on_form_closed',
			reference: 'order-2',
			folder_hash: null,
			file_hash: original.file_hash,
			already_signed: false,
		});
		expect(describeErrors(execution)).toBe('');
		expect(execution.nodes['Download Signed File']).toBeUndefined();
		expect(itemsOf(execution, 'Delete Unsigned Original')).toHaveLength(1);
		expect(live(original.file_hash)).toBe(false);
		expect(
			sandbox.store.esign.signatures.filter((record) => record.file_hash === original.file_hash),
		).toEqual([]);
	});

	it('lists signatures and e-mails signing requests; bad dates and addresses fail before any request', async () => {
		const file = await uploadOk(sandbox, folderHash, 'agreement.pdf', '%PDF-1.7 agreement');
		// Inside the example's period (From Date: a year before today), whatever day the test runs.
		const signedAt = new Date(Date.now() - 30 * 86_400_000)
			.toISOString()
			.replace('T', ' ')
			.slice(0, 19);
		sandbox.store.esign.signatures.push({
			fileId: sandbox.store.file(file.file_hash)!.id,
			file_hash: file.file_hash,
			signing_timestamp: signedAt,
			signer_name: 'Dana Ek',
		});
		const definition = loadWorkflow('esignature-operations.json');
		for (const node of definition.nodes)
			if (node.parameters.file) node.parameters.file.value = file.file_hash;
		const operations = await n8n.client.importWorkflow(definition, {
			credentials: { [credential.type]: credential },
		});
		sandbox.requests.clear();
		const execution = await n8n.client.runWorkflow(operations.id);
		expect(describeErrors(execution)).toBe('');
		expect(itemsOf(execution, 'Get Signatures').map((item) => item.json)).toEqual([
			{
				file_hash: file.file_hash,
				signing_timestamp: signedAt,
				signer_name: 'Dana Ek',
			},
		]);
		expect(itemsOf(execution, 'Request Signatures')[0].json).toEqual({
			file_hash: file.file_hash,
			status: 'ok',
			sent_emails: ['anna@example.com', 'ben@example.org'],
			next_share_emails: ['carla@example.net'],
			outcome: 'applied',
		});
		expect(sandbox.store.esign.outbox.at(-1)).toMatchObject({
			file_hash: file.file_hash,
			text: 'Please sign',
			emails: ['anna@example.com', 'ben@example.org'],
		});
		expect(itemsOf(execution, 'Bad Date')[0].json).toMatchObject({
			error: 'From Date "2026-02-30" is not a real date or time',
		});
		expect(itemsOf(execution, 'Bad E-Mail')[0].json).toMatchObject({
			error: 'Recipient E-Mails: "anna(at)example.com" is not an e-mail address',
		});
		const actions = sandbox.requests
			.list()
			.filter((entry) => entry.api === 'v2')
			.map((entry) => entry.action);
		expect(actions).toEqual(['get_esignatures', 'esignature_share']);
	});
});
