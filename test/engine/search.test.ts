/**
 * The Search node through n8n's engine against the sandbox: both request styles, sections, types,
 * criteria, sorting, paging over 2,500 results, the session renewed after it expired, `status: error`
 * answers, the free (non-subscriber) account, and bad input refused before any request.
 */
import { DEMO_ACCOUNT, FREE_ACCOUNT, startSandbox } from '../sandbox/server';
import { createFolder, uploadOk, type CreatedFolder } from '../unit/sandbox/helpers';
import { chain, type NodeSpec, PACKAGE_NAME, runWorkflow } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let invoices: CreatedFolder;
let y2026: CreatedFolder;

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
const tokenCredentials = (account: { username: string; token: string } = DEMO_ACCOUNT) => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: account.username,
		accessToken: account.token,
	},
});

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	invoices = await createFolder(sandbox, { folder_name: 'Invoices' });
	y2026 = await createFolder(sandbox, {
		folder_name: '2026',
		parent_folder_hash: invoices.folder_hash,
	});
	await uploadOk(sandbox, invoices.folder_hash, 'invoice january.pdf', '%PDF-1.7 january');
	await uploadOk(
		sandbox,
		y2026.folder_hash,
		'invoice march.pdf',
		'%PDF-1.7 march, a little longer',
	);
	await uploadOk(sandbox, y2026.folder_hash, 'invoice scan.png', 'png');
	await uploadOk(sandbox, invoices.folder_hash, 'notes.txt', 'no match');
});
afterAll(async () => await sandbox?.close());

async function search(
	parameters: NodeSpec['parameters'],
	credentials: object = tokenCredentials(),
) {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{
			name: 'Search',
			type: `${PACKAGE_NAME}.cloudStorageSearch`,
			parameters: { resource: 'item', ...parameters },
		},
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'Search') },
		{ credentials: credentials as never },
	);
	return { items: result.nodeOutput('Search').map((item) => item.json), error: result.error };
}

const searchRequests = () =>
	sandbox.requests.list().filter((request) => request.path === '/ajax/search.php');

describe('Search (simple style)', () => {
	it('finds files and folders in the whole account with the documented fields and links', async () => {
		const { items, error } = await search({
			operation: 'search',
			query: 'invoice',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.name).sort()).toEqual([
			'Invoices',
			'invoice january.pdf',
			'invoice march.pdf',
			'invoice scan.png',
		]);
		const march = items.find((item) => item.name === 'invoice march.pdf')!;
		expect(march).toMatchObject({
			type: 'file',
			path: '/Invoices/2026/invoice march.pdf',
			parent_hash: y2026.folder_hash,
			content_type: 'application/pdf',
			public_access_type: 'PRIVATE',
			access_rights: null,
			link: `${sandbox.webUrl}/f/${march.hash}`,
		});
		expect(items.find((item) => item.type === 'folder')!.link).toBe(
			`${sandbox.webUrl}/u/${invoices.folder_hash}`,
		);
	});

	it('searches one folder with or without its subfolders, with the password credential', async () => {
		const credentials = {
			cloudStoragePasswordApi: {
				baseUrl: sandbox.baseUrl,
				webUrl: sandbox.webUrl,
				user: DEMO_ACCOUNT.username,
				password: DEMO_ACCOUNT.password,
			},
		};
		const base = {
			authentication: 'passwordApi',
			operation: 'search',
			query: 'invoice',
			folder: rl(invoices.folder_hash),
			returnAll: true,
		};
		const deep = await search(base, credentials);
		expect(deep.error).toBeUndefined();
		expect(deep.items).toHaveLength(3);
		const flat = await search({ ...base, noSubfolders: true }, credentials);
		expect(flat.items.map((item) => item.name)).toEqual(['invoice january.pdf']);
	});

	it('sorts by name ascending and adds access rights on request', async () => {
		const { items } = await search({
			operation: 'search',
			query: 'invoice',
			returnAll: true,
			options: { sortBy: 'name', sortDirection: 'ascending', accessRights: true },
		});
		expect(items.map((item) => String(item.name).toLowerCase())).toEqual([
			'invoice january.pdf',
			'invoice march.pdf',
			'invoice scan.png',
			'invoices',
		]);
		expect(items[0].access_rights).toMatchObject({ allow_view: true });
	});
});

