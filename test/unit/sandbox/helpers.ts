import {
	DEMO_ACCOUNT,
	FREE_ACCOUNT,
	startSandbox,
	type Sandbox,
	type SandboxOptions,
} from '../../sandbox/server.ts';

export type Fields = Record<string, string>;

export const DEMO_TOKEN: Fields = {
	user: DEMO_ACCOUNT.username,
	user_access_token: DEMO_ACCOUNT.token,
};
export const FREE_TOKEN: Fields = {
	user: FREE_ACCOUNT.username,
	user_access_token: FREE_ACCOUNT.token,
};

/** A sandbox without the anonymous-listing delay, so tests stay fast. */
export function boot(options: SandboxOptions = {}): Promise<Sandbox> {
	return startSandbox({
		port: 0,
		...options,
		config: { anonymousListing: { limit: 1000, windowMs: 60_000, delayMs: 0 }, ...options.config },
	});
}

/** A form-encoded V2 call. */
export function v2(
	sandbox: Sandbox,
	action: string,
	fields: Fields,
	headers: Record<string, string> = {},
) {
	return fetch(`${sandbox.baseUrl}/api_v2/${action}`, {
		method: 'POST',
		body: new URLSearchParams(fields),
		headers,
	});
}

export async function v2json<T = Record<string, unknown>>(
	sandbox: Sandbox,
	action: string,
	fields: Fields,
): Promise<T> {
	const response = await v2(sandbox, action, fields);
	if (response.status !== 200) throw new Error(`${action} answered ${response.status}`);
	return (await readJson(response)) as T;
}

export interface CreatedFolder {
	folder_hash: string;
	folder_edit_key: string;
	folder_upload_key: string;
	folder_name: string;
}

export function createFolder(sandbox: Sandbox, fields: Fields = {}, auth: Fields = DEMO_TOKEN) {
	return v2json<CreatedFolder>(sandbox, 'create_folder', { ...auth, ...fields });
}

/** Multipart upload; `before`/`after` fields go before or after the file part. */
export function upload(
	sandbox: Sandbox,
	name: string,
	content: string | Uint8Array | Blob,
	before: Fields,
	after: Fields = {},
): Promise<Response> {
	const form = new FormData();
	for (const [key, value] of Object.entries(before)) form.append(key, value);
	const blob =
		content instanceof Blob
			? content
			: new Blob([typeof content === 'string' ? content : (content as Uint8Array<ArrayBuffer>)]);
	form.append('file', blob, name);
	for (const [key, value] of Object.entries(after)) form.append(key, value);
	return fetch(`${sandbox.baseUrl}/api_v2/upload_file`, { method: 'POST', body: form });
}

export async function uploadOk(
	sandbox: Sandbox,
	folderHash: string,
	name: string,
	content: string,
	auth = DEMO_TOKEN,
) {
	const response = await upload(sandbox, name, content, { ...auth, folder_hash: folderHash });
	if (response.status !== 200) throw new Error(`upload answered ${response.status}`);
	return (await readJson(response)) as {
		file_hash: string;
		file_delete_key: string;
		file_name: string;
		timestamp_uploaded: number;
		timestamp_last_modified: number;
	};
}

export async function expectEmpty(response: Response, status: number) {
	expect(response.status).toBe(status);
	expect(response.headers.get('content-type')).toBe('application/json');
	expect(await response.text()).toBe('');
}

export function control(sandbox: Sandbox, method: string, name: string, body?: unknown) {
	return fetch(`${sandbox.baseUrl}/__sandbox/${name}`, {
		method,
		body: body === undefined ? undefined : JSON.stringify(body),
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
	});
}

/** `Response.json()` is typed `unknown`; tests inspect loosely. */
export async function readJson(response: Response | Promise<Response>): Promise<any> {
	return (await response).json();
}
