/**
 * The Storage Trigger against crashes of n8n itself (reduced form; the full form is `npm run crash`): n8n's
 * main process is killed with SIGKILL around a poll (while the listing is answered, just after, while the
 * execution is saved) and restarted on the same data folder, files keep arriving; at the end every file
 * must have been emitted, and with the durable scheduler and durable cursors exactly once.
 */
import { startSandbox } from '../sandbox/server';
import { storageCrashRun } from './harness/crash';

jest.setTimeout(600_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

describe('Storage Trigger, n8n killed around polls', () => {
	it('durable scheduler + durable cursors, regular mode: every file exactly once across 3 kills', async () => {
		const result = await storageCrashRun({
			sandbox,
			scheduler: 'durable',
			mode: 'regular',
			crashes: 3,
			seed: 39,
		});
		expect({ missed: result.missed, twice: result.twice }).toEqual({ missed: 0, twice: 0 });
		expect(result.once).toBe(result.changes);
	});
});
