/**
 * The Storage node behind a proxy, through n8n's engine against the sandbox: with HTTP_PROXY set (the sandbox
 * is plain http on loopback, which n8n's proxy rule does not exempt), its calls go through the proxy
 * (`test/unit/transport/proxy-fixture.ts`, a forwarding proxy on loopback that counts what passed), reads over
 * one kept connection to it, each write on a connection of its own.
 */
import { startSandbox } from '../sandbox/server';
import { startProxy, type ProxyFixture } from '../unit/transport/proxy-fixture';
import { chain, PACKAGE_NAME, runWorkflow } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let proxy: ProxyFixture;

const VARIABLES = [
	'HTTP_PROXY',
	'http_proxy',
	'HTTPS_PROXY',
	'https_proxy',
	'ALL_PROXY',
	'all_proxy',
	'NO_PROXY',
	'no_proxy',
	// `npm run` hands npm's own settings on, and n8n's proxy rule reads them first.
	'npm_config_http_proxy',
	'npm_config_https_proxy',
	'npm_config_proxy',
	'npm_config_no_proxy',
];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	proxy = await startProxy();
	for (const name of VARIABLES) delete process.env[name];
	process.env.HTTP_PROXY = proxy.url;
});
afterAll(async () => {
	for (const [name, value] of Object.entries(saved))
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	await proxy?.close();
	await sandbox?.close();
});

const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: 'demo',
		accessToken: 'demo-token-0123456789abcdef',
	},
});

it('sends the Get File Info items of a run through the proxy over one connection, and each write on its own', async () => {
	const store = sandbox.store;
	const demo = store.accountByLogin('demo')!;
	const folder = store.createFolder(
		demo,
		store.rootOf(demo),
		`behind proxy ${Date.now()}`,
		'PRIVATE',
	);
	const hashes = store
		.bulkCreate(demo, { folders: 0, filesPerFolder: 4, parent: folder })
		.files.map((file) => file.hash);
	const result = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
				{
					name: 'Items',
					type: 'engine-test.jsonItems',
					parameters: { items: hashes.map((hash, index) => ({ hash, name: `renamed ${index}` })) },
				},
				{
					name: 'Get',
					type: `${PACKAGE_NAME}.cloudStorage`,
					parameters: {
						authentication: 'tokenApi',
						resource: 'file',
						operation: 'get',
						file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
					},
				},
			],
			connections: chain('Start', 'Items', 'Get'),
		},
		{ credentials: credentials() },
	);
	expect(result.error).toBeUndefined();
	expect(result.nodeOutput('Get').map((item) => item.json.hash)).toEqual(hashes);
	expect(proxy.forwarded.map((request) => request.url)).toEqual(
		Array(4).fill(`${sandbox.baseUrl}/api_v2/get_file_info`),
	);
	expect(proxy.connections()).toBe(1);
	expect(proxy.tunnels).toEqual([]);

	proxy.reset();
	const created = await runWorkflow(
		{
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
				{
					name: 'Items',
					type: 'engine-test.jsonItems',
					parameters: { items: [{ name: 'behind proxy A' }, { name: 'behind proxy B' }] },
				},
				{
					name: 'Create Folder',
					type: `${PACKAGE_NAME}.cloudStorage`,
					parameters: {
						authentication: 'tokenApi',
						resource: 'folder',
						operation: 'create',
						parentFolder: { __rl: true, mode: 'id', value: folder.hash },
						name: '={{ $json.name }}',
						options: { accessType: 'PRIVATE' },
					},
				},
			],
			connections: chain('Start', 'Items', 'Create Folder'),
		},
		{ credentials: credentials() },
	);
	expect(created.error).toBeUndefined();
	const writes = proxy.forwarded.filter((request) => request.connection === 'close');
	expect(writes.length).toBeGreaterThanOrEqual(2);
	// Each write came on a connection of its own.
	expect(new Set(writes.map((request) => request.on)).size).toBe(writes.length);
	expect(
		store.siblingFolderNames(folder.id, -1).filter((name) => name.startsWith('behind proxy')),
	).toEqual(['behind proxy A', 'behind proxy B']);
});
