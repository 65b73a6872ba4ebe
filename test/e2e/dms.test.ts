/**
 * Both DMS nodes in a real n8n against the sandbox, from exported workflows: a task created with every
 * field type through the resource mapper, updated, commented and listed; a contact person created and
 * listed; the field mapper and pickers as the editor loads them; and input errors that stop before a write.
 */
import { startSandbox, TASKS_ACCOUNT } from '../sandbox/server';
import { DMS_SEED, dmsOf } from '../sandbox/dms/state';
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
let credential: CredentialRef;
const TASK_NODE = { name: 'n8n-nodes-cloud-storage.cloudStorageDmsTask', version: 1 };
const { users, projects, contacts, clients, tasks } = DMS_SEED;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	n8n = await startN8n({ mode: 'regular' });
	credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
		name: 'DMS (token)',
	});
});
afterAll(async () => {
	await n8n?.stop();
	await sandbox?.close();
});

const organisation = () => dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!;
const writes = () =>
	sandbox.requests
		.list()
		.filter(
			(entry) =>
				entry.api === 'dms' &&
				/create_document|update_document|add_comment/.test(entry.action ?? ''),
		);

async function run(file: string) {
	const workflow = await n8n.client.importWorkflow(loadWorkflow(file), {
		credentials: { cloudStorageTokenApi: credential },
	});
	return await n8n.client.runWorkflow(workflow.id);
}

