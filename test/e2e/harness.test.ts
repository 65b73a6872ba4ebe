/**
 * The e2e harness itself, with built-in n8n nodes only (plus the package's credential types): a real n8n
 * starts with the package loaded, runs manual and webhook workflows, reports node errors and binary data,
 * and in queue mode hands executions to its worker.
 */
import { describeErrors, itemsOf, loadWorkflow, startN8n, type N8nInstance } from './harness/n8n';

describe('n8n harness, regular mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => (n8n = await startN8n({ mode: 'regular' })));
	afterAll(async () => await n8n?.stop());

	it('loads the package as a community package', async () => {
		expect(n8n.packageNodeTypes).toContain('n8n-nodes-cloud-storage.cloudStorage');
		expect(await n8n.client.credentialTypeNames()).toEqual(
			expect.arrayContaining([
				'cloudStorageTokenApi',
				'cloudStoragePasswordApi',
				'cloudStorageBearerApi',
				'cloudStorageDavApi',
			]),
		);
	});

	it('runs a manual workflow and returns items with their binary data', async () => {
		const workflow = await n8n.client.importWorkflow(loadWorkflow('harness/smoke.json'));
		const execution = await n8n.client.runWorkflow(workflow.id);

		expect(describeErrors(execution)).toBe('');
		expect(execution).toMatchObject({ status: 'success', mode: 'manual' });
		expect(itemsOf(execution, 'Make data')).toEqual([
			{ json: { greeting: 'hello from the task runner', n: 42 } },
		]);
		const [file] = itemsOf(execution, 'To file');
		expect(file.binary?.data).toMatchObject({
			fileName: 'greeting.txt',
			mimeType: 'text/plain',
			bytes: 26,
		});
		expect((await n8n.client.downloadBinary(file.binary!.data)).toString()).toBe(
			'hello from the task runner',
		);
	});

	it('reports the failing node and its message', async () => {
		const workflow = await n8n.client.importWorkflow(loadWorkflow('harness/failing.json'));
		const execution = await n8n.client.runWorkflow(workflow.id);

		expect(execution.status).toBe('error');
		expect(execution.nodes.Fail[0].error?.message).toContain(
			'deliberate failure from the harness test',
		);
		expect(describeErrors(execution)).toContain('Fail: ');
	});

	it('activates a webhook workflow and calls it', async () => {
		const workflow = await n8n.client.importWorkflow(loadWorkflow('harness/webhook.json'));
		await n8n.client.activate(workflow.id);

		const response = await n8n.client.callWebhook('harness-echo', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ word: 'ping' }),
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ echoed: 'ping' });
		const [executionId] = await n8n.client.listExecutionIds(workflow.id);
		expect((await n8n.client.waitForExecution(executionId)).mode).toBe('webhook');
	});

	it('creates a credential and runs its test on the server', async () => {
		const credential = await n8n.client.createCredential(
			'cloudStorageTokenApi',
			'Unreachable service',
			{
				baseUrl: 'http://127.0.0.1:9/api',
				webUrl: 'http://127.0.0.1:9',
				user: 'nobody',
				accessToken: 'no-token',
			},
		);
		expect(credential).toMatchObject({ id: expect.any(String), type: 'cloudStorageTokenApi' });
		expect(await n8n.client.testCredential(credential)).toMatchObject({ status: 'Error' });
	});
});

describe('n8n harness, queue mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => (n8n = await startN8n({ mode: 'queue' })));
	afterAll(async () => await n8n?.stop());

	it('runs a manual execution on the worker', async () => {
		const workflow = await n8n.client.importWorkflow(loadWorkflow('harness/smoke.json'));
		const execution = await n8n.client.runWorkflow(workflow.id);

		expect(describeErrors(execution)).toBe('');
		expect(execution.status).toBe('success');
		expect(n8n.workerRanExecution(execution.id)).toBe(true);
		const [file] = itemsOf(execution, 'To file');
		expect((await n8n.client.downloadBinary(file.binary!.data)).toString()).toBe(
			'hello from the task runner',
		);
	});
});
