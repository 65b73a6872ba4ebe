// What `npm start` puts into a fresh n8n: a credential of every type for the sandbox's demo account (and the
// local DAV server), and the example workflows wired to them. Idempotent, so a restart reuses the instance.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CredentialRef, N8nClient } from './n8n-client.ts';

export type DemoServices = {
	sandbox: { baseUrl: string; webUrl: string };
	account: { id: number; username: string; password: string; token: string };
	dav?: { url: string; username: string; password: string };
};

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
			data: { userId: String(account.id), apiToken: account.token, baseUrl: sandbox.baseUrl, aiUrl: sandbox.baseUrl },
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
		const found = existing.find((credential) => credential.name === spec.name && credential.type === spec.type);
		if (found) await client.updateCredential(found, spec.data);
		byType[spec.type] = found ?? (await client.createCredential(spec.type, spec.name, spec.data));
	}
	return byType;
}

/** Imports every `*.json` of `dir` (not its subfolders) whose name is not taken yet; returns the names imported. */
export async function importExampleWorkflows(
	client: N8nClient,
	dir: string,
	credentials: Record<string, CredentialRef>,
) {
	const taken = new Set((await client.listWorkflows()).map((workflow) => workflow.name));
	const imported: string[] = [];
	for (const file of readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
		if (taken.has(workflow.name)) continue;
		await client.importWorkflow(workflow, { credentials });
		imported.push(workflow.name);
	}
	return imported;
}
