// List and load methods whose second request used to fail silently into an empty or shortened list: the DMS
// relation values and field mapper (a related register's listing), the task pickers that read the chosen task,
// and the Storage folder picker (the folder tree). A refused credential or a service down must reach the list
// as n8n's error; only a refusal that means "not for this user / not here" keeps its graceful fallback.
import { httpRequest } from '@n8n/backend-network/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CloudStorage } from '../../../nodes/Storage/CloudStorage.node';
import { CloudStorageDmsTask } from '../../../nodes/DmsTask/CloudStorageDmsTask.node';
import { backoff } from '../../../nodes/shared/transport';

type Answer = { status: number; body: unknown };
const json = (body: unknown, status = 200): Answer => ({ status, body });

/** The service: fixed answers, and per path a scripted one set by each test. */
const fixed: Record<string, Answer> = {
	'/api/authenticate_user.php': json({
		Success: true,
		UserData: { ID: 7, root_upload_hash: 'ROOTH', root_upload_key: 'rootkey' },
	}),
	'/api_v2/get_folder_content': json([{ type: 'folder', name: 'Top', hash: 'h-top' }]),
	'/api_dvs/task/get_fields': json({
		fields: [
			{ name: 'dvs_client_id', label: 'Client', type: 'relation', section: 'client', filter: true },
		],
	}),
	'/api_dvs/task/get_users': json({ users: [{ id: 3, display_name: 'Ann' }] }),
};
let scripted: Record<string, Answer> = {};
let server: Server;
let base = '';

