/**
 * The HTML page that opens the service's embeddable e-signature form (spec: Events) for one file or a
 * folder of files, and reports the form's callbacks to an n8n webhook. No n8n imports.
 *
 * Every value that comes from outside (names, hashes, keys, URLs) reaches the page only as data: the
 * settings travel in a JSON script block whose `<`, `>`, `&` and line separators are escaped, and the
 * one URL in markup (the form script) is HTML-escaped. The page's own script is a fixed text.
 */

export type SigningFormat = 'edoc' | 'pdf' | 'asice';
export const SIGNING_FORMATS: SigningFormat[] = ['edoc', 'pdf', 'asice'];

export type SigningTarget =
	| { kind: 'file'; hash: string; deleteKey: string }
	| { kind: 'folder'; hash: string; editKey: string };

export interface SigningPageSettings {
	formats: SigningFormat[];
	defaultFormat?: SigningFormat;
	validateSignatures: boolean;
	allowSelectSeparate: boolean;
	separateByDefault: boolean;
	mobileNewTab: boolean;
}

export interface SigningPageInput {
	formScriptUrl: string;
	target: SigningTarget;
	callbackUrl: string;
	settings: SigningPageSettings;
	title: string;
	/** Echoed in every callback, so the receiving workflow can tell requests apart. */
	reference?: string;
}

/** The EsignatureForm settings object of the spec (callbacks are added by the page script). */
export function formSettings(settings: SigningPageSettings): Record<string, unknown> {
	const allowed = Object.fromEntries(
		SIGNING_FORMATS.map((format) => [format, settings.formats.includes(format)]),
	);
	return {
		emobile_signing: { open_new_tab: settings.mobileNewTab },
		allowed_signing_formats: allowed,
		...(settings.defaultFormat ? { default_signing_format: settings.defaultFormat } : {}),
		signature_validation: { enabled: settings.validateSignatures },
		sign_files_separate: {
			allow_select: settings.allowSelectSeparate,
			default: settings.separateByDefault,
		},
	};
}

export function escapeHtml(value: string): string {
	return value.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
	);
}

/** JSON that cannot end its script block or start markup, whatever the strings inside hold. */
export function scriptSafeJson(value: unknown): string {
	return JSON.stringify(value)
		.replace(/</g, '\\u003c')
		.replace(/>/g, '\\u003e')
		.replace(/&/g, '\\u0026')
		.replace(/\u2028/g, '\\u2028')
		.replace(/\u2029/g, '\\u2029');
}

/** The page's behaviour; reads everything from the JSON block, so nothing from outside is ever code. */
const PAGE_SCRIPT = `(function () {
	'use strict';
	var config = JSON.parse(document.getElementById('esignature-config').textContent);
	var status = document.getElementById('esignature-status');
	var reopen = document.getElementById('esignature-reopen');
	var signed = false;
	function show(text) { status.textContent = text; }
	function report(event, result) {
		var body = Object.assign({ event: event, reference: config.reference }, result || {});
		if (event === 'on_form_closed') body.already_signed = signed;
		return fetch(config.callbackUrl, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
			keepalive: true
		}).then(function (response) {
			if (!response.ok) throw new Error('HTTP ' + response.status);
		});
	}
	function open() {
		var settings = Object.assign({}, config.settings, {
			callbacks: {
				on_signing_finished: function (result) {
					var ok = !!(result && result.success);
					if (ok) signed = true;
					show(ok ? 'Signed. Sending the result…' : 'Signing did not succeed. Sending the result…');
					report('on_signing_finished', result).then(function () {
						show(ok ? 'Signed. You can close this page.' : 'Signing did not succeed. You can close this page.');
					}, function (error) { show('The result could not be delivered (' + error.message + '). Please tell the sender.'); });
				},
				on_form_closed: function (result) {
					report('on_form_closed', result).then(function () {
						if (!signed) { show('The signing form was closed.'); reopen.hidden = false; }
					}, function (error) { show('The result could not be delivered (' + error.message + ').'); });
				}
			}
		});
		var form = new window.EsignatureForm(settings);
		var target = config.target;
		if (target.kind === 'file') form.showForm(null, null, target.hash, target.deleteKey);
		else form.showForm(target.hash, target.editKey);
		show('Sign in the form.');
	}
	reopen.addEventListener('click', function () { reopen.hidden = true; open(); });
	if (typeof window.EsignatureForm !== 'function') show('The signing form could not be loaded. Check the connection and reload the page.');
	else open();
})();`;

const STYLE =
	'body{font-family:system-ui,sans-serif;margin:0;padding:2rem;background:#f8fafc;color:#0f172a}main{max-width:40rem;margin:auto}h1{font-size:1.4rem}';

export function signingPageHtml(input: SigningPageInput): string {
	const config = {
		target: input.target,
		callbackUrl: input.callbackUrl,
		reference: input.reference ?? null,
		settings: formSettings(input.settings),
	};
	const title = escapeHtml(input.title);
	return [
		'<!DOCTYPE html>',
		'<html lang="en">',
		'<head>',
		'<meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		// The page carries capability keys: never leak its address to the sites it loads.
		'<meta name="referrer" content="no-referrer">',
		'<meta name="robots" content="noindex">',
		`<title>${title}</title>`,
		`<style>${STYLE}</style>`,
		'</head>',
		'<body>',
		`<main><h1>${title}</h1><p id="esignature-status" role="status">Loading the signing form…</p>`,
		'<button id="esignature-reopen" type="button" hidden>Open the signing form again</button></main>',
		`<script type="application/json" id="esignature-config">${scriptSafeJson(config)}</script>`,
		`<script src="${escapeHtml(input.formScriptUrl)}"></script>`,
		`<script>${PAGE_SCRIPT}</script>`,
		'</body>',
		'</html>',
		'',
	].join('\n');
}
