import { runInNewContext } from 'node:vm';

import {
	escapeHtml,
	scriptSafeJson,
	signingPageHtml,
	type SigningPageInput,
} from '../../../nodes/shared/esignature/signing-page';

const base: SigningPageInput = {
	formScriptUrl: 'https://api.example.test/esignature/form.js',
	target: { kind: 'file', hash: 'Fh1', deleteKey: 'd'.repeat(32) },
	callbackUrl: 'https://n8n.example.test/webhook/esign',
	settings: {
		formats: ['pdf', 'edoc'],
		defaultFormat: 'pdf',
		validateSignatures: true,
		allowSelectSeparate: false,
		separateByDefault: false,
		mobileNewTab: true,
	},
	title: 'Sign the contract',
	reference: 'order-7',
};

function scripts(html: string) {
	return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({
		attributes: match[1],
		body: match[2],
	}));
}

interface Posted {
	url: string;
	body: Record<string, unknown>;
}

/** Runs the page's own script with a stand-in DOM, form class and fetch: what a browser would do. */
function runPage(html: string, formClass?: unknown) {
	const [config, , page] = scripts(html);
	const elements: Record<
		string,
		{
			textContent: string;
			hidden: boolean;
			listeners: Array<() => void>;
			addEventListener: (e: string, f: () => void) => void;
		}
	> = {};
	const element = (text = '') => {
		const el = {
			textContent: text,
			hidden: true,
			listeners: [] as Array<() => void>,
			addEventListener: (_e: string, f: () => void) => el.listeners.push(f),
		};
		return el;
	};
	elements['esignature-config'] = element(config.body);
	elements['esignature-status'] = element();
	elements['esignature-reopen'] = element();
	const posted: Posted[] = [];
	const forms: Array<{ settings: any; shown: unknown[] }> = [];
	class FakeForm {
		shown: unknown[] = [];
		constructor(public settings: any) {
			forms.push(this);
		}
		showForm(...args: unknown[]) {
			this.shown = args;
		}
	}
	const window: Record<string, unknown> = {
		EsignatureForm: formClass === undefined ? FakeForm : formClass,
	};
	const context = {
		window,
		document: { getElementById: (id: string) => elements[id] },
		fetch: async (
			url: string,
			init: { body: string; method: string; headers: Record<string, string> },
		) => {
			expect(init.method).toBe('POST');
			expect(init.headers['Content-Type']).toBe('application/json');
			posted.push({ url, body: JSON.parse(init.body) });
			return { ok: true, status: 200 };
		},
		JSON,
		Object,
	};
	runInNewContext(page.body, context);
	return {
		forms,
		posted,
		status: elements['esignature-status'],
		reopen: elements['esignature-reopen'],
	};
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('signing page', () => {
	it('loads form.js from the base URL and hands the documented settings to EsignatureForm', () => {
		const html = signingPageHtml(base);
		const [config, loader, page] = scripts(html);
		expect(config.attributes).toBe(' type="application/json" id="esignature-config"');
		expect(loader.attributes).toBe(' src="https://api.example.test/esignature/form.js"');
		expect(page.attributes).toBe('');
		expect(html).toContain('<meta name="referrer" content="no-referrer">');
		const { forms } = runPage(html);
		expect(forms).toHaveLength(1);
		const { callbacks, ...settings } = forms[0].settings;
		expect(settings).toEqual({
			emobile_signing: { open_new_tab: true },
			allowed_signing_formats: { edoc: true, pdf: true, asice: false },
			default_signing_format: 'pdf',
			signature_validation: { enabled: true },
			sign_files_separate: { allow_select: false, default: false },
		});
		expect(Object.keys(callbacks)).toEqual(['on_signing_finished', 'on_form_closed']);
		expect(forms[0].shown).toEqual([null, null, 'Fh1', 'd'.repeat(32)]);
	});

	it('opens a folder with its edit key', () => {
		const { forms } = runPage(
			signingPageHtml({
				...base,
				target: { kind: 'folder', hash: 'Dh2', editKey: 'e'.repeat(32) },
			}),
		);
		expect(forms[0].shown).toEqual(['Dh2', 'e'.repeat(32)]);
	});

	it('posts each callback to the webhook with the event, the reference and the result fields', async () => {
		const { forms, posted, status, reopen } = runPage(signingPageHtml(base));
		const result = {
			success: true,
			file_hash: 'Fh1',
			signed_file_format: 'pdf',
			signed_file_hash: 'S1',
			signed_file_delete_key: 'k',
		};
		forms[0].settings.callbacks.on_signing_finished(result);
		await flush();
		expect(status.textContent).toBe('Signed. You can close this page.');
		forms[0].settings.callbacks.on_form_closed({ folder_hash: null, file_hash: 'Fh1' });
		await flush();
		expect(posted).toEqual([
			{
				url: base.callbackUrl,
				body: { event: 'on_signing_finished', reference: 'order-7', ...result },
			},
			{
				url: base.callbackUrl,
				body: {
					event: 'on_form_closed',
					reference: 'order-7',
					folder_hash: null,
					file_hash: 'Fh1',
					already_signed: true,
				},
			},
		]);
		expect(reopen.hidden).toBe(true);
	});

	it('offers to reopen the form after it was closed without signing', async () => {
		const { forms, posted, reopen } = runPage(signingPageHtml(base));
		forms[0].settings.callbacks.on_form_closed({ folder_hash: null, file_hash: 'Fh1' });
		await flush();
		expect(posted[0].body).toMatchObject({ event: 'on_form_closed', already_signed: false });
		expect(reopen.hidden).toBe(false);
		reopen.listeners[0]();
		expect(forms).toHaveLength(2);
	});

	it('says so when form.js did not load', () => {
		const { status, forms } = runPage(signingPageHtml(base), null);
		expect(forms).toEqual([]);
		expect(status.textContent).toMatch(/could not be loaded/);
	});

	it('keeps hostile values as data: no markup or script from a title, reference, URL or key', () => {
		const hostile = '</script><script>alert(1)</script><!--';
		const html = signingPageHtml({
			...base,
			formScriptUrl: 'https://api.example.test/esignature/form.js?x="><script>alert(2)</script>',
			target: { kind: 'file', hash: hostile, deleteKey: '\u2028";alert(3);//' },
			callbackUrl: `https://n8n.example.test/webhook/esign?next=${hostile}`,
			title: `<img src=x onerror=alert(4)>`,
			reference: hostile,
		});
		expect(scripts(html)).toHaveLength(3);
		expect(html).not.toMatch(/<script>alert|<img|<!--/);
		expect(html).toContain('<title>&lt;img src=x onerror=alert(4)&gt;</title>');
		expect(html).toContain(
			'src="https://api.example.test/esignature/form.js?x=&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"',
		);
		const { forms, posted } = runPage(html);
		expect(forms[0].shown).toEqual([null, null, hostile, '\u2028";alert(3);//']);
		forms[0].settings.callbacks.on_form_closed({});
		return flush().then(() => {
			expect(posted[0]).toEqual({
				url: `https://n8n.example.test/webhook/esign?next=${hostile}`,
				body: { event: 'on_form_closed', reference: hostile, already_signed: false },
			});
		});
	});

	it('escapes helpers as documented', () => {
		expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
			'&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
		);
		expect(scriptSafeJson({ a: '</script>&\u2028\u2029' })).toBe(
			'{"a":"\\u003c/script\\u003e\\u0026\\u2028\\u2029"}',
		);
	});
});
