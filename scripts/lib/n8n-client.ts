// A small client for the REST API that n8n's editor uses (`/rest/...`, cookie session). It covers what the
// e2e tests and `npm start` need: owner setup, credentials, workflows, manual runs, executions, webhooks.
import { delay } from './processes.ts';
import { summarizeExecution, type ExecutionSummary } from './execution-data.ts';

type Json = Record<string, any>;
export type CredentialRef = { id: string; name: string; type: string };
export type WorkflowRef = { id: string; name: string; versionId: string };
export type Owner = { email: string; password: string; firstName: string; lastName: string };

const FINAL_STATUSES = ['success', 'error', 'crashed', 'canceled', 'waiting'];

/**
 * n8n closes idle keep-alive connections after a few seconds; a request that goes out on such a socket
 * as it closes fails with "other side closed" before n8n has read it. That request is sent once more on
 * a new connection. A busy machine makes the race likely, so without this the tests flake under load.
 */
async function fetchOnFreshSocketIfClosed(url: string, init: RequestInit): Promise<Response> {
	try {
		return await fetch(url, init);
	} catch (error) {
		const code = ((error as { cause?: { code?: string } }).cause ?? {}).code;
		if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
		return await fetch(url, { ...init, keepalive: false });
	}
}

export class N8nClient {
	readonly baseUrl: string;
	readonly runtimeDir: string;
	private cookie = '';

	constructor(baseUrl: string, runtimeDir: string) {
		this.baseUrl = baseUrl;
		this.runtimeDir = runtimeDir;
	}

