/**
 * Faults in queue mode: the Storage fault workflows (upload, rename, move, delete under seeded faults)
 * run by two Redis-backed workers. The result must be the same in kind as in regular mode: every item done
 * exactly once or reported failed with its index, none lost, none duplicated.
 */
import { startSandbox } from '../../sandbox/server';
import { startN8n, type N8nInstance } from '../harness/n8n';
import { runStorageFaults } from './storage-faults';

jest.setTimeout(900_000);

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let n8n: N8nInstance;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	n8n = await startN8n({ mode: 'queue', workers: 2 });
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

it('loses and duplicates nothing under faults with two workers', async () => {
	expect(n8n.workers).toHaveLength(2);
	const { executionIds } = await runStorageFaults(n8n, sandbox, 'queue', 9001);
	// Every stage ran on a worker, not on main.
	expect(executionIds.filter((id) => !n8n.workerRanExecution(id))).toEqual([]);
});
