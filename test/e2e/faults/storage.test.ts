/**
 * Faults: FAULT_ITEMS-item (1,000 for the report, 250 in npm test) Storage workflows (upload, rename, move, delete) in a real n8n with Continue On Fail
 * while the sandbox injects seeded 429s (with and without Retry-After), 500s, 503s, dropped connections before
 * and after the write, and slow answers past the node's 2 s Timeout (the write applied, the answer late).
 * Afterwards every item is done exactly once or reported failed with its index; none is lost, none duplicated.
 */
import { startSandbox } from '../../sandbox/server';
import { startN8n, type N8nInstance } from '../harness/n8n';
import { runStorageFaults } from './storage-faults';

jest.setTimeout(900_000);

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let n8n: N8nInstance;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	n8n = await startN8n({ mode: 'regular' });
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

it('loses and duplicates nothing under faults (regular mode)', async () => {
	await runStorageFaults(n8n, sandbox, 'regular', 9001);
});
