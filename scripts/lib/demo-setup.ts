// What `npm start` puts into a fresh n8n: a credential of every type for the sandbox's demo account (and the
// local DAV server), and the example workflows wired to them. Idempotent, so a restart reuses the instance.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CredentialRef, N8nClient } from './n8n-client.ts';

export type DemoServices = {
	sandbox: { baseUrl: string; webUrl: string };
	account: { id: number; username: string; password: string; token: string };
	/** The DAV server, with the calendar and address book the examples work in. */
	dav?: {
		url: string;
		username: string;
		password: string;
		calendarUrl: string;
		addressBookUrl: string;
	};
};

/** An event and a contact as another client writes them (with properties n8n does not know, which must survive). */
export const FOREIGN_EVENT = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//Other Client//EN',
	'BEGIN:VEVENT',
	'UID:other-client-event',
	'DTSTAMP:20300101T000000Z',
	'DTSTART:20300110T100000Z',
	'DTEND:20300110T110000Z',
	'SUMMARY:Written elsewhere',
	'X-OTHER-CLIENT-FLAG:keep-me',
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');
export const FOREIGN_CONTACT = [
	'BEGIN:VCARD',
	'VERSION:3.0',
	'UID:other-client-contact',
	'FN:Ada Lovelace',
	'X-OTHER-CLIENT-FIELD:keep-me-too',
	'END:VCARD',
	'',
].join('\r\n');
export const AGREEMENT_PDF = '%PDF-1.7 agreement';
/** Who signed the agreement in the demo data. */
export const DEMO_SIGNER = 'Anna Example';

/** What the examples' `REPLACE_ME: …` values become, keyed by the text after the prefix. */
export type ExampleValues = Record<string, string>;

