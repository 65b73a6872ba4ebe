/**
 * The harness's own tests: test-only nodes and credential types (fixtures/) against a local HTTP server,
 * to show that credentials, binary data, Continue On Fail and polling behave as in n8n.
 */
import { ECHO_USER, type EchoServer, startEchoServer } from './fixtures/echo-server';
import { echoCredentialTypes } from './fixtures/echo-credentials';
import { ECHO_TRIGGER_TYPE, ECHO_TYPE, echoNodeTypes } from './fixtures/echo-nodes';
import {
	chain,
	fixtureBytes,
	type NodeSpec,
	runPoll,
	runWorkflow,
	testCredential,
	type WorkflowSpec,
} from './harness';

let server: EchoServer;
beforeAll(async () => (server = await startEchoServer()));
afterAll(async () => await server.close());

const extraTypes = { nodeTypes: echoNodeTypes, credentialTypes: echoCredentialTypes };
const trigger: NodeSpec = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} };
const echo = (parameters: NodeSpec['parameters'], extra: Partial<NodeSpec> = {}): NodeSpec => ({
	name: 'Echo',
	type: ECHO_TYPE,
	parameters,
	...extra,
});
const triggerThen = (...nodes: NodeSpec[]): WorkflowSpec => ({
	nodes: [trigger, ...nodes],
	connections: chain('Start', ...nodes.map((node) => node.name)),
});

const keyCredentials = () => ({
	echoKeyApi: { baseUrl: server.baseUrl, apiKey: ECHO_USER.apiKey },
});
const sessionCredentials = () => ({
	echoSessionApi: {
		baseUrl: server.baseUrl,
		username: ECHO_USER.username,
		password: ECHO_USER.password,
		sessionToken: '',
	},
});

