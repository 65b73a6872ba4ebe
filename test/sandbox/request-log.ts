import { CREDENTIAL_FIELDS } from './auth.ts';

export interface LoggedRequest {
	seq: number;
	at: number;
	method: string;
	path: string;
	/** The URL as sent, with secret values replaced by `***` (names stay visible). */
	url: string;
	/** Credential parameter names found in the query string: should always be empty. */
	credentialsInUrl: string[];
	/**
	 * Capability-key parameter names found in the query string. Some legacy scripts document keys as query
	 * parameters (`save_file.php?key=`, `get_upload_tree.php?DeleteKey=`, `get_file_info.php?del_key=`,
	 * `get_ids_and_keys_from_paths.php?add_key=`); the sandbox takes them only there, so they appear here
	 * for those scripts and nowhere else.
	 */
	keysInUrl: string[];
	/** Interface of the matched route (v2, v1, auth, web…), or null when none matched. */
	api: string | null;
	action: string | null;
	authMethod: string | null;
	/** Names (not values) of the body fields, plus `file:<field>` for uploaded parts. */
	fields: string[];
	status: number | null;
	fault: string | null;
	/** How the exchange ended when no normal answer was sent. */
	outcome: 'answered' | 'dropped' | 'aborted';
}

const KEY_FIELDS = [
	'key',
	'folder_upload_key',
	'folder_edit_key',
	'file_delete_key',
	'del_key',
	'DeleteKey',
	'add_key',
];
const REDACTED = new Set([...CREDENTIAL_FIELDS, ...KEY_FIELDS].map((name) => name.toLowerCase()));

export function redactUrl(rawUrl: string): {
	url: string;
	credentialsInUrl: string[];
	keysInUrl: string[];
} {
	const q = rawUrl.indexOf('?');
	if (q < 0) return { url: rawUrl, credentialsInUrl: [], keysInUrl: [] };
	const credentialsInUrl: string[] = [];
	const keysInUrl: string[] = [];
	const query = rawUrl
		.slice(q + 1)
		.split('&')
		.map((pair) => {
			const eq = pair.indexOf('=');
			const rawName = eq < 0 ? pair : pair.slice(0, eq);
			let name = rawName;
			try {
				name = decodeURIComponent(rawName.replace(/\+/g, ' '));
			} catch {
				// keep the raw name
			}
			if (CREDENTIAL_FIELDS.some((c) => c.toLowerCase() === name.toLowerCase()))
				credentialsInUrl.push(name);
			if (KEY_FIELDS.some((k) => k.toLowerCase() === name.toLowerCase())) keysInUrl.push(name);
			return REDACTED.has(name.toLowerCase()) && eq >= 0 ? `${rawName}=***` : pair;
		});
	return {
		url: `${rawUrl.slice(0, q)}?${query.join('&')}`,
		credentialsInUrl,
		keysInUrl,
	};
}

/** What the sandbox saw, for tests that count requests or check where credentials travelled. */
export class RequestLog {
	private entries: LoggedRequest[] = [];
	private seq = 1;

	start(method: string, path: string, rawUrl: string): LoggedRequest {
		const entry: LoggedRequest = {
			seq: this.seq++,
			at: Date.now(),
			method,
			path,
			...redactUrl(rawUrl),
			api: null,
			action: null,
			authMethod: null,
			fields: [],
			status: null,
			fault: null,
			outcome: 'answered',
		};
		this.entries.push(entry);
		return entry;
	}

	list(): LoggedRequest[] {
		return this.entries.map((entry) => ({ ...entry }));
	}

	clear(): void {
		this.entries = [];
	}
}