describe('DMS nodes in n8n', () => {
	it('creates, updates, comments and lists a task; creates and lists a contact person', async () => {
		const execution = await run('dms-task-roundtrip.json');
		expect(describeErrors(execution)).toBe('');
		expect(execution.status).toBe('success');
		const [created] = itemsOf(execution, 'Create Task');
		expect(created.json).toMatchObject({
			name: expect.stringMatching(/^e2e task /),
			description: '<p>Made by <b>n8n</b></p>',
			dvs_project_id: { id: projects.website, display_name: 'Website relaunch' },
			dropdown_type: { id: 12, display_name: 'Feature' },
			dropdown_status: { id: 31, display_name: 'Open' },
			multi_dropdown_labels: [
				{ id: 41, display_name: 'Backend' },
				{ id: 43, display_name: 'Urgent' },
			],
			responsible: { id: users.alice },
			followers: [{ id: users.bob }],
			ext_notif_receiver: [{ id: contacts.erin }],
			date_due: '2026-06-30',
			estimated_hours: '4.5',
		});
		const taskId = created.json.dvs_document_id;
		expect(itemsOf(execution, 'Update Task')[0].json).toMatchObject({
			dvs_document_id: taskId,
			dropdown_status: { id: 33 },
			followers: [{ id: users.alice }, { id: users.bob }],
			spent_hours: '5',
			date_due: null,
			dvs_project_id: { id: projects.website },
		});
		expect(itemsOf(execution, 'Add Comment')[0].json).toEqual({
			dvs_document_id: taskId,
			comment: `@[USER:${users.carol}] Finished <for real>`,
			mentioned_user_ids: [users.carol],
			outcome: 'applied',
		});
		const listed = itemsOf(execution, 'Get Many');
		expect(listed[0].json).toMatchObject({
			dvs_document_id: taskId,
			description: '<p>Made by <b>n8n</b></p>',
		});
		expect(listed.every((item) => (item.json.dropdown_status as { id: number }).id === 33)).toBe(
			true,
		);

		const contact = itemsOf(execution, 'Create Contact')[0].json;
		expect(contact).toMatchObject({
			name: 'E2E Contact',
			company: { id: clients.acme, display_name: 'Acme Corp' },
			multi_dropdown_group: [{ id: 63 }],
		});
		expect(itemsOf(execution, 'Contacts of Acme').map((item) => item.json.dvs_document_id)).toEqual(
			[contact.dvs_document_id],
		);

		// What the service would have e-mailed, and the comment as stored.
		const events = organisation().notifications.filter((entry) => entry.documentId === taskId);
		expect(events.map((entry) => entry.event)).toEqual([
			'task_created',
			'task_updated',
			'comment_added',
			'mention',
		]);
		expect(events[3].recipients).toEqual([
			{ kind: 'user', id: users.carol, email: 'carol@example.com' },
		]);
		expect(organisation().comments.at(-1)?.text).toBe(
			`@[USER:${users.carol}] Finished &lt;for real&gt;`,
		);
		expect(
			sandbox.requests
				.list()
				.filter((entry) => entry.api === 'dms')
				.every((entry) => entry.credentialsInUrl.length === 0),
		).toBe(true);
	});

	it('stops invalid ids, missing fields, non-numeric hours, unknown options, users and registers before any write', async () => {
		sandbox.reset();
		const contactFields = organisation().schemas.contact_person;
		organisation().schemas.contact_person = [
			...contactFields,
			{
				name: 'invoice',
				label: 'Invoice',
				type: 'relation',
				section: 'invoice' as never,
				required: false,
				filter: false,
			},
		];
		const execution = await run('dms-input-errors.json');
		const errorOf = (node: string) => itemsOf(execution, node)[0]?.json;
		expect(errorOf('Invalid Task ID')).toMatchObject({
			error: 'The task ID must be a positive whole number (got "T-12")',
		});
		expect(errorOf('Missing Name')).toMatchObject({ error: 'Missing required field: Name' });
		expect(errorOf('Hours Not Numeric')).toMatchObject({
			error: 'Estimated hours must be a number of hours such as 2.5 (got "four")',
		});
		// The examples carry the schema the editor saves (dropdowns with their ids as options); the values come
		// by expression, so n8n leaves them to the node, which names the field, the value and the choices.
		expect(errorOf('Unknown Option')).toMatchObject({
			error: 'Unknown option "Blocked" for Status',
			description: expect.stringContaining('Choose one of: Open (31)'),
		});
		expect(errorOf('Not A Worker')).toMatchObject({
			error: 'Unknown user (not a worker of this project) "1001" for Responsible',
		});
		expect(errorOf('Move Project')).toMatchObject({
			error: 'The project of a task cannot be changed',
		});
		// With the organisation's schema widened above, the field is declared but points at an unknown register.
		expect(errorOf('Undeclared Field')).toMatchObject({
			error: 'Invoice refers to the unknown register "invoice"',
		});
		expect(writes()).toHaveLength(0);
		expect(sandbox.requests.list().some((entry) => entry.path.startsWith('/api_dvs/invoice'))).toBe(
			false,
		);
	});

	it('builds the field mapper and pickers from get_fields / get_users as the editor asks for them', async () => {
		sandbox.reset();
		const base = {
			nodeTypeAndVersion: TASK_NODE,
			credentials: { cloudStorageTokenApi: { id: credential.id, name: credential.name } },
		};
		const create = {
			resource: 'task',
			operation: 'create',
			project: { __rl: true, mode: 'id', value: String(projects.internal) },
		};
		const mapper = await n8n.client.request<{ fields: Array<Record<string, unknown>> }>(
			'POST',
			'/rest/dynamic-node-parameters/resource-mapper-fields',
			{
				...base,
				path: 'parameters.fields',
				methodName: 'getCreateFields',
				currentNodeParameters: create,
			},
		);
		const fields = Object.fromEntries(mapper.fields.map((field) => [field.id, field]));
		expect(fields.dvs_project_id).toBeUndefined();
		expect(fields.name).toMatchObject({ displayName: 'Name', required: true, type: 'string' });
		expect(fields.dropdown_status).toMatchObject({
			type: 'options',
			options: [
				{ name: 'Open', value: 31 },
				{ name: 'In progress', value: 32 },
				{ name: 'Done', value: 33 },
			],
		});
		// The project's workers only: Carol works on "Internal tools".
		expect(fields.responsible).toMatchObject({
			type: 'options',
			options: [{ name: 'Carol Chen', value: users.carol }],
		});
		expect(fields.followers.displayName).toBe('Followers (user names or IDs, comma-separated)');
		expect(fields.date_due.displayName).toBe('Due date (YYYY-MM-DD)');

		const projectList = await n8n.client.request<{
			results: Array<{ name: string; value: string }>;
		}>('POST', '/rest/dynamic-node-parameters/resource-locator-results', {
			...base,
			path: 'parameters.project',
			methodName: 'searchProjects',
			filter: 'audit',
			currentNodeParameters: create,
		});
		expect(projectList.results).toEqual([{ name: 'Annual audit', value: String(projects.audit) }]);

		// The workers of the task's project: no action lists the whole organisation; others are mentioned by ID.
		const mentionable = await n8n.client.request<Array<{ name: string; value: number }>>(
			'POST',
			'/rest/dynamic-node-parameters/options',
			{
				...base,
				path: 'parameters.mentions',
				methodName: 'getMentionUsers',
				currentNodeParameters: {
					resource: 'task',
					operation: 'addComment',
					documentId: { __rl: true, mode: 'id', value: String(tasks.first) },
				},
			},
		);
		expect(mentionable.map((option) => option.value)).toEqual([
			users.demo,
			users.tasks,
			users.alice,
			users.bob,
		]);
	});

	it('a user whose group may write tasks only creates, updates and comments (no project or contact-person reads needed)', async () => {
		sandbox.reset();
		const tasksOnly = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
			name: 'DMS (task writer)',
			account: TASKS_ACCOUNT,
		});
		const workflow = await n8n.client.importWorkflow(loadWorkflow('dms-task-writer.json'), {
			credentials: { cloudStorageTokenApi: tasksOnly },
		});
		const execution = await n8n.client.runWorkflow(workflow.id);
		expect(describeErrors(execution)).toBe('');
		const [created] = itemsOf(execution, 'Create Task');
		expect(created.json).toMatchObject({
			dvs_project_id: { id: projects.website },
			responsible: { id: users.bob },
			ext_notif_receiver: [{ id: contacts.erin }],
			creator: { id: users.tasks },
		});
		expect(itemsOf(execution, 'Update Task')[0].json).toMatchObject({
			dropdown_status: { id: 33 },
			ext_notif_receiver: [{ id: contacts.frank }],
		});
		expect(itemsOf(execution, 'Add Comment')[0].json).toMatchObject({
			mentioned_user_ids: [users.alice, users.carol],
		});
		const mentioned = organisation()
			.notifications.filter((entry) => entry.event === 'mention')
			.flatMap((entry) => entry.recipients.map((recipient) => recipient.id));
		expect(mentioned.sort()).toEqual([users.alice, users.carol].sort());
		// Every project / contact-person read answered 405 and was skipped; nothing else failed.
		const refused = sandbox.requests
			.list()
			.filter((entry) => entry.api === 'dms' && entry.status !== 200);
		expect(
			refused.every(
				(entry) =>
					entry.status === 405 && /^\/api_dvs\/(project_2|contact_person)\//.test(entry.path),
			),
		).toBe(true);
	});
});
