/**
 * The Storage node's first slice in a real n8n against the sandbox, from an exported workflow
 * (workflows/storage-roundtrip.json): create a folder in ROOT → make a file with built-in nodes → upload →
 * list the folder → download → compare the bytes (in a Code node and here). Both credential types in
 * regular mode; the same workflow in queue mode, where the worker runs it.
 */
import { startSandbox } from '../sandbox/server';
import { createServiceCredential } from './harness/credentials';
import {
	describeErrors,
	itemsOf,
	loadWorkflow,
	startN8n,
	type CredentialRef,
	type ExecutionSummary,
	type N8nInstance,
} from './harness/n8n';

const STORAGE = 'n8n-nodes-cloud-storage.cloudStorage';
const WORKFLOW = 'storage-roundtrip.json';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());

async function demoCredentials(n8n: N8nInstance) {
	return {
		tokenApi: await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
			name: 'Demo (token)',
		}),
		passwordApi: await createServiceCredential(n8n.client, 'cloudStoragePasswordApi', sandbox, {
			name: 'Demo (password)',
		}),
	};
}

/** The exported workflow, with every Storage node switched to the given authentication and credential. */
function roundTripWorkflow(authentication: 'tokenApi' | 'passwordApi', credential: CredentialRef) {
	const workflow = loadWorkflow(WORKFLOW);
	for (const node of workflow.nodes) {
		if (node.type !== STORAGE) continue;
		node.parameters.authentication = authentication;
		node.credentials = { [credential.type]: { id: credential.id, name: credential.name } };
	}
	return workflow;
}

function only(execution: ExecutionSummary, node: string) {
	const items = itemsOf(execution, node);
	expect(items).toHaveLength(1);
	return items[0];
}

async function expectRoundTrip(n8n: N8nInstance, execution: ExecutionSummary) {
	expect(describeErrors(execution)).toBe('');
	expect(execution.status).toBe('success');

	const folder = only(execution, 'Create Folder').json;
	expect(folder).toMatchObject({
		hash: expect.any(String),
		name: expect.stringMatching(/^n8n round trip /),
	});
	expect(String(folder.link)).toContain(String(folder.hash));

	const uploaded = only(execution, 'Upload').json;
	expect(uploaded).toMatchObject({ hash: expect.any(String), name: 'round-trip.txt' });
	expect(String(uploaded.link)).toContain(String(uploaded.hash));

	expect(only(execution, 'List Folder').json).toMatchObject({
		hash: uploaded.hash,
		name: 'round-trip.txt',
	});

	const made = only(execution, 'Make File').binary!.data;
	const downloaded = only(execution, 'Download').binary!.data;
	expect(downloaded).toMatchObject({ fileName: 'round-trip.txt', bytes: made.bytes });
	expect(only(execution, 'Compare').json).toEqual({
		sameBytes: true,
		downloadedBytes: made.bytes,
		expectedBytes: made.bytes,
	});
	// Independently of the Code node: the stored binaries, as the editor would download them.
	const [madeBytes, downloadedBytes] = await Promise.all([
		n8n.client.downloadBinary(made),
		n8n.client.downloadBinary(downloaded),
	]);
	expect(madeBytes.length).toBeGreaterThan(100_000);
	expect(downloadedBytes.equals(madeBytes)).toBe(true);
}

describe('Storage slice in n8n, regular mode', () => {
	let n8n: N8nInstance;
	let credentials: Awaited<ReturnType<typeof demoCredentials>>;
	beforeAll(async () => {
		n8n = await startN8n({ mode: 'regular' });
		credentials = await demoCredentials(n8n);
	});
	afterAll(async () => await n8n?.stop());

	it("passes n8n's credential test with both credential types", async () => {
		expect(await n8n.client.testCredential(credentials.tokenApi)).toMatchObject({ status: 'OK' });
		expect(await n8n.client.testCredential(credentials.passwordApi)).toMatchObject({
			status: 'OK',
		});

		const wrong = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
			name: 'Demo (wrong token)',
			data: { accessToken: 'not-the-demo-token' },
		});
		expect(await n8n.client.testCredential(wrong)).toMatchObject({ status: 'Error' });
	});

	it.each(['tokenApi', 'passwordApi'] as const)(
		'runs the round trip with %s',
		async (authentication) => {
			const workflow = await n8n.client.importWorkflow(
				roundTripWorkflow(authentication, credentials[authentication]),
			);
			await expectRoundTrip(n8n, await n8n.client.runWorkflow(workflow.id));
		},
	);
});

describe('Storage slice in n8n, queue mode', () => {
	let n8n: N8nInstance;
	beforeAll(async () => (n8n = await startN8n({ mode: 'queue' })));
	afterAll(async () => await n8n?.stop());

	it('runs the round trip on the worker', async () => {
		const { tokenApi } = await demoCredentials(n8n);
		const workflow = await n8n.client.importWorkflow(loadWorkflow(WORKFLOW), {
			credentials: { [tokenApi.type]: tokenApi },
		});
		const execution = await n8n.client.runWorkflow(workflow.id);

		await expectRoundTrip(n8n, execution);
		expect(n8n.workerRanExecution(execution.id)).toBe(true);
	});
});
