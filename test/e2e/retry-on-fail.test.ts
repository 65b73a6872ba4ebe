/**
 * n8n's own Retry On Fail in a real n8n 2.41.1, regular mode and queue mode (a Redis-backed worker): the
 * node runs again after it threw, or (Continue On Fail) after item 0 failed. A comment whose answer was lost
 * (no read can settle it) and a comment that was applied are never sent again by those tries
 * (nodes/shared/node/rerun-guard.ts); the engine tier's test/engine/retry-on-fail.test.ts covers the details.
 */
import { startSandbox } from '../sandbox/server';
import { DMS_SEED, dmsOf } from '../sandbox/dms/state';
import { createServiceCredential } from './harness/credentials';
import { startN8n, type N8nInstance } from './harness/n8n';
import { itemsNode, linearWorkflow } from './faults/tally';

jest.setTimeout(600_000);

describe.each(['regular', 'queue'] as const)('Retry On Fail, %s mode', (mode) => {
	let sandbox: Awaited<ReturnType<typeof startSandbox>>;
	let n8n: N8nInstance;
	let credential: { id: string; name: string };
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		n8n = await startN8n(mode === 'queue' ? { mode, workers: 1 } : { mode });
		credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
			name: 'Retry DMS',
		});
	});
	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	const org = () => dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!;
	const commentRequests = () =>
		sandbox.requests.list().filter((entry) => entry.action === 'add_comment');

	async function run(texts: string[], onError?: string) {
		const workflow = await n8n.client.importWorkflow(
			linearWorkflow(`Retry On Fail (${mode}, ${texts.length})`, [
				itemsNode(texts.map((text) => ({ text }))),
				{
					name: 'DMS',
					type: 'n8n-nodes-cloud-storage.cloudStorageDmsTask',
					typeVersion: 1,
					parameters: {
						resource: 'task',
						operation: 'addComment',
						documentId: { __rl: true, mode: 'id', value: String(DMS_SEED.tasks.second) },
						comment: '={{ $json.text }}',
					},
					credentials: { cloudStorageTokenApi: credential },
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 0,
					...(onError ? { onError } : {}),
				} as never,
			]),
		);
		const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 300_000 });
		if (mode === 'queue') expect(n8n.workerRanExecution(execution.id)).toBe(true);
		return execution;
	}

	beforeEach(() => sandbox.reset());

	it('does not send again a comment whose answer was lost, over three tries', async () => {
		sandbox.faults.add([{ match: { path: 'add_comment' }, fault: 'drop-after', times: 1 }]);
		const execution = await run(['lost once']);
		expect(execution.status).toBe('error');
		expect(execution.error?.message).toMatch(/^The write may have been applied/);
		expect(commentRequests()).toHaveLength(1);
		expect(org().comments.map((comment) => comment.text)).toEqual(['lost once']);
	});

	it('with Continue On Fail, re-runs the node for item 0 without sending item 1 again', async () => {
		sandbox.faults.add([{ match: { path: 'add_comment' }, fault: 'drop-after', times: 1 }]);
		const execution = await run(['first', 'second'], 'continueRegularOutput');
		expect(execution.status).toBe('success');
		expect(commentRequests()).toHaveLength(2);
		expect(org().comments.map((comment) => comment.text)).toEqual(['first', 'second']);
	});
});
