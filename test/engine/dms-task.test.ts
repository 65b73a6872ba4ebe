/**
 * DMS Task and Contact Person nodes through n8n's engine against the sandbox: field-driven create and
 * update, filters and paging, comments with mentions, and the input errors that must stop before a request.
 */
import timers from 'node:timers/promises';

import { DEMO_ACCOUNT, startSandbox, TASKS_ACCOUNT } from '../sandbox/server';
import { DMS_SEED, dmsOf } from '../sandbox/dms/state';
import { chain, type NodeSpec, PACKAGE_NAME, runWorkflow } from './harness';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox({ port: 0 })));
afterAll(async () => await sandbox?.close());
beforeEach(() => sandbox.reset());

const TASK = `${PACKAGE_NAME}.cloudStorageDmsTask`;
const CONTACT = `${PACKAGE_NAME}.cloudStorageContactPerson`;
const { users, projects, contacts, clients, tasks } = DMS_SEED;
const id = (value: number | string) => ({ __rl: true, mode: 'id', value: String(value) });
const mapped = (value: Record<string, unknown>) =>
	({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] }) as never;

async function run(
	type: string,
	parameters: NodeSpec['parameters'],
	extra: Partial<NodeSpec> = {},
	account: { username: string; token: string } = DEMO_ACCOUNT,
) {
	const nodes: NodeSpec[] = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'DMS', type, parameters, ...extra },
	];
	const credentials = {
		cloudStorageTokenApi: {
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			user: account.username,
			accessToken: account.token,
		},
	};
	const result = await runWorkflow({ nodes, connections: chain('Start', 'DMS') }, { credentials });
	return { ...result, out: result.nodeOutput('DMS') };
}

const dmsRequests = () => sandbox.requests.list().filter((entry) => entry.api === 'dms');
const org = () => dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!;

