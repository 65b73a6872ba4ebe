/**
 * The worst bad inputs in a real n8n (workflows/bad-input.json): each node reports a clear error on its item
 * (Continue On Fail), the last one stops the execution naming the problem, nothing reaches any service, and
 * n8n stays up and runs the next workflow normally.
 */
import { fillPlaceholders } from '../../scripts/lib/demo-setup.ts';
import { startSandbox } from '../sandbox/server';
import { createServiceCredential } from './harness/credentials';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	startN8n,
	type CredentialRef,
	type N8nInstance,
} from './harness/n8n';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let n8n: N8nInstance;
let credentials: Record<string, CredentialRef>;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	n8n = await startN8n({ mode: 'regular' });
	credentials = {
		cloudStorageTokenApi: await createServiceCredential(
			n8n.client,
			'cloudStorageTokenApi',
			sandbox,
		),
		cloudStorageBearerApi: await createServiceCredential(
			n8n.client,
			'cloudStorageBearerApi',
			sandbox,
		),
		// Never contacted: every DAV case here must fail before a request (a request would fail as unreachable).
		cloudStorageDavApi: await n8n.client.createCredential('cloudStorageDavApi', 'DAV', {
			davUrl: 'https://dav.example.test/',
			username: 'alice',
			password: 'dav-pass',
		}),
	};
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const errorOf = (
	execution: Awaited<ReturnType<N8nInstance['client']['runWorkflow']>>,
	node: string,
) => {
	const [item] = itemsOf(execution, node);
	return `${item?.json.error ?? ''} | ${item?.json.description ?? ''}`;
};

it('reports every bad input clearly, sends nothing and keeps n8n running', async () => {
	const workflow = await n8n.client.importWorkflow(
		fillPlaceholders(loadWorkflow('bad-input.json'), {
			'the URL of a calendar on your DAV server': 'https://dav.example.test/cal/work/',
		}),
		{ credentials },
	);
	sandbox.requests.clear();
	const execution = await n8n.client.runWorkflow(workflow.id);

	expect(errorOf(execution, 'Malformed Hash')).toMatch(/"ab\/cd" is not a file hash/);
	expect(errorOf(execution, 'Upload Into ROOT')).toMatch(
		/cannot be uploaded directly into ROOT|No binary property "data"/,
	);
	expect(errorOf(execution, 'Garbage iCalendar')).toMatch(/iCalendar data could not be parsed/);
	expect(errorOf(execution, 'Impossible Date')).toMatch(
		/"2030-13-45T99:00" is not a valid date or time/,
	);
	expect(errorOf(execution, 'Bad Arguments')).toMatch(/arguments are not valid JSON/);
	expect(errorOf(execution, 'Bad Messages')).toMatch(/messages JSON is not valid JSON/);
	expect(execution.status).toBe('error');
	expect(describeErrors(execution)).toMatch(
		/^Bad Task ID: The task ID must be a positive whole number \(got "T-12"\)/m,
	);
	const stopped = execution.nodes['Bad Task ID'][0].error as Record<string, unknown>;
	expect(JSON.stringify(execution.data)).toMatch(/"itemIndex":\s*0/);
	expect(stopped.message).toBeDefined();
	expect(sandbox.requests.list()).toEqual([]);

	const health = await fetch(`${n8n.baseUrl}/healthz`);
	expect(health.status).toBe(200);
	const smoke = await n8n.client.importWorkflow(loadWorkflow('harness/smoke.json'));
	const next = await n8n.client.runWorkflow(smoke.id);
	expect(describeErrors(next)).toBe('');
	expect(next.status).toBe('success');
});