describe('Search (full style)', () => {
	it('filters by type and searches This Folder without subfolders', async () => {
		const images = await search({
			operation: 'fullSearch',
			query: 'invoice',
			types: ['IMAGES'],
			sections: ['MY'],
			returnAll: true,
		});
		expect(images.items.map((item) => item.name)).toEqual(['invoice scan.png']);
		const here = await search({
			operation: 'fullSearch',
			query: 'invoice',
			sections: ['THIS_FOLDER'],
			thisFolder: rl(y2026.folder_hash),
			types: ['DOCUMENTS'],
			returnAll: true,
		});
		expect(here.error).toBeUndefined();
		expect(here.items.map((item) => item.name)).toEqual(['invoice march.pdf']);
	});

	it('combines criteria rows with AND / OR in advanced mode', async () => {
		const rows = [
			{ field: 'EXTENSION', operator: 'EQUALS', query: 'pdf' },
			{ field: 'SIZE', operator: 'GREATER', query: '20' },
		];
		const both = await search({
			operation: 'fullSearch',
			mode: 'advanced',
			sections: ['MY'],
			operator: 'AND',
			criteria: { rows },
			returnAll: true,
		});
		expect(both.error).toBeUndefined();
		expect(both.items.map((item) => item.name)).toEqual(['invoice march.pdf']);
		const either = await search({
			operation: 'fullSearch',
			mode: 'advanced',
			types: ['FILES'],
			sections: ['MY'],
			operator: 'OR',
			criteria: { rows },
			returnAll: true,
		});
		expect(either.items.map((item) => item.name).sort()).toEqual([
			'invoice january.pdf',
			'invoice march.pdf',
		]);
	});

	it('sends a raw search JSON and turns a `status: error` answer into a clear error', async () => {
		const raw = await search({
			operation: 'fullSearch',
			defineSearch: 'json',
			searchJson: JSON.stringify({
				Mode: 'simple',
				Query: 'scan',
				Types: {},
				Sections: { MY: true },
			}),
			returnAll: true,
		});
		expect(raw.items.map((item) => item.name)).toEqual(['invoice scan.png']);
		const refused = await search({
			operation: 'fullSearch',
			defineSearch: 'json',
			searchJson: JSON.stringify({
				Mode: 'advanced',
				Sections: { MY: true },
				Operator: 'AND',
				Criteria: [{ Field: 'COLOUR', Operator: 'EQUALS', Query: 'red' }],
			}),
		});
		expect(refused.error?.message).toMatch(
			/^The search was refused: Criteria Field must be one of/,
		);
		expect(refused.error?.name).toBe('NodeApiError');
	});

	it('refuses bad input before any request', async () => {
		sandbox.requests.clear();
		const short = await search({ operation: 'search', query: 'x' });
		expect(short.error?.message).toMatch(/too short/);
		const noSection = await search({ operation: 'fullSearch', query: 'invoice', sections: [] });
		expect(noSection.error?.message).toBe('Choose at least one section to search');
		const noFolder = await search({
			operation: 'fullSearch',
			query: 'invoice',
			sections: ['THIS_FOLDER'],
		});
		expect(noFolder.error?.message).toBe('The section "This Folder" needs a folder');
		const malformed = await search({
			operation: 'fullSearch',
			defineSearch: 'json',
			searchJson: '{"Mode": "simple",',
		});
		expect(malformed.error?.message).toBe('The search JSON is not valid JSON');
		expect(sandbox.requests.list()).toEqual([]);
	});
});