/** Resolves when the sandbox holds a task of that name (a late write landing), checked every 50 ms. */
async function waitForTask(name: string): Promise<void> {
	while (![...org().documents.values()].some((doc) => doc.values.name === name))
		await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('DMS Task node', () => {
	it('creates a task with every field type given by names, ids and lists, and reads it back', async () => {
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'create',
			project: id(projects.website),
			fields: mapped({
				name: 'Write release notes',
				description: '<p>For <b>2.0</b></p>',
				dropdown_type: 'Feature',
				dropdown_priority: 23,
				dropdown_status: 'in progress',
				multi_dropdown_labels: 'Backend, 43',
				responsible: 'Alice Archer',
				followers: `${users.bob}, Demo User`,
				ext_notif_receiver: String(contacts.erin),
				date_due: '2026-05-31',
				estimated_hours: '3,5',
			}),
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			name: 'Write release notes',
			description: '<p>For <b>2.0</b></p>',
			dvs_project_id: { id: projects.website, display_name: 'Website relaunch' },
			dropdown_type: { id: 12 },
			dropdown_priority: { id: 23 },
			dropdown_status: { id: 32 },
			multi_dropdown_labels: [{ id: 41 }, { id: 43 }],
			responsible: { id: users.alice },
			followers: [{ id: users.bob }, { id: users.demo }],
			ext_notif_receiver: [{ id: contacts.erin }],
			date_due: '2026-05-31',
			estimated_hours: '3.5',
		});
		// Credentials travelled in the JSON body only.
		expect(
			dmsRequests().every(
				(entry) => entry.credentialsInUrl.length === 0 && entry.authMethod === 'token:ok',
			),
		).toBe(true);
		const notification = org().notifications.find((entry) => entry.event === 'task_created');
		expect(notification?.recipients.map((entry) => entry.email).sort()).toEqual([
			'bob@example.com',
			'erin@acme.example',
		]);
	});

	it.each([
		[{ name: 'x', estimated_hours: 'two' }, /Estimated hours must be a number/],
		[{ dropdown_status: 'Blocked', name: 'x' }, /Unknown option "Blocked" for Status/],
		[
			{ name: 'x', responsible: users.carol },
			/Unknown user \(not a worker of this project\) "2003" for Responsible/,
		],
		[{ name: 'x', ext_notif_receiver: '999' }, /Unknown contact person 999 for External followers/],
		[{ name: 'x', date_due: '31.05.2026' }, /Due date must be a date as YYYY-MM-DD/],
		[{ dropdown_priority: 22 }, /Missing required field: Name/],
		[{ name: 'x', unknown_field: 'y' }, /The field "unknown_field" is not declared/],
	])('refuses %j before any write', async (fields, message) => {
		const { error } = await run(TASK, {
			resource: 'task',
			operation: 'create',
			project: id(projects.website),
			fields: mapped(fields),
		});
		expect(error?.message).toMatch(message);
		expect(dmsRequests().filter((entry) => entry.action === 'create_document')).toHaveLength(0);
	});

	it('refuses an invalid project id without any request', async () => {
		const { error } = await run(TASK, {
			resource: 'task',
			operation: 'create',
			project: id('={{ "abc" }}'),
			fields: mapped({ name: 'x' }),
		});
		expect(error?.message).toMatch(/project ID must be a positive whole number/);
		expect(dmsRequests()).toHaveLength(0);
	});

	it('updates partially, replaces lists, clears fields and refuses to change the project before any request', async () => {
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'update',
			documentId: id(tasks.first),
			fields: mapped({ dropdown_status: 'Done', followers: String(users.alice) }),
			clearFields: ['date_due'],
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			name: 'Draft the sitemap',
			dropdown_status: { id: 33 },
			followers: [{ id: users.alice }],
			date_due: null,
			responsible: { id: users.alice },
		});
		sandbox.requests.clear();
		const refused = await run(TASK, {
			resource: 'task',
			operation: 'update',
			documentId: id(tasks.first),
			fields: mapped({ dvs_project_id: projects.audit }),
		});
		expect(refused.error?.message).toMatch(/project of a task cannot be changed/);
		expect(dmsRequests()).toHaveLength(0);
	});

	it('gets many with filters (OR within a field, AND across), newest first, with full documents on request', async () => {
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'getAll',
			returnAll: true,
			filters: {
				conditions: [
					{ field: 'dvs_project_id', values: [projects.website] },
					{ field: 'dropdown_status', values: ['Open', 'In progress'] },
					{ field: 'dropdown_status', values: [33] },
				],
			},
			options: { fullDocuments: true },
		});
		expect(error).toBeUndefined();
		expect(out.map((item) => item.json.dvs_document_id)).toEqual([tasks.third, tasks.first]);
		expect(out[1].json.description).toBe('<p>All <i>pages</i></p>');
	});

	it('refuses a filter on a field that is not filterable', async () => {
		const { error } = await run(TASK, {
			resource: 'task',
			operation: 'getAll',
			filters: { conditions: [{ field: 'name', values: 'x' }] },
		});
		expect(error?.message).toMatch(/"name" cannot be used as a filter/);
		expect(error?.description).toMatch(/Status \(dropdown_status\)/);
	});

	it('pages through 450 tasks with limit 200 (sequential and with parallel requests)', async () => {
		dmsOf(sandbox.store).bulkCreateTasks(org(), 447, projects.audit, users.demo);
		for (const concurrency of [1, 3]) {
			sandbox.requests.clear();
			const { out, error } = await run(TASK, {
				resource: 'task',
				operation: 'getAll',
				returnAll: true,
				options: { concurrency },
			});
			expect(error).toBeUndefined();
			expect(out).toHaveLength(450);
			expect(new Set(out.map((item) => item.json.dvs_document_id)).size).toBe(450);
			expect(out[0].json.name).toBe('Bulk task 447');
			expect(out[449].json.name).toBe('Draft the sitemap');
			expect(dmsRequests().filter((entry) => entry.action === 'get_documents')).toHaveLength(3);
		}
		const limited = await run(TASK, {
			resource: 'task',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
		});
		expect(limited.out).toHaveLength(5);
	});

	it('adds a comment with mentions: stored escaped, mention e-mail even to a non-worker', async () => {
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'addComment',
			documentId: id(tasks.second),
			comment: 'Please check <script>this</script>',
			mentions: [users.carol],
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			comment: `@[USER:${users.carol}] Please check <script>this</script>`,
		});
		expect(org().comments[0].text).toBe(
			`@[USER:${users.carol}] Please check &lt;script&gt;this&lt;/script&gt;`,
		);
		expect(org().notifications.find((entry) => entry.event === 'mention')?.recipients).toEqual([
			{ kind: 'user', id: users.carol, email: 'carol@example.com' },
		]);
		// Typed mentions go through unchecked: an ID outside the organisation stays plain text, mentioning nobody.
		const before = org().notifications.filter((entry) => entry.event === 'mention').length;
		const unknown = await run(TASK, {
			resource: 'task',
			operation: 'addComment',
			documentId: id(tasks.second),
			comment: 'hi @[USER:4242]',
		});
		expect(unknown.error).toBeUndefined();
		expect(org().notifications.filter((entry) => entry.event === 'mention')).toHaveLength(before);
	});

	it('lists project users, fields, projects and clients', async () => {
		const users_ = await run(TASK, {
			resource: 'task',
			operation: 'getUsers',
			project: id(projects.audit),
		});
		expect(users_.out.map((item) => item.json.id)).toEqual([users.demo, users.bob]);
		const fields = await run(TASK, { resource: 'task', operation: 'getFields' });
		expect(new Set(fields.out.map((item) => item.json.type))).toEqual(
			new Set([
				'text',
				'date',
				'html',
				'dropdown',
				'dropdown_ids',
				'relation',
				'relation_ids',
				'user_id',
				'user_ids',
			]),
		);
		const project = await run(TASK, {
			resource: 'project',
			operation: 'get',
			documentId: id(projects.website),
		});
		expect(project.out[0].json).toMatchObject({
			name: 'Website relaunch',
			client: { id: clients.acme },
		});
		const clientList = await run(TASK, {
			resource: 'client',
			operation: 'getAll',
			returnAll: true,
			filters: { conditions: [{ field: 'dropdown_client_type', values: ['Public body'] }] },
		});
		expect(clientList.out.map((item) => item.json.name)).toEqual(['Globex']);
	});

	it('reports a missing task as not found', async () => {
		const { error } = await run(TASK, {
			resource: 'task',
			operation: 'get',
			documentId: id(99999),
		});
		expect(error?.message).toMatch(/No task with ID 99999 was found/);
	});
});