	async request<T = any>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.fetch(path, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`n8n ${method} ${path} answered ${response.status}: ${text.slice(0, 2000)}`);
		const parsed = text ? JSON.parse(text) : {};
		return ('data' in parsed ? parsed.data : parsed) as T;
	}

	/** A raw request with the session cookie, remembering a new cookie when n8n sets one. */
	async fetch(path: string, init: RequestInit = {}): Promise<Response> {
		const headers = new Headers(init.headers);
		if (this.cookie) headers.set('cookie', this.cookie);
		const response = await fetchOnFreshSocketIfClosed(`${this.baseUrl}${path}`, {
			...init,
			headers,
		});
		const auth = response.headers.getSetCookie().find((cookie) => cookie.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		return response;
	}

	// ---- Users ----

	/** Creates the owner on a fresh instance, or logs in when it already has one. */
	async signIn(owner: Owner): Promise<void> {
		const settings = await this.request<Json>('GET', '/rest/settings');
		if (settings.userManagement?.showSetupOnFirstLoad) {
			await this.request('POST', '/rest/owner/setup', owner);
		}
		await this.request('POST', '/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
	}

	// ---- Credentials ----

	async createCredential(type: string, name: string, data: Json): Promise<CredentialRef> {
		const created = await this.request<Json>('POST', '/rest/credentials', { type, name, data });
		return { id: created.id, name: created.name, type: created.type };
	}

	async updateCredential(credential: CredentialRef, data: Json): Promise<void> {
		await this.request('PATCH', `/rest/credentials/${credential.id}`, {
			type: credential.type,
			name: credential.name,
			data,
		});
	}

	async listCredentials(): Promise<CredentialRef[]> {
		const list = await this.request<Json[]>('GET', '/rest/credentials');
		return list.map(({ id, name, type }) => ({ id, name, type }));
	}

	/**
	 * n8n's "Test credential" button: runs the credential type's `test` on the server. Like the editor, it sends
	 * the stored data as read back (secrets redacted; n8n restores them); without `data` n8n tests nothing useful.
	 */
	async testCredential(
		credential: CredentialRef,
	): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const stored = await this.request<Json>(
			'GET',
			`/rest/credentials/${credential.id}?includeData=true`,
		);
		return await this.request('POST', '/rest/credentials/test', {
			credentials: {
				id: credential.id,
				name: credential.name,
				type: credential.type,
				data: stored.data,
			},
		});
	}

	// ---- Workflows ----

	/**
	 * Creates a workflow from exported JSON. `credentials` maps a credential type to the credential that every
	 * node asking for that type should use (exported JSON names credentials the importing instance lacks).
	 */
	async importWorkflow(
		workflow: Json,
		options: { credentials?: Record<string, CredentialRef>; name?: string } = {},
	) {
		const nodes = (workflow.nodes as Json[]).map((node) => {
			if (!node.credentials || !options.credentials) return node;
			const credentials = { ...node.credentials };
			for (const type of Object.keys(credentials)) {
				const replacement = options.credentials[type];
				if (replacement) credentials[type] = { id: replacement.id, name: replacement.name };
			}
			return { ...node, credentials };
		});
		const created = await this.request<Json>('POST', '/rest/workflows', {
			name: options.name ?? workflow.name,
			nodes,
			connections: workflow.connections ?? {},
			settings: workflow.settings ?? { executionOrder: 'v1' },
			pinData: workflow.pinData ?? {},
			active: false,
		});
		return { id: created.id, name: created.name, versionId: created.versionId } as WorkflowRef;
	}

	/** Saves changed fields of a workflow (n8n checks `versionId`, so this reads it first). */
	async updateWorkflow(id: string, changes: Json): Promise<void> {
		const { versionId } = await this.getWorkflow(id);
		await this.request('PATCH', `/rest/workflows/${id}`, { ...changes, versionId });
	}

	async getWorkflow(id: string): Promise<Json> {
		return await this.request('GET', `/rest/workflows/${id}`);
	}

	async listWorkflows(): Promise<WorkflowRef[]> {
		const list = await this.request<Json[]>('GET', '/rest/workflows');
		return list.map(({ id, name, versionId }) => ({ id, name, versionId }));
	}

	/** Publishes the current version, which registers its triggers and webhooks. */
	async activate(id: string): Promise<void> {
		const { versionId } = await this.getWorkflow(id);
		await this.request('POST', `/rest/workflows/${id}/activate`, { versionId });
	}

	async deactivate(id: string): Promise<void> {
		await this.request('POST', `/rest/workflows/${id}/deactivate`, {});
	}

	// ---- Executions ----

	/** Runs a workflow as the editor's "Execute workflow" button does, and waits for the execution to end. */
	async runWorkflow(
		id: string,
		options: { trigger?: string; timeoutMs?: number } = {},
	): Promise<ExecutionSummary> {
		const trigger = options.trigger ?? (await this.findManualTrigger(id));
		const started = await this.request<Json>('POST', `/rest/workflows/${id}/run`, {
			triggerToStartFrom: { name: trigger },
		});
		if (!started.executionId)
			throw new Error(`n8n did not start workflow ${id}: ${JSON.stringify(started)}`);
		return await this.waitForExecution(String(started.executionId), options.timeoutMs);
	}

	async waitForExecution(executionId: string, timeoutMs = 120_000): Promise<ExecutionSummary> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			// Until the execution is saved it may answer 404 (queue mode) or report `new`/`running`.
			const response = await this.fetch(`/rest/executions/${executionId}`);
			if (response.ok) {
				const execution = ((await response.json()) as Json).data as Json;
				if (FINAL_STATUSES.includes(execution.status))
					return summarizeExecution(execution, this.runtimeDir);
			} else if (response.status !== 404) {
				throw new Error(
					`n8n GET /rest/executions/${executionId} answered ${response.status}: ${await response.text()}`,
				);
			}
			if (Date.now() > deadline)
				throw new Error(`Execution ${executionId} did not finish within ${timeoutMs} ms`);
			await delay(250);
		}
	}

	async getExecution(executionId: string): Promise<ExecutionSummary> {
		return summarizeExecution(
			await this.request('GET', `/rest/executions/${executionId}`),
			this.runtimeDir,
		);
	}

	/** Execution ids of a workflow, newest first. */
	async listExecutionIds(workflowId: string): Promise<string[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const list = await this.request<Json>('GET', `/rest/executions?filter=${filter}`);
		return (list.results as Json[]).map((execution) => String(execution.id));
	}

	/** The bytes of a binary property, as the editor's download button fetches them. */
	async downloadBinary(binary: { id?: string }): Promise<Buffer> {
		if (!binary.id) throw new Error('This binary has no id (it was kept in memory, not stored)');
		const response = await this.fetch(
			`/rest/binary-data?id=${encodeURIComponent(binary.id)}&action=download`,
		);
		if (!response.ok)
			throw new Error(`Binary download answered ${response.status}: ${await response.text()}`);
		return Buffer.from(await response.arrayBuffer());
	}

	/**
	 * Calls a production webhook. Activation registers webhooks asynchronously, so a 404 is retried for a while.
	 */
	async callWebhook(path: string, init: RequestInit = {}, timeoutMs = 20_000): Promise<Response> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const response = await fetch(`${this.baseUrl}/webhook/${path}`, init);
			if (response.status !== 404 || Date.now() > deadline) return response;
			await response.body?.cancel();
			await delay(250);
		}
	}

	// ---- Node types ----

	/** Descriptions of node types as the editor loads them; missing types are left out. */
	async nodeTypes(types: Array<{ name: string; version: number }>): Promise<Json[]> {
		return await this.request('POST', '/rest/node-types', { nodeInfos: types });
	}

	async credentialTypeNames(): Promise<string[]> {
		const response = await this.fetch('/types/credentials.json');
		if (!response.ok) throw new Error(`GET /types/credentials.json answered ${response.status}`);
		return ((await response.json()) as Json[]).map((type) => type.name as string);
	}

	private async findManualTrigger(workflowId: string): Promise<string> {
		const workflow = await this.getWorkflow(workflowId);
		const trigger = (workflow.nodes as Json[]).find(
			(node) => node.type === 'n8n-nodes-base.manualTrigger',
		);
		if (!trigger)
			throw new Error(`Workflow ${workflowId} has no Manual Trigger; pass options.trigger`);
		return trigger.name;
	}
}
