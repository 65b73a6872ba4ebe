/**
 * A test file's first run sets up n8n-core's services and loads the pack's node types (each compiled by
 * ts-jest): seconds on a quiet machine, over 20 s measured on a loaded one, where it failed the first test of
 * several unit files on their time limit. Done once per file in a hook with a limit of its own, so a test's
 * limit counts only what the test does. Imported for its effect by run-workflow.ts and run-poll.ts.
 */
import { createRegistry } from './registry';
import { engineServices } from './services';

if (typeof beforeAll === 'function')
	beforeAll(async () => {
		await engineServices();
		createRegistry();
	}, 180_000);
