/**
 * The Cloud Storage DMS Trigger through n8n-core's poll context against the sandbox: consecutive polls carry
 * the static data the previous one left. Tasks and contact persons are created and changed through the API
 * itself, so date_updated and display names are the service's own; the sandbox clock is moved by the tests.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO_ACCOUNT, startSandbox } from '../sandbox/server';
import { DMS_SEED, dmsOf } from '../sandbox/dms/state';
import { PACKAGE_NAME, runPoll } from './harness';

jest.setTimeout(60_000);

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let clock = Date.UTC(2031, 4, 6, 7, 8, 9);
const tick = (seconds = 1) => (clock += seconds * 1000);
beforeAll(async () => (sandbox = await startSandbox({ port: 0, now: () => clock })));
afterAll(async () => await sandbox?.close());
beforeEach(() => {
	sandbox.reset();
	sandbox.faults.clear();
});

const TRIGGER = `${PACKAGE_NAME}.cloudStorageDmsTrigger`;
const { users, projects, clients } = DMS_SEED;
const credentials = () => ({
	cloudStorageTokenApi: {
		baseUrl: sandbox.baseUrl,
		webUrl: sandbox.webUrl,
		user: 'demo',
		accessToken: DEMO_ACCOUNT.token,
	},
});
const id = (value: number) => ({ __rl: true, mode: 'id', value: String(value) });

function poller(parameters: INodeParameters, mode: 'trigger' | 'manual' = 'trigger') {
	let staticData: IDataObject = {};
	return {
		async next(): Promise<INodeExecutionData[]> {
			const nodes = [{ name: 'Trigger', type: TRIGGER, parameters }];
			const result = await runPoll(
				{ nodes, connections: {} },
				{ credentials: credentials(), staticData, ...(mode === 'manual' ? {} : {}) },
			);
			staticData = result.staticData;
			return result.items;
		},
		staticData: () => staticData,
	};
}

async function dms(
	section: string,
	action: string,
	params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandbox.baseUrl}/api_dvs/${section}/${action}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ user: 'demo', user_access_token: DEMO_ACCOUNT.token, ...params }),
	});
	expect(response.status).toBe(200);
	return (await response.json()) as Record<string, unknown>;
}
const createTask = async (name: string, values: Record<string, unknown> = {}) =>
	Number(
		(
			await dms('task', 'create_document', {
				create_params: { dvs_project_id: projects.website, name, ...values },
			})
		).dvs_document_id,
	);
const updateTask = async (taskId: number, values: Record<string, unknown>) =>
	await dms('task', 'update_document', { dvs_document_id: taskId, update_params: values });
const dmsRequests = () =>
	sandbox.requests
		.list()
		.filter((entry) => entry.api === 'dms')
		.map((entry) => entry.path);
const summary = (items: INodeExecutionData[]) =>
	items.map(({ json }) => `${String(json.event)} ${String(json.dvs_document_id)}`);

describe('Task Created (cursor state)', () => {
	it('records on activation, reports each new task once, and a quiet poll costs one request over 1,000 tasks', async () => {
		dmsOf(sandbox.store).bulkCreateTasks(
			dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!,
			1000,
			projects.website,
			users.demo,
		);
		const trigger = poller({ resource: 'task', taskEvents: ['created'] });
		expect(await trigger.next()).toEqual([]);
		tick();
		const a = await createTask('A');
		const b = await createTask('B');
		tick();
		const items = await trigger.next();
		expect(summary(items)).toEqual([`taskCreated ${a}`, `taskCreated ${b}`]);
		expect(items[0].json.document).toMatchObject({
			name: 'A',
			dvs_project_id: { id: projects.website, display_name: 'Website relaunch' },
		});
		sandbox.requests.clear();
		tick(600);
		expect(await trigger.next()).toEqual([]);
		expect(dmsRequests()).toEqual(['/api_dvs/task/get_documents']);
	});

	it('reports every task of a burst in one second, across a poll inside that second', async () => {
		const trigger = poller({ resource: 'task', taskEvents: ['created'] });
		expect(await trigger.next()).toEqual([]);
		const first = [await createTask('1'), await createTask('2')];
		expect(summary(await trigger.next())).toEqual(first.map((task) => `taskCreated ${task}`));
		const second = [await createTask('3'), await createTask('4')];
		expect(summary(await trigger.next())).toEqual(second.map((task) => `taskCreated ${task}`));
		expect(await trigger.next()).toEqual([]);
	});

	it('filters by project and status (documented filterable fields)', async () => {
		const trigger = poller({
			resource: 'task',
			taskEvents: ['created'],
			taskFilters: { project: id(projects.audit), statuses: [33] },
		});
		expect(await trigger.next()).toEqual([]);
		tick();
		await createTask('website');
		const done = Number(
			(
				await dms('task', 'create_document', {
					create_params: {
						dvs_project_id: projects.audit,
						name: 'audit done',
						dropdown_status: 33,
					},
				})
			).dvs_document_id,
		);
		await dms('task', 'create_document', {
			create_params: { dvs_project_id: projects.audit, name: 'audit open', dropdown_status: 31 },
		});
		expect(summary(await trigger.next())).toEqual([`taskCreated ${done}`]);
	});
});

describe('Task Updated, Status Changed, Responsible Changed (snapshot state)', () => {
	it('reports changed fields with old and new display names, status from → to and responsible from → to', async () => {
		const task = await createTask('Write notes', { dropdown_status: 31, responsible: users.alice });
		tick();
		const trigger = poller({
			resource: 'task',
			taskEvents: ['updated', 'statusChanged', 'responsibleChanged'],
		});
		expect(await trigger.next()).toEqual([]);
		tick();
		await updateTask(task, { dropdown_status: 33, responsible: users.bob, estimated_hours: '4' });
		tick();
		const items = await trigger.next();
		expect(summary(items)).toEqual([
			`taskUpdated ${task}`,
			`taskStatusChanged ${task}`,
			`taskResponsibleChanged ${task}`,
		]);
		expect(items[0].json.changes).toEqual({
			dropdown_status: {
				old: { id: 31, display_name: 'Open' },
				new: { id: 33, display_name: 'Done' },
			},
			responsible: {
				old: { id: users.alice, display_name: 'Alice Archer' },
				new: { id: users.bob, display_name: 'Bob Baker' },
			},
			estimated_hours: { old: null, new: '4' },
		});
		expect(items[1].json).toMatchObject({
			from: { id: 31, display_name: 'Open' },
			to: { id: 33, display_name: 'Done' },
		});
		expect(items[2].json).toMatchObject({
			from: { display_name: 'Alice Archer' },
			to: { display_name: 'Bob Baker' },
		});
		expect(await trigger.next()).toEqual([]);
	});

	it('reports only moves into the chosen statuses; a task created meanwhile is not a status change', async () => {
		const task = await createTask('Move me', { dropdown_status: 31 });
		const trigger = poller({ resource: 'task', taskEvents: ['statusChanged'], toStatuses: [33] });
		expect(await trigger.next()).toEqual([]);
		tick();
		await updateTask(task, { dropdown_status: 32 });
		await createTask('new and done', { dropdown_status: 33 });
		expect(await trigger.next()).toEqual([]);
		tick();
		await updateTask(task, { dropdown_status: 33 });
		expect(summary(await trigger.next())).toEqual([`taskStatusChanged ${task}`]);
	});

	it('scans the filtered set in total ÷ 200 requests and keeps the state when a poll fails half-way', async () => {
		const org = dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!;
		dmsOf(sandbox.store).bulkCreateTasks(org, 1000, projects.website, users.demo);
		const trigger = poller({ resource: 'task', taskEvents: ['statusChanged'] });
		expect(await trigger.next()).toEqual([]);
		const before = JSON.stringify(trigger.staticData());
		const [changed] = [...org.documents.values()].filter(
			(doc) => doc.section === 'task' && doc.values.name === 'Bulk task 10',
		);
		tick();
		await updateTask(changed.id, {
			dropdown_status: 33 === changed.values.dropdown_status ? 31 : 33,
		});
		sandbox.faults.add({ match: { path: 'get_documents' }, fault: '500', times: 20 } as never);
		await expect(trigger.next()).rejects.toThrow();
		expect(JSON.stringify(trigger.staticData())).toBe(before);
		sandbox.faults.clear();
		sandbox.requests.clear();
		expect(summary(await trigger.next())).toEqual([`taskStatusChanged ${changed.id}`]);
		expect(dmsRequests().length).toBe(Math.ceil((1000 + 3) / 200));
		expect(await trigger.next()).toEqual([]);
	});

	it('fails clearly above the cap and keeps the state', async () => {
		const trigger = poller({ resource: 'task', taskEvents: ['updated'], maxTracked: 2 });
		await expect(trigger.next()).rejects.toThrow(/holds 3 documents, more than the 2 tracked/);
		expect(trigger.staticData()).toEqual({});
	});

	it('works for a user whose group may write tasks only (no other register is read)', async () => {
		const org = dmsOf(sandbox.store).organisations.get(DMS_SEED.organisation)!;
		org.members.set(users.demo, new Set(['task']));
		const task = await createTask('Tasks only', { responsible: users.alice });
		const trigger = poller({
			resource: 'task',
			taskEvents: ['created', 'updated', 'responsibleChanged'],
		});
		expect(await trigger.next()).toEqual([]);
		tick();
		await updateTask(task, { responsible: users.bob });
		const created = await createTask('New');
		const items = await trigger.next();
		expect(summary(items)).toEqual(
			[`taskCreated ${created}`, `taskUpdated ${task}`, `taskResponsibleChanged ${task}`].sort(
				(a, b) => (a.includes(String(task)) ? -1 : 1) - (b.includes(String(task)) ? -1 : 1),
			),
		);
		expect(new Set(dmsRequests().map((path) => path.split('/')[2]))).toEqual(new Set(['task']));
	});
});

describe('Contact Person', () => {
	it('reports created and updated contact persons of one company', async () => {
		const trigger = poller({
			resource: 'contactPerson',
			contactEvents: ['created', 'updated'],
			contactFilters: { company: id(clients.acme) },
		});
		expect(await trigger.next()).toEqual([]);
		tick();
		const created = Number(
			(
				await dms('contact_person', 'create_document', {
					create_params: { name: 'Gina', email: 'gina@acme.example', company: clients.acme },
				})
			).dvs_document_id,
		);
		await dms('contact_person', 'create_document', {
			create_params: { name: 'Hal', email: 'hal@globex.example', company: clients.globex },
		});
		await dms('contact_person', 'update_document', {
			dvs_document_id: DMS_SEED.contacts.erin,
			update_params: { email: 'erin@new.example' },
		});
		const items = await trigger.next();
		expect(summary(items).sort()).toEqual(
			[`contactPersonCreated ${created}`, `contactPersonUpdated ${DMS_SEED.contacts.erin}`].sort(),
		);
		expect(items.find((item) => item.json.event === 'contactPersonUpdated')!.json.changes).toEqual({
			email: { old: 'erin@acme.example', new: 'erin@new.example' },
		});
	});
});
