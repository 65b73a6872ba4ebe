/**
 * The browser script served at `{base_url}/esignature/form.js`: the spec's `EsignatureForm` with its
 * settings and callbacks, drawing a small modal with the allowed formats, Sign and Close. The sandbox
 * signs through `POST {base_url}/esignature/sign` (same origin as the script).
 *
 * Test hooks: `<script src=".../form.js?auto=sign" ...>` or the attribute `data-sandbox-auto-sign`
 * (empty or `sign`, `close`, `fail`) makes `showForm` act at once, so a page can be checked without a
 * human; `data-sandbox-signer` names the signer. `window.__esignatureSandbox` keeps the last settings,
 * opened item and result.
 */
export const FORM_SCRIPT = String.raw`(function () {
	'use strict';
	var script = document.currentScript;
	var src = script && script.src ? new URL(script.src, location.href) : null;
	var origin = src ? src.origin : '';
	var auto = (src && src.searchParams.get('auto')) || null;
	if (script && script.hasAttribute('data-sandbox-auto-sign')) auto = script.getAttribute('data-sandbox-auto-sign') || 'sign';
	var signer = (script && script.getAttribute('data-sandbox-signer')) || (src && src.searchParams.get('signer')) || '';
	var FORMATS = ['pdf', 'edoc', 'asice'];
	var state = (window.__esignatureSandbox = { settings: null, opened: null, result: null, closed: null });

	function pick(obj, path, fallback) {
		var value = obj;
		for (var i = 0; i < path.length; i++) {
			if (value == null) return fallback;
			value = value[path[i]];
		}
		return value === undefined ? fallback : value;
	}

	function EsignatureForm(settings) {
		this.settings = settings || {};
		state.settings = this.settings;
		var allowed = pick(this.settings, ['allowed_signing_formats'], {});
		this.formats = FORMATS.filter(function (f) { return allowed[f] !== false; });
		if (!this.formats.length) throw new Error('EsignatureForm: no signing format is allowed');
		var wanted = this.settings.default_signing_format;
		if (wanted !== undefined && FORMATS.indexOf(wanted) < 0) throw new Error('EsignatureForm: default_signing_format must be edoc, pdf or asice');
		this.format = wanted && this.formats.indexOf(wanted) >= 0 ? wanted : this.formats[0];
		this.separate = !!pick(this.settings, ['sign_files_separate', 'default'], false);
	}

	EsignatureForm.prototype.showForm = function (folderHash, folderEditKey, fileHash, fileDeleteKey) {
		var single = !folderHash;
		if (single ? !(fileHash && fileDeleteKey) : !folderEditKey) {
			throw new Error('EsignatureForm.showForm: give (folder_hash, folder_edit_key) or (null, null, file_hash, file_delete_key)');
		}
		this.opened = { folder_hash: single ? null : folderHash, file_hash: single ? fileHash : null };
		this.keys = { folder_hash: folderHash || '', folder_edit_key: folderEditKey || '', file_hash: fileHash || '', file_delete_key: fileDeleteKey || '' };
		state.opened = this.opened;
		this.render(single);
		var self = this;
		if (auto === 'close') setTimeout(function () { self.close(); }, 0);
		else if (auto) setTimeout(function () { self.sign(auto === 'fail'); }, 0);
	};

	EsignatureForm.prototype.render = function (single) {
		var self = this;
		var box = (this.box = document.createElement('div'));
		box.id = 'esignature-form';
		box.setAttribute('data-validation', pick(this.settings, ['signature_validation', 'enabled'], false) ? 'on' : 'off');
		box.setAttribute('data-open-new-tab', pick(this.settings, ['emobile_signing', 'open_new_tab'], false) ? 'yes' : 'no');
		box.style.cssText = 'position:fixed;inset:10%;background:#fff;border:1px solid #888;padding:1em;z-index:99999';
		var select = document.createElement('select');
		select.name = 'format';
		this.formats.forEach(function (f) {
			var option = document.createElement('option');
			option.value = f;
			option.textContent = f.toUpperCase();
			if (f === self.format) option.selected = true;
			select.appendChild(option);
		});
		select.onchange = function () { self.format = select.value; };
		box.appendChild(select);
		if (!single && pick(this.settings, ['sign_files_separate', 'allow_select'], false)) {
			var separate = document.createElement('input');
			separate.type = 'checkbox';
			separate.name = 'separate';
			separate.checked = this.separate;
			separate.onchange = function () { self.separate = separate.checked; };
			box.appendChild(separate);
		}
		var signButton = document.createElement('button');
		signButton.textContent = 'Sign';
		signButton.onclick = function () { self.sign(false); };
		var closeButton = document.createElement('button');
		closeButton.textContent = 'Close';
		closeButton.onclick = function () { self.close(); };
		box.appendChild(signButton);
		box.appendChild(closeButton);
		document.body.appendChild(box);
	};

	EsignatureForm.prototype.sign = function (fail) {
		var self = this;
		var body = new URLSearchParams(this.keys);
		body.set('format', this.format);
		body.set('separate', this.separate ? '1' : '0');
		if (signer) body.set('signer', signer);
		if (fail) body.set('fail', '1');
		return fetch(origin + '/esignature/sign', { method: 'POST', body: body })
			.then(function (response) { return response.json(); })
			.then(function (result) {
				state.result = result;
				self.remove();
				var done = pick(self.settings, ['callbacks', 'on_signing_finished'], null);
				if (typeof done === 'function') done(result);
				return result;
			});
	};

	EsignatureForm.prototype.close = function () {
		this.remove();
		state.closed = this.opened;
		var closed = pick(this.settings, ['callbacks', 'on_form_closed'], null);
		if (typeof closed === 'function') closed({ folder_hash: this.opened.folder_hash, file_hash: this.opened.file_hash });
	};

	EsignatureForm.prototype.remove = function () {
		if (this.box && this.box.parentNode) this.box.parentNode.removeChild(this.box);
	};

	window.EsignatureForm = EsignatureForm;
})();
`;