describe('a user whose group may write tasks only', () => {
	const asTasksUser = async (parameters: NodeSpec['parameters']) =>
		await run(TASK, parameters, {}, TASKS_ACCOUNT);

	it('creates a task: the project check is skipped (projects answer 405), never "Unknown project"', async () => {
		const { out, error } = await asTasksUser({
			resource: 'task',
			operation: 'create',
			project: id(projects.website),
			fields: mapped({ name: 'Mine', responsible: 'Bob Baker', followers: String(users.alice) }),
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			name: 'Mine',
			dvs_project_id: { id: projects.website },
			responsible: { id: users.bob },
			creator: { id: users.tasks },
		});
		expect(dmsRequests().some((entry) => entry.action === 'create_document')).toBe(true);
	});

	it("lets the service's 400 speak for a project it could not check, naming the field", async () => {
		const { error } = await asTasksUser({
			resource: 'task',
			operation: 'create',
			project: id(999),
			fields: mapped({ name: 'Mine' }),
		});
		expect(error?.message).toBe(
			'The service refused the values (400): check Project (dvs_project_id) = 999',
		);
		expect(error?.description).toMatch(/may not read the registers/);
	});

	it('updates a task, external followers unchecked (contact persons answer 405)', async () => {
		const { out, error } = await asTasksUser({
			resource: 'task',
			operation: 'update',
			documentId: id(tasks.third),
			fields: mapped({ dropdown_status: 'Done', ext_notif_receiver: String(contacts.frank) }),
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			dropdown_status: { id: 33 },
			ext_notif_receiver: [{ id: contacts.frank }],
		});
	});

	it('adds a comment with a mention, without reading any user list', async () => {
		const { error } = await asTasksUser({
			resource: 'task',
			operation: 'addComment',
			documentId: id(tasks.first),
			comment: `Ping @[USER:${users.carol}]`,
			mentions: [users.alice],
		});
		expect(error).toBeUndefined();
		expect(dmsRequests().map((entry) => entry.action)).toEqual(['add_comment']);
		expect(
			org()
				.notifications.filter((entry) => entry.event === 'mention')
				.flatMap((entry) => entry.recipients.map((recipient) => recipient.id))
				.sort(),
		).toEqual([users.alice, users.carol].sort());
	});
});