describe('engine harness', () => {
	it('runs a manual trigger into a JSON items node', async () => {
		const result = await runWorkflow(
			triggerThen({
				name: 'Items',
				type: 'engine-test.jsonItems',
				parameters: { items: '[{"a":1},{"a":2}]' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.nodeOutput('Items').map((item) => item.json)).toEqual([{ a: 1 }, { a: 2 }]);
	});

	describe('credentials', () => {
		it('applies a generic authenticate (header and query string from $credentials, defaults applied)', async () => {
			const result = await runWorkflow(triggerThen(echo({})), {
				...extraTypes,
				credentials: keyCredentials(),
			});
			expect(result.error).toBeUndefined();
			// `account` was not stored: its property default 'acme' is applied, as n8n does.
			expect(result.nodeOutput('Echo')[0].json).toEqual({
				auth: 'api-key for account acme',
				query: { account: 'acme' },
			});
		});

		it('applies a function authenticate', async () => {
			const result = await runWorkflow(triggerThen(echo({ authentication: 'echoSignedApi' })), {
				...extraTypes,
				credentials: { echoSignedApi: { baseUrl: server.baseUrl, secret: ECHO_USER.secret } },
			});
			expect(result.nodeOutput('Echo')[0].json).toMatchObject({ auth: 'signature' });
		});

		it('runs preAuthentication once and persists the session token across runs', async () => {
			const credentials = sessionCredentials();
			const workflow = triggerThen(echo({ authentication: 'echoSessionApi' }));
			const loginsBefore = server.logins;

			const first = await runWorkflow(workflow, { ...extraTypes, credentials });
			const token = credentials.echoSessionApi.sessionToken;
			expect(token).toMatch(/^session-/);
			expect(first.nodeOutput('Echo')[0].json).toMatchObject({ auth: `session ${token}` });

			const second = await runWorkflow(workflow, { ...extraTypes, credentials });
			expect(second.nodeOutput('Echo')[0].json).toMatchObject({ auth: `session ${token}` });
			expect(server.logins - loginsBefore).toBe(1);
		});

		it('refreshes an expired session on 401 and retries the request', async () => {
			const credentials = sessionCredentials();
			const workflow = triggerThen(echo({ authentication: 'echoSessionApi' }));
			await runWorkflow(workflow, { ...extraTypes, credentials });
			const staleToken = credentials.echoSessionApi.sessionToken;
			server.expireSessions();
			server.requests.length = 0;

			const result = await runWorkflow(workflow, { ...extraTypes, credentials });
			expect(result.error).toBeUndefined();
			const freshToken = credentials.echoSessionApi.sessionToken;
			expect(freshToken).not.toBe(staleToken);
			expect(result.nodeOutput('Echo')[0].json).toMatchObject({ auth: `session ${freshToken}` });
			expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
				'GET /whoami',
				'POST /login',
				'GET /whoami',
			]);
		});
	});

	describe("credential test (the editor's Test button)", () => {
		it('passes with the right key and fails with the HTTP status text otherwise', async () => {
			const ok = await testCredential('echoKeyApi', keyCredentials().echoKeyApi, extraTypes);
			expect(ok).toEqual({ status: 'OK', message: 'Connection successful!' });
			const wrong = await testCredential(
				'echoKeyApi',
				{ baseUrl: server.baseUrl, apiKey: 'nope' },
				extraTypes,
			);
			expect(wrong).toEqual({ status: 'Error', message: 'Unauthorized' });
		});

		it('always runs preAuthentication and saves the new session', async () => {
			const saved = { ...sessionCredentials().echoSessionApi, sessionToken: 'session-stale' };
			const loginsBefore = server.logins;
			expect(await testCredential('echoSessionApi', saved, extraTypes)).toMatchObject({
				status: 'OK',
			});
			expect(server.logins - loginsBefore).toBe(1);
			expect(saved.sessionToken).toBe(`session-${server.logins}`);
		});

		it('applies the rules of the test to the answer', async () => {
			const suspended = { ...keyCredentials().echoKeyApi, account: 'suspended' };
			const result = await testCredential('echoKeyApi', suspended, extraTypes);
			expect(result).toEqual({ status: 'Error', message: 'This account is suspended' });
		});
	});

	it('round-trips binary data through the filesystem store as a stream', async () => {
		const bytes = fixtureBytes(300_000);
		const result = await runWorkflow(
			triggerThen(
				{
					name: 'File',
					type: 'engine-test.binaryFixture',
					parameters: { sizeBytes: bytes.length, fileName: 'f.bin' },
				},
				echo({ operation: 'upload', path: '/files/f.bin' }, { name: 'Upload' }),
				echo({ operation: 'download', path: '/files/f.bin' }, { name: 'Download' }),
			),
			{ ...extraTypes, credentials: keyCredentials() },
		);
		expect(result.error).toBeUndefined();

		const [file] = result.nodeOutput('File');
		expect(file.binary?.data).toMatchObject({ fileName: 'f.bin', bytes: bytes.length });
		expect(file.binary?.data.id).toMatch(/^filesystem-v2:/);
		expect(result.nodeOutput('Upload')[0].json).toMatchObject({
			size: bytes.length,
			sentAs: 'stream',
		});

		const [downloaded] = result.nodeOutput('Download');
		expect(downloaded.binary?.data.id).toMatch(/^filesystem-v2:/);
		expect((await result.readBinary(downloaded)).equals(bytes)).toBe(true);
	});

	describe('errors', () => {
		// NodeApiError's message for a 404; the server's own message becomes the description.
		const NOT_FOUND = 'The resource you are requesting could not be found';
		const threeRequests = (onError: NodeSpec['onError']) =>
			triggerThen(
				{
					name: 'Paths',
					type: 'engine-test.jsonItems',
					parameters: {
						items: JSON.stringify([{ path: '/whoami' }, { path: '/missing' }, { path: '/whoami' }]),
					},
				},
				echo({ path: '={{ $json.path }}' }, { onError }),
			);

		it('stops the execution with a NodeApiError without Continue On Fail', async () => {
			const result = await runWorkflow(threeRequests(undefined), {
				...extraTypes,
				credentials: keyCredentials(),
			});
			// The engine records a plain copy of the error, as n8n stores it with the execution.
			expect(result.error).toMatchObject({
				name: 'NodeApiError',
				httpCode: '404',
				message: NOT_FOUND,
				description: 'No route GET /missing',
				node: { name: 'Echo' },
			});
			expect(result.runData.Echo[0].error?.message).toBe(NOT_FOUND);
		});

		it('continueRegularOutput: an error item paired to the failing input', async () => {
			const result = await runWorkflow(threeRequests('continueRegularOutput'), {
				...extraTypes,
				credentials: keyCredentials(),
			});
			expect(result.error).toBeUndefined();
			const items = result.nodeOutput('Echo');
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(items[1].json.error).toBe(NOT_FOUND);
			expect(items[0].json.error).toBeUndefined();
		});

		it('continueErrorOutput: the failing item goes to the error output, paired', async () => {
			const result = await runWorkflow(threeRequests('continueErrorOutput'), {
				...extraTypes,
				credentials: keyCredentials(),
			});
			expect(result.error).toBeUndefined();
			expect(result.nodeOutput('Echo', 0).map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 2 },
			]);
			const [failed] = result.nodeOutput('Echo', 1);
			expect(failed.pairedItem).toEqual({ item: 1 });
			expect(failed.json.error).toBe(NOT_FOUND);
		});
	});

	it('polls with static data carried from one poll to the next', async () => {
		const workflow: WorkflowSpec = {
			nodes: [{ name: 'Events', type: ECHO_TRIGGER_TYPE, parameters: {} }],
			connections: {},
		};
		const options = { ...extraTypes, credentials: keyCredentials() };

		const first = await runPoll(workflow, options);
		expect(first.items.map((item) => item.json.id)).toEqual([1, 2, 3]);
		expect(first.nodeStaticData).toEqual({ lastId: 3 });
		expect(first.staticData).toEqual({ 'node:Events': { lastId: 3 } });

		const second = await runPoll(workflow, { ...options, staticData: first.staticData });
		expect(second.emitted).toBeNull();
		expect(second.nodeStaticData).toEqual({ lastId: 3 });
	});
});
