import vm from 'node:vm';
import { type Sandbox } from '../../sandbox/server.ts';
import { boot, createFolder, DEMO_TOKEN, readJson, uploadOk, v2 } from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

interface FakeElement {
	tagName: string;
	children: FakeElement[];
	attributes: Record<string, string>;
	parentNode: FakeElement | null;
	[key: string]: unknown;
}

/** Just enough DOM for the form script: elements, attributes, a body, and the loading script tag. */
function fakeBrowser(src: string, attributes: Record<string, string> = {}) {
	const element = (tagName: string): FakeElement => {
		const node: FakeElement = {
			tagName,
			children: [],
			attributes: {},
			parentNode: null,
			style: {},
			setAttribute: (name: string, value: string) => (node.attributes[name] = value),
			appendChild: (child: FakeElement) => (
				node.children.push(child),
				(child.parentNode = node),
				child
			),
			removeChild: (child: FakeElement) => {
				node.children = node.children.filter((c) => c !== child);
				child.parentNode = null;
			},
		};
		return node;
	};
	const body = element('body');
	const currentScript = {
		src,
		hasAttribute: (name: string) => name in attributes,
		getAttribute: (name: string) => attributes[name] ?? null,
	};
	const window: Record<string, unknown> = {};
	const context = vm.createContext({
		window,
		document: { currentScript, body, createElement: element },
		location: { href: src },
		fetch,
		URL,
		URLSearchParams,
		setTimeout,
	});
	return { context, window, body };
}

async function loadForm(query = '', attributes: Record<string, string> = {}) {
	const src = `${sandbox.baseUrl}/esignature/form.js${query}`;
	const response = await fetch(src);
	expect(response.headers.get('content-type')).toMatch(/^application\/javascript/);
	const browser = fakeBrowser(src, attributes);
	vm.runInContext(await response.text(), browser.context);
	return browser;
}

type FormCtor = new (settings: unknown) => { showForm: (...args: (string | null)[]) => void };

describe('esignature/form.js', () => {
	it('defines EsignatureForm; auto-sign calls on_signing_finished with a signed file that exists', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'contract.pdf', '%PDF-1.7');
		const { window, body } = await loadForm('', {
			'data-sandbox-auto-sign': '',
			'data-sandbox-signer': 'Anna Berzina',
		});
		const Form = window.EsignatureForm as FormCtor;
		const result = await new Promise<Record<string, unknown>>((resolve) => {
			const form = new Form({
				callbacks: { on_signing_finished: resolve },
				allowed_signing_formats: { edoc: true, pdf: true, asice: false },
				default_signing_format: 'edoc',
				signature_validation: { enabled: true },
			});
			form.showForm(null, null, file.file_hash, file.file_delete_key);
			expect(body.children[0].attributes['data-validation']).toBe('on');
		});
		expect(result).toEqual({
			success: true,
			file_hash: file.file_hash,
			signed_file_format: 'edoc',
			signed_file_hash: expect.any(String),
			signed_file_delete_key: expect.stringMatching(/^[0-9a-f]{32}$/),
		});
		expect(body.children).toEqual([]);
		const signed = sandbox.store.file(result.signed_file_hash as string)!;
		expect(signed.name).toBe('contract (signed).edoc');
		const download = await v2(sandbox, 'download_file', { ...DEMO_TOKEN, file_hash: signed.hash });
		expect(download.status).toBe(200);
		const records = await readJson(
			v2(sandbox, 'get_esignatures', { ...DEMO_TOKEN, file_hash: signed.hash }),
		);
		expect(records).toEqual([
			{
				file_hash: signed.hash,
				signing_timestamp: expect.any(String),
				signer_name: 'Anna Berzina',
			},
		]);
	});

	it('reports on_form_closed with the opened item, and failures as success false', async () => {
		const folder = await createFolder(sandbox);
		await uploadOk(sandbox, folder.folder_hash, 'a.pdf', 'a');
		const closing = await loadForm('?auto=close');
		const closed = await new Promise((resolve) => {
			new (closing.window.EsignatureForm as FormCtor)({
				callbacks: { on_form_closed: resolve },
			}).showForm(folder.folder_hash, folder.folder_edit_key);
		});
		expect(closed).toEqual({ folder_hash: folder.folder_hash, file_hash: null });
		const failing = await loadForm('?auto=fail');
		const failed = await new Promise((resolve) => {
			new (failing.window.EsignatureForm as FormCtor)({
				callbacks: { on_signing_finished: resolve },
			}).showForm(folder.folder_hash, folder.folder_edit_key);
		});
		expect(failed).toEqual({ success: false, folder_hash: folder.folder_hash });
	});

	it('refuses bad arguments and settings in the page', async () => {
		const { window } = await loadForm();
		const Form = window.EsignatureForm as FormCtor;
		expect(
			() => new Form({ allowed_signing_formats: { edoc: false, pdf: false, asice: false } }),
		).toThrow(/no signing format/);
		expect(() => new Form({ default_signing_format: 'docx' })).toThrow(/default_signing_format/);
		expect(() => new Form({}).showForm(null, null, 'hash-only', null)).toThrow(/showForm/);
	});
});

describe('esignature/sign (the sandbox side of the form)', () => {
	const sign = (fields: Record<string, string>) =>
		fetch(`${sandbox.baseUrl}/esignature/sign`, {
			method: 'POST',
			body: new URLSearchParams(fields),
		});

	it('signs a folder all in one or each file separately', async () => {
		const folder = await createFolder(sandbox, { folder_name: 'Batch' });
		await uploadOk(sandbox, folder.folder_hash, 'a.pdf', 'a');
		await uploadOk(sandbox, folder.folder_hash, 'b.pdf', 'b');
		const keys = { folder_hash: folder.folder_hash, folder_edit_key: folder.folder_edit_key };
		const separate = await readJson(sign({ ...keys, format: 'pdf', separate: '1' }));
		expect(separate).toEqual({
			success: true,
			folder_hash: folder.folder_hash,
			signed_file_format: 'pdf',
			signed_file_hashes: [
				{
					original_file_name: 'a.pdf',
					signed_file_hash: expect.any(String),
					signed_file_delete_key: expect.any(String),
				},
				{
					original_file_name: 'b.pdf',
					signed_file_hash: expect.any(String),
					signed_file_delete_key: expect.any(String),
				},
			],
		});
		const response = await sign({ ...keys, format: 'asice' });
		expect(response.headers.get('access-control-allow-origin')).toBe('*');
		const together = await readJson(response);
		expect(sandbox.store.file(together.signed_file_hash)!.name).toBe('Batch (signed).asice');
	});

	it('needs the right key', async () => {
		const folder = await createFolder(sandbox);
		const file = await uploadOk(sandbox, folder.folder_hash, 'a.pdf', 'a');
		expect((await sign({ file_hash: file.file_hash, file_delete_key: 'wrong' })).status).toBe(403);
		expect((await sign({ folder_hash: folder.folder_hash, folder_edit_key: 'wrong' })).status).toBe(
			403,
		);
	});
});