describe('Contact Person node', () => {
	it('creates, updates and lists contact persons filtered by company and group', async () => {
		const created = await run(CONTACT, {
			resource: 'contactPerson',
			operation: 'create',
			fields: mapped({
				name: 'Gina Guest',
				email: 'gina@acme.example',
				company: clients.acme,
				multi_dropdown_group: 'Press',
				date_birthday: '1990-02-03',
			}),
		});
		expect(created.error).toBeUndefined();
		const newId = created.out[0].json.dvs_document_id as number;
		expect(created.out[0].json).toMatchObject({
			company: { id: clients.acme, display_name: 'Acme Corp' },
			multi_dropdown_group: [{ id: 63 }],
		});

		const updated = await run(CONTACT, {
			resource: 'contactPerson',
			operation: 'update',
			documentId: id(newId),
			fields: mapped({ phone: '+49 30 1234' }),
		});
		expect(updated.out[0].json).toMatchObject({ phone: '+49 30 1234', email: 'gina@acme.example' });

		const listed = await run(CONTACT, {
			resource: 'contactPerson',
			operation: 'getAll',
			returnAll: true,
			filters: {
				conditions: [
					{ field: 'company', values: [clients.acme] },
					{ field: 'multi_dropdown_group', values: ['Press', 'Customer'] },
				],
			},
		});
		expect(listed.out.map((item) => item.json.dvs_document_id)).toEqual([newId, contacts.erin]);
	});

	it('names an unknown company before sending', async () => {
		const { error } = await run(CONTACT, {
			resource: 'contactPerson',
			operation: 'create',
			fields: mapped({ name: 'X', company: projects.website }),
		});
		expect(error?.message).toMatch(/Unknown client 11 for Company/);
		expect(dmsRequests().filter((entry) => entry.action === 'create_document')).toHaveLength(0);
	});
});