beforeAll(async () => {
	server = createServer((req, res) => {
		req.resume();
		const path = (req.url ?? '').split('?')[0];
		const answer = scripted[path] ?? fixed[path] ?? json({ error: 'no such path' }, 404);
		res.writeHead(answer.status, { 'content-type': 'application/json', connection: 'close' });
		res.end(JSON.stringify(answer.body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
	scripted = {};
	// Reads are retried on 5xx: the back-off is not waited for in real time.
	jest.spyOn(backoff, 'wait').mockResolvedValue(undefined);
});
afterEach(() => jest.restoreAllMocks());

function loadContext(parameters: Record<string, unknown> = {}): ILoadOptionsFunctions {
	const all: Record<string, unknown> = {
		authentication: 'tokenApi',
		resource: 'task',
		...parameters,
	};
	const helper = async (options: never) => await httpRequest(options);
	return {
		getNode: () => ({
			id: 'n',
			name: 'Node',
			type: 'n8n-nodes-cloud-storage.node',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		}),
		getNodeParameter: (name: string, ...rest: unknown[]) => all[name] ?? rest.at(-1),
		getCurrentNodeParameter: (name: string) => all[name],
		getCredentials: async () => ({
			baseUrl: base,
			user: 'demo',
			accessToken: 'tok-secret',
			sessionId: 'sess-1',
		}),
		helpers: {
			httpRequest: helper,
			httpRequestWithAuthentication: async (_type: string, options: never) => await helper(options),
		},
	} as unknown as ILoadOptionsFunctions;
}

type Method = (this: ILoadOptionsFunctions, ...args: unknown[]) => Promise<unknown>;
const storage = new CloudStorage().methods;
const dms = new CloudStorageDmsTask().methods;
const call = async (method: unknown, parameters?: Record<string, unknown>) =>
	await (method as Method).call(loadContext(parameters), '');

async function failureOf(method: unknown, parameters?: Record<string, unknown>, described = true) {
	const error = (await call(method, parameters).then(
		(value) => {
			throw new Error(`answered instead of failing: ${JSON.stringify(value)}`);
		},
		(failure: unknown) => failure,
	)) as Error & { description?: string };
	expect(error instanceof NodeApiError || error instanceof NodeOperationError).toBe(true);
	if (described) expect(error.description).toMatch(/\w/);
	return error.message;
}

describe('DMS: Filter values of a relation field', () => {
	const filterField = { '&field': 'dvs_client_id' };

	it('lists the related register', async () => {
		scripted['/api_dvs/client/get_documents'] = json({
			items: [{ dvs_document_id: 9, name: 'Acme' }],
			total: 1,
		});
		expect(await call(dms.loadOptions.getFilterValues, filterField)).toEqual([
			{ name: 'Acme (9)', value: 9 },
		]);
	});

	it.each([401, 405, 500])('shows a %s of the related register as the error', async (status) => {
		scripted['/api_dvs/client/get_documents'] = json({ error: 'refused' }, status);
		expect(await failureOf(dms.loadOptions.getFilterValues, filterField)).toMatch(String(status));
	});
});

describe('DMS: field mapper with a relation field', () => {
	const mapped = async () =>
		(await call(dms.resourceMapping.getCreateFields)) as {
			fields: Array<{ id: string; options?: unknown }>;
		};

	it('shows a 401 or 500 of the related register as the error', async () => {
		for (const status of [401, 500]) {
			scripted['/api_dvs/client/get_documents'] = json({ error: 'refused' }, status);
			expect(await failureOf(dms.resourceMapping.getCreateFields)).toMatch(String(status));
		}
	});

	it('lets a register this user may not read (405) take IDs, as before', async () => {
		scripted['/api_dvs/client/get_documents'] = json({ error: 'no permission' }, 405);
		const { fields } = await mapped();
		expect(fields.find((field) => field.id === 'dvs_client_id')).toBeDefined();
	});
});

describe('DMS: pickers that read the chosen task', () => {
	const chosen = { documentId: '5' };

	it("Mention users: lists the workers of the task's project", async () => {
		scripted['/api_dvs/task/get_document'] = json({
			dvs_document_id: 5,
			dvs_project_id: { id: 2 },
		});
		expect(await call(dms.loadOptions.getMentionUsers, chosen)).toEqual([
			{ name: 'Ann', value: 3 },
		]);
	});

	it.each([
		[401, /401/],
		[500, /500/],
		[405, /^No task with ID 5 was found$/],
	])('Mention users: a %s reading the task is shown', async (status, said) => {
		scripted['/api_dvs/task/get_document'] = json({ error: 'refused' }, status);
		expect(await failureOf(dms.loadOptions.getMentionUsers, chosen)).toMatch(said);
	});

	it.each([401, 500])('Update fields: a %s reading the task is shown', async (status) => {
		scripted['/api_dvs/task/get_document'] = json({ error: 'refused' }, status);
		scripted['/api_dvs/client/get_documents'] = json({ items: [], total: 0 });
		expect(await failureOf(dms.resourceMapping.getUpdateFields, chosen)).toMatch(String(status));
	});
});

describe('Storage: folder picker', () => {
	const names = async () =>
		(
			(await call(storage.listSearch.searchFolders)) as { results: Array<{ name: string }> }
		).results.map((result) => result.name);

	it('lists every folder of the tree', async () => {
		scripted['/api/get_upload_tree.php'] = json({
			error: null,
			data: {
				Type: 'folder',
				Hash: 'ROOTH',
				Children: [{ Type: 'folder', Name: 'Deep', Hash: 'h-deep', Children: [] }],
			},
		});
		expect(await names()).toEqual(['ROOT', 'Deep']);
	});

	it.each([
		[404, 'the script is not there'],
		[403, 'the tree is refused'],
	])('falls back to the top-level folders when the tree answers %s (%s)', async (status) => {
		scripted['/api/get_upload_tree.php'] = json({ error: 'refused' }, status);
		expect(await names()).toEqual(['ROOT', 'Top']);
	});

	it('falls back when the service refuses the tree in its body', async () => {
		scripted['/api/get_upload_tree.php'] = json({ error: 'no edit key', data: null });
		expect(await names()).toEqual(['ROOT', 'Top']);
	});

	it.each([401, 500])(
		'shows a %s of the tree as the error, not a shortened list',
		async (status) => {
			scripted['/api/get_upload_tree.php'] = json({ error: 'refused' }, status);
			// The tree is a session call: its 401 is left to n8n's helper (which logs in again and words it),
			// so the stand-in helper here hands back a bare 401.
			expect(await failureOf(storage.listSearch.searchFolders, undefined, status !== 401)).toMatch(
				String(status),
			);
		},
	);
});