async function ok(response: Response, what: string): Promise<Response> {
	if (!response.ok)
		throw new Error(
			`${what} answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
		);
	return response;
}

/**
 * Creates in the services what the examples need (a PDF to sign, an event and a contact written by "another
 * client") and returns the values their placeholders take. Idempotent: a restart finds and reuses them.
 */
export async function prepareExampleData({
	sandbox,
	account,
	dav,
}: DemoServices): Promise<ExampleValues> {
	const auth = { user: account.username, user_access_token: account.token };
	const v2 = async (action: string, body: URLSearchParams | FormData) =>
		(
			await ok(await fetch(`${sandbox.baseUrl}/api_v2/${action}`, { method: 'POST', body }), action)
		).json();
	const login = await ok(
		await fetch(`${sandbox.baseUrl}/api/authenticate_user.php`, {
			method: 'POST',
			body: new URLSearchParams(auth),
		}),
		'authenticate_user',
	);
	const rootHash = ((await login.json()) as { UserData: { root_upload_hash: string } }).UserData
		.root_upload_hash;
	const root = (await v2(
		'get_folder_content',
		new URLSearchParams({ ...auth, folder_hash: rootHash }),
	)) as Array<{ type: string; name: string; hash: string }>;
	let folder = root.find((entry) => entry.type === 'folder' && entry.name === 'Examples')?.hash;
	folder ??= (
		(await v2('create_folder', new URLSearchParams({ ...auth, folder_name: 'Examples' }))) as {
			folder_hash: string;
		}
	).folder_hash;
	const inFolder = (await v2(
		'get_folder_content',
		new URLSearchParams({ ...auth, folder_hash: folder }),
	)) as Array<{ type: string; name: string; hash: string }>;
	let pdf = inFolder.find((entry) => entry.type === 'file' && entry.name === 'agreement.pdf')?.hash;
	if (!pdf) {
		const form = new FormData();
		for (const [key, value] of Object.entries({ ...auth, folder_hash: folder }))
			form.append(key, value);
		form.append('file', new Blob([AGREEMENT_PDF], { type: 'application/pdf' }), 'agreement.pdf');
		pdf = ((await v2('upload_file', form)) as { file_hash: string }).file_hash;
	}
	// The E-Signature Trigger's Fetch Test Event shows the newest signature of the watched files: one is seeded
	// (the sandbox's control route stands for someone signing through the provider).
	const signatures = (await v2(
		'get_esignatures',
		new URLSearchParams({ ...auth, file_hash: pdf }),
	)) as unknown[];
	if (signatures.length === 0)
		await ok(
			await fetch(`${sandbox.baseUrl}/__sandbox/signatures`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ file_hash: pdf, signer_name: DEMO_SIGNER }),
			}),
			"the sandbox's signature seeding",
		);
	const values: ExampleValues = {
		'the hash of a PDF file in your storage': pdf,
		'the hash of the folder to watch': folder,
		"the service's address (the Base URL of your credential)": sandbox.baseUrl,
	};
	if (dav) {
		const authorization = `Basic ${Buffer.from(`${dav.username}:${dav.password}`).toString('base64')}`;
		const put = async (url: string, body: string, type: string) => {
			await ok(
				await fetch(url, { method: 'PUT', body, headers: { authorization, 'content-type': type } }),
				`PUT ${url}`,
			);
			return url;
		};
		values['the URL of the calendar to watch'] = dav.calendarUrl;
		values['the URL of a calendar on your DAV server'] = dav.calendarUrl;
		values['the URL of the address book to watch'] = dav.addressBookUrl;
		values['the URL of an event another calendar client wrote (Get Events shows it)'] = await put(
			new URL('foreign.ics', dav.calendarUrl).href,
			FOREIGN_EVENT,
			'text/calendar',
		);
		values['the URL of a contact another client wrote (Get Contacts shows it)'] = await put(
			new URL('foreign.vcf', dav.addressBookUrl).href,
			FOREIGN_CONTACT,
			'text/vcard',
		);
	}
	return values;
}

/** The workflow with every `REPLACE_ME: …` string that `values` knows replaced; the others stay (and the nodes refuse them). */
export function fillPlaceholders<T>(workflow: T, values: ExampleValues): T {
	return JSON.parse(JSON.stringify(workflow), (_key, value) => {
		if (typeof value !== 'string' || !value.startsWith('REPLACE_ME')) return value;
		const what = value.replace(/^REPLACE_ME[\s:]*/, '');
		return values[what] ?? value;
	}) as T;
}

type CredentialSpec = { type: string; name: string; data: Record<string, string> };

function demoCredentialSpecs({ sandbox, account, dav }: DemoServices): CredentialSpec[] {
	const service = { baseUrl: sandbox.baseUrl, webUrl: sandbox.webUrl, user: account.username };
	const specs: CredentialSpec[] = [
		{
			type: 'cloudStorageTokenApi',
			name: 'Cloud Storage demo (access token)',
			data: { ...service, accessToken: account.token },
		},
		{
			type: 'cloudStoragePasswordApi',
			name: 'Cloud Storage demo (password)',
			data: { ...service, password: account.password },
		},
		{
			type: 'cloudStorageBearerApi',
			name: 'Cloud Storage demo (API token)',
			// The sandbox serves every API of the service from one address, the hosted AI included.
			data: {
				userId: String(account.id),
				apiToken: account.token,
				baseUrl: sandbox.baseUrl,
				aiUrl: sandbox.baseUrl,
			},
		},
	];
	if (dav) {
		specs.push({
			type: 'cloudStorageDavApi',
			name: 'Cloud Storage demo (CalDAV/CardDAV)',
			data: { davUrl: dav.url, username: dav.username, password: dav.password },
		});
	}
	return specs;
}

/** Creates the demo credentials, or updates those of the same name (service ports may have changed). */
export async function upsertDemoCredentials(client: N8nClient, services: DemoServices) {
	const existing = await client.listCredentials();
	const byType: Record<string, CredentialRef> = {};
	for (const spec of demoCredentialSpecs(services)) {
		const found = existing.find(
			(credential) => credential.name === spec.name && credential.type === spec.type,
		);
		if (found) await client.updateCredential(found, spec.data);
		byType[spec.type] = found ?? (await client.createCredential(spec.type, spec.name, spec.data));
	}
	return byType;
}

/**
 * Imports every `*.json` of `dir` (not its subfolders) whose name is not taken yet, with its placeholders
 * filled from `values` (see prepareExampleData); returns the names imported.
 */
export async function importExampleWorkflows(
	client: N8nClient,
	dir: string,
	credentials: Record<string, CredentialRef>,
	values: ExampleValues = {},
) {
	const taken = new Set((await client.listWorkflows()).map((workflow) => workflow.name));
	const imported: string[] = [];
	for (const file of readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		const workflow = fillPlaceholders(JSON.parse(readFileSync(join(dir, file), 'utf8')), values);
		if (taken.has(workflow.name)) continue;
		await client.importWorkflow(workflow, { credentials });
		imported.push(workflow.name);
	}
	return imported;
}

/** The string at `path` inside `value`, if there is one. */
function stringAt(value: unknown, path: Array<string | number>): string | undefined {
	let here: unknown = value;
	for (const key of path) {
		if (here === null || typeof here !== 'object') return undefined;
		here = (here as Record<string | number, unknown>)[key];
	}
	return typeof here === 'string' ? here : undefined;
}

/** Every `REPLACE_ME: …` string of an example node's parameters, with where it sits. */
function placeholdersOf(
	value: unknown,
	path: Array<string | number> = [],
): Array<{ path: Array<string | number>; what: string }> {
	if (typeof value === 'string')
		return value.startsWith('REPLACE_ME')
			? [{ path, what: value.replace(/^REPLACE_ME[\s:]*/, '') }]
			: [];
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([key, child]) =>
		placeholdersOf(child, [...path, Array.isArray(value) ? Number(key) : key]),
	);
}

/** `text` with every old value that `changes` maps replaced by its new one (hashes inside expressions too). */
function replaceValues<T>(workflow: T, changes: Map<string, string>): T {
	return JSON.parse(JSON.stringify(workflow), (_key, value) => {
		if (typeof value !== 'string') return value;
		let text = value;
		for (const [before, after] of changes) text = text.split(before).join(after);
		return text;
	}) as T;
}

/**
 * A restart gives the sandbox fresh data with new hashes, while the examples imported at the first start keep
 * the old ones (and would answer 405). The values each example was filled with are read back (from
 * `valuesFile`, kept beside n8n's data, else from where its placeholders sit in the imported workflow), and
 * where they changed the workflow is updated: every occurrence of an old value becomes the new one, so edits
 * the user made around them stay. Returns the names updated.
 */
export async function refreshExampleWorkflows(
	client: N8nClient,
	dir: string,
	values: ExampleValues,
	valuesFile: string,
) {
	const previous: ExampleValues = existsSync(valuesFile)
		? (JSON.parse(readFileSync(valuesFile, 'utf8')) as ExampleValues)
		: {};
	const present = new Map((await client.listWorkflows()).map((ref) => [ref.name, ref.id]));
	const updated: string[] = [];
	for (const file of readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		const example = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
			name: string;
			nodes: Array<{ name: string; parameters?: unknown }>;
		};
		const id = present.get(example.name);
		if (!id) continue;
		const current = await client.getWorkflow(id);
		const changes = new Map<string, string>();
		for (const node of example.nodes) {
			const installed = (current.nodes as Array<{ name: string; parameters?: unknown }>).find(
				(candidate) => candidate.name === node.name,
			);
			for (const { path, what } of placeholdersOf(node.parameters)) {
				const now = values[what];
				const before = previous[what] ?? stringAt(installed?.parameters, path);
				if (now && before && before !== now && !before.startsWith('REPLACE_ME'))
					changes.set(before, now);
			}
		}
		if (changes.size === 0) continue;
		await client.updateWorkflow(id, {
			nodes: replaceValues(current.nodes, changes),
			pinData: replaceValues(current.pinData ?? {}, changes),
		});
		updated.push(example.name);
	}
	writeFileSync(valuesFile, `${JSON.stringify(values, null, 2)}\n`);
	return updated;
}
