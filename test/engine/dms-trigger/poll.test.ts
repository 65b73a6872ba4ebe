/**
 * What one DMS Trigger poll sends and emits, with nock as the service: filters and paging in the request
 * bodies, one request when nothing is new, no other register read, errors that keep the state, and the
 * manual test run that stores nothing.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPoll, runWorkflow } from '../harness';
import { dmsApi, TOKEN } from '../../unit/dms/run-dms';
import { withDurableCursors } from '../../unit/durable-env';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const TRIGGER = 'n8n-nodes-cloud-storage.cloudStorageDmsTrigger';
const workflow = (parameters: INodeParameters) => ({
	nodes: [{ name: 'Trigger', type: TRIGGER, parameters }],
	connections: {},
});
const poll = async (parameters: INodeParameters, staticData: IDataObject = {}) =>
	await runPoll(workflow(parameters), {
		credentials: { cloudStorageTokenApi: { ...TOKEN } },
		staticData,
	});

const OPEN = { id: 31, display_name: 'Open' };
const DONE = { id: 33, display_name: 'Done' };
const task = (id: number, created: string, extra: IDataObject = {}) => ({
	dvs_document_id: id,
	name: `Task ${id}`,
	dvs_project_id: { id: 11, display_name: 'Website' },
	dropdown_status: OPEN,
	responsible: null,
	date_created: created,
	date_updated: created,
	...extra,
});
const page = (items: object[], total = items.length) =>
	[200, { items, total, limit: 200, offset: 0 }] as [number, unknown];

describe('Task Created', () => {
	it('sends the filters, records on the first poll, then reports a new task from one request', async () => {
		const sent = dmsApi({
			'task/get_documents': [
				page([task(2, '2030-01-01 10:00:00'), task(1, '2030-01-01 09:00:00')], 900),
				page(
					[
						task(3, '2030-01-01 10:00:05'),
						task(2, '2030-01-01 10:00:00'),
						task(1, '2030-01-01 09:00:00'),
					],
					901,
				),
			],
		});
		const parameters = {
			resource: 'task',
			taskEvents: ['created'],
			taskFilters: { project: { __rl: true, mode: 'id', value: '11' }, statuses: [31, 32] },
		};
		const first = await poll(parameters);
		expect(first.emitted).toBeNull();
		const second = await poll(parameters, first.staticData);
		expect(second.items.map(({ json }) => [json.event, json.dvs_document_id])).toEqual([
			['taskCreated', 3],
		]);
		expect(sent.map(({ path, body }) => [path, body.limit, body.offset, body.filters])).toEqual([
			['task/get_documents', 200, 0, { dvs_project_id: [11], dropdown_status: [31, 32] }],
			['task/get_documents', 200, 0, { dvs_project_id: [11], dropdown_status: [31, 32] }],
		]);
		expect(sent[0].body.user_access_token).toBe(TOKEN.accessToken);
	});

	it('refuses a non-numeric project before any request', async () => {
		const sent = dmsApi({});
		await expect(
			poll({
				resource: 'task',
				taskEvents: ['created'],
				taskFilters: { project: { __rl: true, mode: 'id', value: 'web' } },
			}),
		).rejects.toThrow(/Project must be numeric IDs/);
		expect(sent).toEqual([]);
	});
});

describe('Task Status Changed', () => {
	it('scans every page and reports from → to with the display names the task carries', async () => {
		const many = Array.from({ length: 200 }, (_, i) => task(1000 - i, '2030-01-01 08:00:00'));
		const sent = dmsApi({
			'task/get_documents': [
				page([task(5, '2030-01-01 09:00:00'), ...many.slice(0, 199)], 201),
				page([many[199]], 201),
				page(
					[
						task(5, '2030-01-01 09:00:00', {
							dropdown_status: DONE,
							date_updated: '2030-01-02 00:00:00',
						}),
						...many.slice(0, 199),
					],
					201,
				),
				page([many[199]], 201),
			],
		});
		const parameters = { resource: 'task', taskEvents: ['statusChanged'], toStatuses: [33] };
		const first = await poll(parameters);
		expect(first.emitted).toBeNull();
		const second = await poll(parameters, first.staticData);
		expect(second.items).toEqual([
			{
				json: expect.objectContaining({
					event: 'taskStatusChanged',
					dvs_document_id: 5,
					from: OPEN,
					to: DONE,
				}),
			},
		]);
		expect(sent.map(({ body }) => body.offset)).toEqual([0, 200, 0, 200]);
		expect(new Set(sent.map(({ path }) => path))).toEqual(new Set(['task/get_documents']));
	});

	it('keeps the state when a page fails: the next poll reports the change', async () => {
		dmsApi({
			'task/get_documents': [
				page([task(5, '2030-01-01 09:00:00')]),
				[400],
				page([task(5, '2030-01-01 09:00:00', { dropdown_status: DONE })]),
			],
		});
		const parameters = { resource: 'task', taskEvents: ['statusChanged'] };
		const first = await poll(parameters);
		await expect(poll(parameters, first.staticData)).rejects.toThrow();
		const third = await poll(parameters, first.staticData);
		expect(third.items.map(({ json }) => json.event)).toEqual(['taskStatusChanged']);
	});
});

describe('eventId', () => {
	it('is the same when the same static data is polled again (a crash before n8n kept it), new for a later change', async () => {
		const changed = page([
			task(6, '2030-01-01 09:30:00'),
			task(5, '2030-01-01 09:00:00', {
				dropdown_status: DONE,
				date_updated: '2030-01-02 00:00:00',
			}),
		]);
		dmsApi({
			'task/get_documents': [
				page([task(5, '2030-01-01 09:00:00')]),
				changed,
				changed,
				page([
					task(6, '2030-01-01 09:30:00'),
					task(5, '2030-01-01 09:00:00', {
						dropdown_status: OPEN,
						date_updated: '2030-01-03 00:00:00',
					}),
				]),
			],
		});
		const parameters = { resource: 'task', taskEvents: ['created', 'updated', 'statusChanged'] };
		const ids = (run: { items: Array<{ json: IDataObject }> }) =>
			run.items.map(({ json }) => [json.event, json.dvs_document_id, json.eventId]);
		const first = await poll(parameters);
		const second = await poll(parameters, first.staticData);
		const replayed = await poll(parameters, first.staticData);
		expect(ids(second).map(([event, id]) => [event, id])).toEqual([
			['taskCreated', 6],
			['taskUpdated', 5],
			['taskStatusChanged', 5],
		]);
		expect(ids(replayed)).toEqual(ids(second));
		expect(new Set(ids(second).map((entry) => entry[2])).size).toBe(3);
		const later = await poll(parameters, second.staticData);
		const again = ids(later).map((entry) => entry[2]);
		expect(again).toHaveLength(2);
		for (const id of again) expect(ids(second).map((entry) => entry[2])).not.toContain(id);
	});
});

describe("with n8n's durable poll cursors", () => {
	it('the first poll records the state and emits one empty batch, so n8n commits the state it staged', async () => {
		dmsApi({ 'task/get_documents': [page([task(5, '2030-01-01 09:00:00')])] });
		const first = await withDurableCursors(
			async () => await poll({ resource: 'task', taskEvents: ['created'] }),
		);
		expect(first.emitted).toEqual([[]]);
		expect(first.nodeStaticData.state).toMatchObject({ v: 1 });
	});
});

describe('Fetch Test Event', () => {
	it('returns recent tasks from one page and explains an empty register', async () => {
		dmsApi({
			'task/get_documents': [
				page([task(1, '2030-01-01 09:00:00'), task(2, '2030-01-01 10:00:00')]),
				page([]),
			],
		});
		const nodes = [
			{ name: 'Trigger', type: TRIGGER, parameters: { resource: 'task', taskEvents: ['created'] } },
		];
		const run = await runWorkflow(
			{ nodes, connections: {} },
			{ credentials: { cloudStorageTokenApi: { ...TOKEN } } as never },
		);
		expect(run.nodeOutput('Trigger').map(({ json }) => json.dvs_document_id)).toEqual([2, 1]);
		const empty = await runWorkflow(
			{ nodes, connections: {} },
			{ credentials: { cloudStorageTokenApi: { ...TOKEN } } as never },
		);
		expect(empty.error?.message).toMatch(/Nothing matching/);
	});
});

describe('Contact Person Created', () => {
	it('sends both documented contact-person filters: company and multi_dropdown_group', async () => {
		const sent = dmsApi({
			'contact_person/get_documents': page([
				{
					dvs_document_id: 4,
					name: 'Ada',
					date_created: '2030-01-01 09:00:00',
					date_updated: '2030-01-01 09:00:00',
				},
			]),
		});
		await poll({
			resource: 'contactPerson',
			contactEvents: ['created'],
			contactFilters: { company: { __rl: true, mode: 'id', value: '7' }, groups: [61, 63] },
		});
		expect(sent.map(({ path, body }) => [path, body.filters])).toEqual([
			['contact_person/get_documents', { company: [7], multi_dropdown_group: [61, 63] }],
		]);
	});
});