describe('Search sessions and accounts', () => {
	it('renews an expired session once and repeats the search', async () => {
		const credentials = tokenCredentials();
		const first = await search(
			{ operation: 'search', query: 'march', returnAll: true },
			credentials,
		);
		expect(first.items).toHaveLength(1);
		const session = credentials.cloudStorageTokenApi as { sessionId?: string };
		const oldSession = session.sessionId;
		expect(oldSession).toBeTruthy();
		sandbox.sessions.expireAll();
		sandbox.requests.clear();
		const again = await search(
			{ operation: 'search', query: 'march', returnAll: true },
			credentials,
		);
		expect(again.error).toBeUndefined();
		expect(again.items).toHaveLength(1);
		expect(sandbox.requests.list().map((request) => `${request.path} ${request.status}`)).toEqual([
			'/ajax/search.php 401',
			'/api/authenticate_user.php 200',
			'/ajax/search.php 200',
		]);
		expect(session.sessionId).not.toBe(oldSession);
		expect(searchRequests().every((request) => request.credentialsInUrl.length === 0)).toBe(true);
	});

	it('renews a session whose expiry the search answered with status "error" and HTTP 200', async () => {
		sandbox.config.searchSessionErrorStatus = 200;
		try {
			const credentials = tokenCredentials();
			expect(
				(await search({ operation: 'search', query: 'march', returnAll: true }, credentials)).items,
			).toHaveLength(1);
			sandbox.sessions.expireAll();
			sandbox.requests.clear();
			const again = await search(
				{ operation: 'search', query: 'march', returnAll: true },
				credentials,
			);
			expect(again.error).toBeUndefined();
			expect(again.items).toHaveLength(1);
			expect(sandbox.requests.list().map((request) => `${request.path} ${request.status}`)).toEqual(
				['/ajax/search.php 200', '/api/authenticate_user.php 200', '/ajax/search.php 200'],
			);
		} finally {
			sandbox.config.searchSessionErrorStatus = 401;
		}
	});

	it('works for a non-subscriber (free) account', async () => {
		const folder = await createFolder(
			sandbox,
			{ folder_name: 'Free docs' },
			{ user: FREE_ACCOUNT.username, user_access_token: FREE_ACCOUNT.token },
		);
		await uploadOk(sandbox, folder.folder_hash, 'contract draft.txt', 'free', {
			user: FREE_ACCOUNT.username,
			user_access_token: FREE_ACCOUNT.token,
		});
		const { items, error } = await search(
			{ operation: 'search', query: 'contract', returnAll: true },
			tokenCredentials(FREE_ACCOUNT),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.name)).toEqual(['contract draft.txt']);
	});
});

describe('Search paging', () => {
	it('returns each of 2,500 results exactly once, whatever the page size, and honours Limit', async () => {
		const owner = sandbox.store.accountByLogin(DEMO_ACCOUNT.username)!;
		const bulk = sandbox.store.bulkCreate(owner, {
			folders: 5,
			filesPerFolder: 500,
			folderPrefix: 'Paging ',
			filePrefix: 'pagedoc ',
		});
		const expected = bulk.files.map((file) => file.hash).sort();
		expect(expected).toHaveLength(2500);

		sandbox.requests.clear();
		const all = await search({ operation: 'search', query: 'pagedoc', returnAll: true });
		expect(all.error).toBeUndefined();
		expect(all.items.map((item) => String(item.hash)).sort()).toEqual(expected);
		expect(searchRequests()).toHaveLength(3);

		const small = await search({
			operation: 'search',
			query: 'pagedoc',
			returnAll: true,
			options: { pageSize: 300, sortBy: 'name', sortDirection: 'ascending' },
		});
		const hashes = small.items.map((item) => String(item.hash));
		expect(new Set(hashes).size).toBe(2500);
		expect(hashes.slice().sort()).toEqual(expected);

		sandbox.requests.clear();
		const limited = await search({
			operation: 'search',
			query: 'pagedoc',
			returnAll: false,
			limit: 1234,
			options: { pageSize: 500 },
		});
		expect(limited.items).toHaveLength(1234);
		expect(new Set(limited.items.map((item) => item.hash)).size).toBe(1234);
		expect(searchRequests()).toHaveLength(3);
	}, 60_000);
});