describe('DMS under faults', () => {
	it('keeps paging with parallel requests through 429s, without losing or duplicating tasks', async () => {
		dmsOf(sandbox.store).bulkCreateTasks(org(), 997, projects.audit, users.demo);
		sandbox.faults.add([
			{ match: { path: 'get_documents' }, fault: '429', times: 3, retryAfter: 0 },
		]);
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'getAll',
			returnAll: true,
			options: { concurrency: 4 },
		});
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1000);
		expect(new Set(out.map((item) => item.json.dvs_document_id)).size).toBe(1000);
		expect(
			dmsRequests().filter((entry) => entry.action === 'get_documents' && entry.status === 200),
		).toHaveLength(5);
	});

	it('proves a create whose answer was lost by the newest tasks of its project: found, not sent twice', async () => {
		sandbox.faults.add([{ match: { path: 'create_document' }, fault: 'drop-after', times: 1 }]);
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'create',
			project: id(projects.audit),
			fields: mapped({ name: 'Lost answer' }),
		});
		expect(error).toBeUndefined();
		expect(out[0].json.name).toBe('Lost answer');
		expect(dmsRequests().filter((entry) => entry.action === 'create_document')).toHaveLength(1);
		expect(
			[...org().documents.values()].filter((doc) => doc.values.name === 'Lost answer'),
		).toHaveLength(1);
	});

	it("never adopts another user's same-title task created while its own create was lost: sends it again", async () => {
		// The create never reaches the service; meanwhile Alice creates a task of the same title in the project.
		sandbox.faults.add([{ match: { path: 'create_document' }, fault: 'drop-before', times: 1 }]);
		const take = sandbox.faults.take.bind(sandbox.faults);
		const spy = jest.spyOn(sandbox.faults, 'take').mockImplementation((target) => {
			const rule = take(target);
			if (rule?.fault === 'drop-before')
				dmsOf(sandbox.store).insert(org(), {
					section: 'task',
					values: { dvs_project_id: projects.audit, name: 'Same title', followers: [] },
					creatorId: users.alice,
				});
			return rule;
		});
		try {
			const { out, error } = await run(TASK, {
				resource: 'task',
				operation: 'create',
				project: id(projects.audit),
				fields: mapped({ name: 'Same title' }),
			});
			expect(error).toBeUndefined();
			expect(out[0].json).toMatchObject({
				name: 'Same title',
				creator: { id: users.demo },
				outcome: 'applied',
			});
			expect(dmsRequests().filter((entry) => entry.action === 'create_document')).toHaveLength(2);
			const titled = [...org().documents.values()].filter(
				(doc) => doc.values.name === 'Same title',
			);
			expect(titled.map((doc) => doc.creatorId).sort()).toEqual([users.demo, users.alice].sort());
		} finally {
			spy.mockRestore();
		}
	});

	it('a create the service applies only after the Timeout ended: "may have been applied", never sent again', async () => {
		// The sandbox's `slow` wait for this create lasts until the node is done with it (its Timeout, the pause
		// and both looks), not for a span of wall-clock time a loaded machine could outlast.
		const HELD_MS = 20_000;
		let land!: () => void;
		const landing = new Promise<void>((resolve) => (land = resolve));
		const sleep = timers.setTimeout;
		const held = jest
			.spyOn(timers, 'setTimeout')
			.mockImplementation(((ms?: number, ...rest: []) =>
				ms === HELD_MS ? landing : sleep(ms, ...rest)) as typeof timers.setTimeout);
		try {
			sandbox.faults.add([
				{ match: { path: 'create_document' }, fault: 'slow', delayMs: HELD_MS, times: 1 },
			]);
			const { out, error } = await run(
				TASK,
				{
					resource: 'task',
					operation: 'create',
					project: id(projects.audit),
					fields: mapped({ name: 'Slow create' }),
					requestOptions: { timeout: 1 },
				},
				{ onError: 'continueRegularOutput' },
			);
			expect(error).toBeUndefined();
			expect(String(out[0].json.error)).toMatch(
				/^The write may have been applied: the task create timed out/,
			);
		} finally {
			land();
			held.mockRestore();
		}
		await waitForTask('Slow create');
		expect(dmsRequests().filter((entry) => entry.action === 'create_document')).toHaveLength(1);
		expect(
			[...org().documents.values()].filter((doc) => doc.values.name === 'Slow create'),
		).toHaveLength(1);
	}, 60_000);

	it('reconciles an update whose answer was lost instead of sending it again', async () => {
		sandbox.faults.add([{ match: { path: 'update_document' }, fault: 'drop-after', times: 1 }]);
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'update',
			documentId: id(tasks.second),
			fields: mapped({ dropdown_status: 'Done' }),
		});
		expect(error).toBeUndefined();
		expect(out[0].json.dropdown_status).toEqual({ id: 33, display_name: 'Done' });
		expect(dmsRequests().filter((entry) => entry.action === 'update_document')).toHaveLength(1);
	});
});

describe('with the schema the editor saves', () => {
	it('accepts option values and list expressions after n8n validates the mapper against its schema', async () => {
		const schema = [
			{
				id: 'name',
				displayName: 'Name',
				required: true,
				defaultMatch: false,
				display: true,
				type: 'string',
			},
			{
				id: 'dropdown_status',
				displayName: 'Status',
				required: false,
				defaultMatch: false,
				display: true,
				type: 'options',
				options: [
					{ name: 'Open', value: 31 },
					{ name: 'Done', value: 33 },
				],
			},
			{
				id: 'followers',
				displayName: 'Followers',
				required: false,
				defaultMatch: false,
				display: true,
				type: 'string',
			},
		];
		const fields = {
			mappingMode: 'defineBelow',
			value: { name: 'Saved schema', dropdown_status: 33, followers: '={{ [2001, 2002] }}' },
			matchingColumns: [],
			schema,
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		};
		const { out, error } = await run(TASK, {
			resource: 'task',
			operation: 'create',
			project: id(projects.website),
			fields: fields as never,
		});
		expect(error).toBeUndefined();
		expect(out[0].json).toMatchObject({
			dropdown_status: { id: 33 },
			followers: [{ id: users.alice }, { id: users.bob }],
		});
	});
});
