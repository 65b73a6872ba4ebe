/**
 * The README's advice for an execution n8n left "crashed": retry it. A Storage Trigger execution (durable scheduler,
 * durable cursors, regular mode) whose next node is sending the trigger's items on is killed with n8n's main
 * (SIGKILL, the moment the first item arrives at a loopback server), main is restarted, n8n's recovery marks the
 * execution crashed; its retry must hand the next node every change of that poll, each with the eventId the
 * trigger gave it. What the recovery left as the trigger's run is logged (one artificial item, or a run without
 * data), since the retry must work with either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../scripts/lib/processes.ts';
import { startSandbox } from '../sandbox/server';
import { schedulerEnv, seeded, sleep, triggerItems, until } from './harness/crash';
import { storageTarget } from './harness/crash-targets';
import { pollOnlyOnActivation, startN8n, type N8nInstance } from './harness/n8n';

jest.setTimeout(600_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Receives the next node's requests: the first one kills n8n's main (if `kill` is set), later ones are noted. */
function handOnServer() {
	const received: string[] = [];
	let kill: (() => void) | undefined;
	let killedNow: () => void = () => undefined;
	const killed = new Promise<void>((resolve) => (killedNow = resolve));
	const server: Server = createServer((request, response) => {
		if (kill) {
			kill();
			kill = undefined;
			killedNow();
			request.socket.destroy();
			return;
		}
		received.push(decodeURIComponent(request.url!.replace('/hand-on/', '')));
		response.end('{}');
	});
	return {
		server,
		received,
		killed,
		killOnFirst: (action: () => void) => (kill = action),
		url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hand-on/`,
	};
}

describe('a crashed trigger execution, retried', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance | undefined;
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-crash-retry-'));
	const hand = handOnServer();

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		await new Promise<void>((resolve) => hand.server.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		await n8n?.stop();
		hand.server.closeAllConnections();
		await new Promise((resolve) => hand.server.close(resolve));
		await sandbox?.close();
		if (process.env.N8N_E2E_KEEP_TMP !== '1') rmSync(userFolder, { recursive: true, force: true });
	});

	it('hands the next node every change of the crashed poll, with the same eventIds', async () => {
		n8n = await startN8n({
			mode: 'regular',
			userFolder,
			port: await freePort(),
			env: { ...schedulerEnv('durable'), N8N_DISABLED_MODULES: 'mcp-registry,insights' },
		});
		const { client } = n8n;
		const target = storageTarget(sandbox, 'retry');
		const workflow = pollOnlyOnActivation(structuredClone(target.workflow));
		workflow.nodes.push({
			id: '5d0c7a21-8e44-4b1f-9c02-0000000000f1',
			name: 'Hand on',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [220, 200],
			parameters: {
				url: `=${hand.url()}{{ encodeURIComponent($json.eventId) }}`,
				options: {},
			},
		});
		workflow.connections[target.node] = {
			main: [[{ node: 'Hand on', type: 'main', index: 0 }]],
		};
		const credential = await client.createCredential(
			target.credential.type,
			'Crash retry',
			target.credential.data,
		);
		const { id } = await client.importWorkflow(workflow, {
			credentials: { [credential.type]: credential },
		});
		const publicationDone = async () =>
			await until('the publication outbox', async () => {
				const { status } = await client.request<{ status: string }>(
					'GET',
					`/rest/workflows/${id}/publication-status`,
				);
				if (status !== 'in_progress') return true;
				await sleep(200);
				return false;
			});

		// Activation: the baseline, one execution without items.
		await client.activate(id);
		const [baseline] = await until('the baseline execution', async () => {
			const ids = await client.listExecutionIds(id);
			return ids.length > 0 && ids;
		});
		await client.waitForExecution(baseline);

		const made = await target.change(seeded(7));
		hand.killOnFirst(() => process.kill(n8n!.main.pid, 'SIGKILL'));
		await publicationDone();
		await client.deactivate(id);
		await publicationDone();
		await client.activate(id);
		await hand.killed;
		await n8n.restartMain();

		const crashedId = await until('the polled execution', async () => {
			const ids = (await client.listExecutionIds(id)).filter((other) => other !== baseline);
			return ids.length === 1 && ids[0];
		});
		const crashed = await until('n8n to recover the killed execution', async () => {
			const execution = await client.getExecution(crashedId);
			return execution.status === 'crashed' && execution;
		});
		const recovered = (crashed.data as Record<string, any>).resultData?.runData?.[target.node];
		console.log(
			`recovered trigger run: ${JSON.stringify(recovered?.map((run: Record<string, unknown>) => run.data ?? run.executionStatus))}`,
		);
		const polled = triggerItems(crashed.data, target.node).map((item) => item.json);
		expect(polled.map(target.keyOf).sort()).toEqual([...made].sort());
		const eventIds = polled.map((json) => String(json.eventId));

		await client.request('POST', `/rest/executions/${crashedId}/retry`, { loadWorkflow: false });
		const retried = await until('the retried execution', async () => {
			const ids = (await client.listExecutionIds(id)).filter(
				(other) => other !== baseline && other !== crashedId,
			);
			return ids.length === 1 && ids[0];
		});
		const execution = await client.waitForExecution(retried);
		expect(execution.status).toBe('success');
		expect([...hand.received].sort()).toEqual([...eventIds].sort());
	});
});
