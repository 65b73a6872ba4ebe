/** The sandbox's DMS contract, straight over HTTP: what the nodes are tested against must match the spec. */
import {
	DEMO_ACCOUNT,
	FREE_ACCOUNT,
	TASKS_ACCOUNT,
	TWOFA_ACCOUNT,
	type Sandbox,
} from '../../sandbox/server';
import { DMS_SEED } from '../../sandbox/dms/state';
import { boot } from '../sandbox/helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await boot()));
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.reset());

const DEMO = { user: DEMO_ACCOUNT.username, user_access_token: DEMO_ACCOUNT.token };
const { users, projects, tasks, contacts, clients } = DMS_SEED;

async function dms(
	path: string,
	body: Record<string, unknown> = {},
	init: { auth?: object; headers?: Record<string, string>; method?: string } = {},
) {
	const response = await fetch(`${sandbox.baseUrl}/api_dvs/${path}`, {
		method: init.method ?? 'POST',
		headers: { 'Content-Type': 'application/json', ...init.headers },
		body: init.method === 'GET' ? undefined : JSON.stringify({ ...(init.auth ?? DEMO), ...body }),
	});
	const text = await response.text();
	return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

const control = async (method: string, path: string, body?: unknown): Promise<any> =>
	(
		await fetch(`${sandbox.baseUrl}/__sandbox/${path}`, {
			method,
			body: body === undefined ? undefined : JSON.stringify(body),
		})
	).json();

describe('authentication and access', () => {
	it('accepts only user + token in the JSON body', async () => {
		expect((await dms('task/get_fields')).status).toBe(200);
		const login = await fetch(`${sandbox.baseUrl}/api/authenticate_user.php`, {
			method: 'POST',
			body: new URLSearchParams(DEMO),
		});
		const sessionId = ((await login.json()) as { SessionID: string }).SessionID;
		const cookieOnly = await dms(
			'task/get_fields',
			{},
			{ auth: {}, headers: { Cookie: `PHPSESSID=${sessionId}` } },
		);
		expect(cookieOnly).toMatchObject({ status: 401, text: '' });
		expect(
			await dms('task/get_fields', {}, { auth: { user: 'demo', pass: DEMO_ACCOUNT.password } }),
		).toMatchObject({ status: 401, text: '' });
		expect(
			await dms('task/get_fields', {}, { auth: { user: 'demo', user_access_token: 'wrong' } }),
		).toMatchObject({ status: 401, text: '' });
	});

	it('401 without an organisation, 405 without section permission or with DMS disabled, 400 for unknown sections', async () => {
		expect(
			await dms(
				'task/get_fields',
				{},
				{ auth: { user: FREE_ACCOUNT.username, user_access_token: FREE_ACCOUNT.token } },
			),
		).toMatchObject({ status: 401, text: '' });
		const twofa = { user: TWOFA_ACCOUNT.username, user_access_token: TWOFA_ACCOUNT.token };
		expect((await dms('task/get_fields', {}, { auth: twofa })).status).toBe(200);
		expect(await dms('contact_person/get_fields', {}, { auth: twofa })).toMatchObject({
			status: 405,
			text: '',
		});
		expect(await dms('invoice/get_fields')).toMatchObject({ status: 400, text: '' });
		// The task-only account: tasks written and read, every other register 405, a bad project id 400.
		const tasksOnly = { user: TASKS_ACCOUNT.username, user_access_token: TASKS_ACCOUNT.token };
		expect(
			await dms(
				'project_2/get_document',
				{ dvs_document_id: projects.website },
				{ auth: tasksOnly },
			),
		).toMatchObject({ status: 405, text: '' });
		expect(await dms('project_2/get_fields', {}, { auth: tasksOnly })).toMatchObject({
			status: 405,
			text: '',
		});
		expect(
			(
				await dms(
					'task/create_document',
					{ create_params: { dvs_project_id: projects.website, name: 'Mine' } },
					{ auth: tasksOnly },
				)
			).status,
		).toBe(200);
		expect(
			await dms(
				'task/create_document',
				{ create_params: { dvs_project_id: 999, name: 'Mine' } },
				{ auth: tasksOnly },
			),
		).toMatchObject({ status: 400, text: '' });
		expect(await dms('project_2/create_document', { create_params: { name: 'x' } })).toMatchObject({
			status: 405,
			text: '',
		});
		expect((await dms('task/get_fields', {}, { method: 'GET' })).status).toBe(405);
		await control('PATCH', 'dms/organisation', { dmsEnabled: false });
		expect(await dms('task/get_fields')).toMatchObject({ status: 405, text: '' });
	});
});

describe('reads', () => {
	it('declares every field type and scopes task users to the project', async () => {
		const { json } = await dms('task/get_fields');
		expect(new Set(json.fields.map((field: { type: string }) => field.type)).size).toBe(9);
		expect((await dms('task/get_users', { dvs_project_id: projects.internal })).json.users).toEqual(
			[{ id: users.carol, display_name: 'Carol Chen' }],
		);
		expect((await dms('task/get_users')).status).toBe(400);
		// The register's own users (its user fields and the members who write it), never the whole organisation.
		expect(
			(await dms('client/get_users')).json.users.map((user: { id: number }) => user.id),
		).toEqual([users.demo, users.alice]);
		expect(
			(await dms('project_2/get_users')).json.users.map((user: { id: number }) => user.id),
		).toEqual([users.demo]);
		expect((await dms('contact_person/get_users')).status).toBe(405);
	});

	it('pages newest first, omits html in lists, filters OR within a field and AND across', async () => {
		const page = await dms('task/get_documents', { limit: 2, offset: 1 });
		expect(page.json).toMatchObject({ total: 3, limit: 2, offset: 1 });
		expect(
			page.json.items.map((item: { dvs_document_id: number }) => item.dvs_document_id),
		).toEqual([tasks.second, tasks.first]);
		expect(page.json.items[1]).not.toHaveProperty('description');
		expect(
			(await dms('task/get_document', { dvs_document_id: tasks.first })).json.description,
		).toBe('<p>All <i>pages</i></p>');
		const filtered = await dms('task/get_documents', {
			filters: {
				dvs_project_id: [projects.website],
				dropdown_status: [31, 33],
				name: 'ignored',
				bogus: 1,
			},
		});
		expect(
			filtered.json.items.map((item: { dvs_document_id: number }) => item.dvs_document_id),
		).toEqual([tasks.third]);
		// The documents: maximum 200. Above it is refused, not clamped.
		expect((await dms('task/get_documents', { limit: 200 })).json.limit).toBe(200);
		expect(await dms('task/get_documents', { limit: 201 })).toMatchObject({
			status: 400,
			text: '',
		});
		expect((await dms('task/get_documents', { limit: 0 })).status).toBe(400);
		expect(await dms('task/get_document', { dvs_document_id: 999999 })).toMatchObject({
			status: 405,
			text: '',
		});
		expect(await dms('task/get_document', { dvs_document_id: contacts.erin })).toMatchObject({
			status: 405,
			text: '',
		});
	});

	it('bulk-creates tasks through the control API', async () => {
		expect(await control('POST', 'dms/tasks', { count: 1000 })).toMatchObject({ created: 1000 });
		expect((await dms('task/get_documents', { limit: 1 })).json.total).toBe(1003);
	});
});

describe('writes', () => {
	it.each([
		[{ dvs_project_id: projects.website }, 'name: required'],
		[{ dvs_project_id: projects.website, name: '  ' }, 'name: required'],
		[{ dvs_project_id: clients.acme, name: 'x' }, 'task.dvs_project_id: no project_2 21'],
		[
			{ dvs_project_id: projects.website, name: 'x', dropdown_status: 99 },
			'task.dropdown_status: unknown option 99',
		],
		[
			{ dvs_project_id: projects.website, name: 'x', dropdown_status: '31' },
			'task.dropdown_status: not an integer',
		],
		[
			{ dvs_project_id: projects.internal, name: 'x', responsible: users.demo },
			'task.responsible: user 1001 not allowed',
		],
		[
			{ dvs_project_id: projects.website, name: 'x', ext_notif_receiver: [clients.acme] },
			'task.ext_notif_receiver: no contact_person 21',
		],
		[
			{ dvs_project_id: projects.website, name: 'x', estimated_hours: 'lots' },
			'task.estimated_hours: not a numeric string',
		],
		[
			{ dvs_project_id: projects.website, name: 'x', date_due: '2026-13-01' },
			'task.date_due: not YYYY-MM-DD',
		],
	])('rejects create %j with an empty 400', async (params, reason) => {
		expect(await dms('task/create_document', { create_params: params })).toMatchObject({
			status: 400,
			text: '',
		});
		expect((await control('GET', 'dms/state')).lastRejection).toBe(reason);
	});

	it('creates with defaults, updates partially, replaces arrays, keeps the project, ignores unknown fields', async () => {
		const created = await dms('task/create_document', {
			create_params: {
				dvs_project_id: projects.website,
				name: 'New',
				followers: [users.alice, users.bob],
				whatever: 1,
			},
		});
		const id = created.json.dvs_document_id;
		expect((await dms('task/get_document', { dvs_document_id: id })).json).toMatchObject({
			dropdown_status: { id: 31 },
			creator: { id: users.demo },
			full_number: expect.stringMatching(/^T-/),
		});
		expect(
			(
				await dms('task/update_document', {
					dvs_document_id: id,
					update_params: { followers: [users.bob] },
				})
			).status,
		).toBe(200);
		expect(
			(
				await dms('task/update_document', {
					dvs_document_id: id,
					update_params: { dvs_project_id: projects.audit },
				})
			).status,
		).toBe(400);
		expect(
			(
				await dms('task/update_document', {
					dvs_document_id: id,
					update_params: { dvs_project_id: projects.website },
				})
			).status,
		).toBe(200);
		const after = (await dms('task/get_document', { dvs_document_id: id })).json;
		expect(after).toMatchObject({
			name: 'New',
			followers: [{ id: users.bob, display_name: 'Bob Baker' }],
			dvs_project_id: { id: projects.website },
		});
		expect(after).not.toHaveProperty('whatever');
	});

	it('escapes comments, mails mentions (also to non-workers) and followers, and logs it all', async () => {
		await control('DELETE', 'dms/notifications');
		const body = {
			dvs_document_id: tasks.first,
			comment: `<img src=x> @[USER:${users.carol}] @[USER:777] @carol @[${users.alice}]`,
		};
		expect((await dms('task/add_comment', body)).json).toEqual({ dvs_document_id: tasks.first });
		expect((await control('GET', `dms/comments?task=${tasks.first}`)).comments[0].text).toBe(
			`&lt;img src=x&gt; @[USER:${users.carol}] @[USER:777] @carol @[${users.alice}]`,
		);
		const { notifications } = await control('GET', 'dms/notifications');
		expect(
			notifications.map((entry: { event: string; recipients: Array<{ email: string }> }) => [
				entry.event,
				entry.recipients.map((r) => r.email),
			]),
		).toEqual([
			['comment_added', ['bob@example.com', 'erin@acme.example']],
			['mention', ['carol@example.com']],
		]);
		expect(
			(await dms('task/add_comment', { dvs_document_id: tasks.first, comment: '  ' })).status,
		).toBe(400);
		expect(
			(await dms('contact_person/add_comment', { dvs_document_id: contacts.erin, comment: 'x' }))
				.status,
		).toBe(405);
	});

	it('serves a replaced schema', async () => {
		await control('POST', 'dms/schema', {
			section: 'contact_person',
			fields: [
				{ name: 'name', type: 'text', required: true },
				{ name: 'vip', type: 'dropdown', options: [{ id: 1, display_name: 'Yes' }] },
			],
		});
		expect(
			(await dms('contact_person/create_document', { create_params: { name: 'Z', vip: 2 } }))
				.status,
		).toBe(400);
		expect(
			(await dms('contact_person/create_document', { create_params: { name: 'Z', vip: 1 } }))
				.status,
		).toBe(200);
	});
});
