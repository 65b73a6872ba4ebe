// The e2e tests' entry to a real n8n. The n8n-driving code lives in scripts/lib (shared with `npm start`);
// this file fills in the repository paths and adds helpers for workflow files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	startN8n as startN8nWith,
	type N8nInstance,
	type StartN8nOptions,
} from '../../../scripts/lib/n8n-server.ts';
import { repoPaths } from '../../../scripts/lib/paths.ts';
import { stopAllProcesses } from '../../../scripts/lib/processes.ts';
import type { WorkflowRef } from '../../../scripts/lib/n8n-client.ts';

export { describeErrors, itemsOf } from '../../../scripts/lib/execution-data.ts';
export type { ExecutionSummary, ItemSummary } from '../../../scripts/lib/execution-data.ts';
export type { CredentialRef, N8nClient, WorkflowRef } from '../../../scripts/lib/n8n-client.ts';
export type { N8nInstance };

export const paths = repoPaths(join(__dirname, '../../..'));

// Starting n8n takes ~10 s (queue mode ~15 s). Set for every file that uses the harness, because Jest ignores
// `testTimeout` inside a project of jest.config.js; it stays above the harness's own start timeout (120 s),
// so a failed start cleans up and reports before Jest gives up on the hook.
jest.setTimeout(180_000);

/** Starts n8n with the built package loaded, signed in as the owner. Always `stop()` it (afterAll). */
export async function startN8n(options: Omit<StartN8nOptions, 'paths'> = {}): Promise<N8nInstance> {
	return await startN8nWith({ paths, ...options });
}

/** A workflow from test/e2e/workflows, as exported JSON. */
export function loadWorkflow(fileName: string): Record<string, any> {
	return JSON.parse(readFileSync(join(paths.workflowsDir, fileName), 'utf8'));
}

/**
 * Tests poll by (re)activating; a scheduled poll landing inside a test's window (the examples poll every
 * minute) would add requests and executions the test did not ask for, so the schedule is moved to 1 January.
 */
export function pollOnlyOnActivation(workflow: Record<string, any>): Record<string, any> {
	for (const node of workflow.nodes) {
		if (node.parameters?.pollTimes)
			node.parameters.pollTimes = { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] };
	}
	return workflow;
}

/**
 * The executions started by polls (the manual test run's are left out), newest first, once there are `expected`;
 * each is waited for until it has finished.
 */
export async function executionsAfterPoll(
	n8n: N8nInstance,
	workflow: WorkflowRef,
	expected: number,
	manual: Set<string>,
) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const ids = (await n8n.client.listExecutionIds(workflow.id)).filter((id) => !manual.has(id));
		if (ids.length >= expected)
			return await Promise.all(ids.slice(0, expected).map((id) => n8n.client.waitForExecution(id)));
		if (Date.now() > deadline)
			throw new Error(`expected ${expected} executions, found ${ids.length}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

// A test that forgets `stop()` must not leave n8n running after its file (Jest gives each file a registry).
afterAll(async () => await stopAllProcesses());
