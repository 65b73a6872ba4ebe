import nock from 'nock';

import {
	accountApi,
	BASE,
	dmsApi,
	id,
	mapped,
	ours,
	runDms,
	TASK_FIELDS,
} from '../../unit/dms/run-dms';
import { mapperFields } from '../../../nodes/shared/dms/mapper';
import type { FieldDescriptor } from '../../../nodes/shared/dms/types';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock();

const FIELDS: [number, unknown] = [200, { fields: TASK_FIELDS }];
const WORKERS: [number, unknown] = [
	200,
	{
		users: [
			{ id: 7, display_name: 'Ann' },
			{ id: 8, display_name: 'Ben' },
		],
	},
];
const TASK = {
	dvs_document_id: 5,
	name: 'T',
	dvs_project_id: { id: 3, display_name: 'P' },
	dropdown_status: { id: 31, display_name: 'Open' },
	followers: [],
};

/** get_documents' answer: the newest tasks of the project, newest first. */
const newest = (...items: object[]): [number, unknown] => [
	200,
	{ items, total: items.length, limit: 50, offset: 0 },
];
const NONE_YET = newest();

describe('task create', () => {
	it('posts JSON with user and token in the body, create_params in the documented input types', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
			'task/get_users': WORKERS,
			'task/get_documents': NONE_YET,
			'task/create_document': [200, { dvs_document_id: 5 }],
			'task/get_document': [200, TASK],
		});
		const { out, error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(3),
			fields: mapped({
				name: 'T',
				dropdown_status: 'open',
				responsible: 'Ben',
				followers: '[7, "Ben"]',
				estimated_hours: 4,
				date_due: '2026-01-02T10:00:00',
			}),
		});
		expect(error).toBeUndefined();
		const create = sent.find((entry) => entry.path === 'task/create_document')!;
		expect(create.contentType).toMatch(/application\/json/);
		expect(create.body).toEqual({
			user: 'demo',
			user_access_token: 'tok-secret-1',
			create_params: {
				dvs_project_id: 3,
				name: 'T',
				dropdown_status: 31,
				responsible: 8,
				followers: [7, 8],
				estimated_hours: '4',
				date_due: '2026-01-02',
			},
		});
		expect(sent.find((entry) => entry.path === 'task/get_users')!.body).toMatchObject({
			dvs_project_id: 3,
		});
		expect(out[0].json).toEqual({ ...TASK, outcome: 'applied' });
	});

	it('takes names in dropdown and user fields when the mapper schema is filled as the editor saves it', async () => {
		// The editor stores the loaded fields with their choices as `options`; n8n would refuse a mapped value that
		// is not an option's id, though names are what users map from earlier nodes (by expression).
		const schema = mapperFields(
			'task',
			TASK_FIELDS as FieldDescriptor[],
			'create',
			{
				users: [
					{ id: 7, display_name: 'Ann' },
					{ id: 8, display_name: 'Ben' },
				],
			},
			['dvs_project_id'],
		);
		expect(schema.find((field) => field.id === 'dropdown_status')?.type).toBe('options');
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
			'task/get_users': WORKERS,
			'task/get_documents': NONE_YET,
			'task/create_document': [200, { dvs_document_id: 5 }],
			'task/get_document': [200, TASK],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(3),
			fields: {
				mappingMode: 'defineBelow',
				value: { name: 'T', dropdown_status: '={{ "Open" }}', responsible: '={{ "Ben" }}' },
				matchingColumns: [],
				schema,
			} as never,
		});
		expect(error).toBeUndefined();
		expect(sent.find((entry) => entry.path === 'task/create_document')!.body.create_params).toEqual(
			{ dvs_project_id: 3, name: 'T', dropdown_status: 31, responsible: 8 },
		);
	});

	it('still refuses a dropdown name the organisation does not have, before the create', async () => {
		const schema = mapperFields('task', TASK_FIELDS as FieldDescriptor[], 'create', {}, [
			'dvs_project_id',
		]);
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(3),
			fields: {
				mappingMode: 'defineBelow',
				value: { name: 'T', dropdown_status: '={{ "Nonsense" }}' },
				matchingColumns: [],
				schema,
			} as never,
		});
		expect(error?.message).toMatch(/Nonsense/);
		expect(sent.map((entry) => entry.path)).not.toContain('task/create_document');
	});

	it('does not repeat a create after a 500 when the newest tasks cannot be read, and says how to check', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
			'task/get_documents': [405],
			'task/create_document': [500],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(3),
			fields: mapped({ name: 'T' }),
		});
		expect(sent.filter((entry) => entry.path === 'task/create_document')).toHaveLength(1);
		expect(error?.message).toMatch(/may have been applied/);
		expect(error?.description).toMatch(/Get Many filtered by this project \(newest first\)/);
	});

	describe('after a lost answer, the newest tasks of the project settle it', () => {
		const older = { ...TASK, ...ours('2026-11-28 10:00:00'), dvs_document_id: 4, name: 'Older' };
		const mine = { ...TASK, ...ours('2026-11-28 10:00:07') };
		beforeEach(() => accountApi());
		const create = () =>
			runDms('cloudStorageDmsTask', {
				resource: 'task',
				operation: 'create',
				project: id(3),
				fields: mapped({ name: 'T', dropdown_status: 'open' }),
			});
		const creates = (sent: Array<{ path: string }>) =>
			sent.filter((entry) => entry.path === 'task/create_document');

		it('one new task holding the values sent: created, not sent twice', async () => {
			const sent = dmsApi({
				'task/get_fields': FIELDS,
				'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
				'task/get_documents': [newest(older), newest(mine, older)],
				'task/create_document': [500],
				'task/get_document': [200, mine],
			});
			const { out, error } = await create();
			expect(error).toBeUndefined();
			expect(creates(sent)).toHaveLength(1);
			expect(out[0].json).toEqual({ ...mine, outcome: 'applied-after-lost-answer' });
		});

		it('no new task, also after a pause: not created, sent again', async () => {
			const sent = dmsApi({
				'task/get_fields': FIELDS,
				'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
				'task/get_documents': newest(older),
				'task/create_document': [[500], [200, { dvs_document_id: 5 }]],
				'task/get_document': [200, mine],
			});
			const { error } = await create();
			expect(error).toBeUndefined();
			expect(creates(sent)).toHaveLength(2);
		});

		it('two new tasks that fit: "may have been applied", naming them, not sent again', async () => {
			const twin = { ...mine, dvs_document_id: 6 };
			const sent = dmsApi({
				'task/get_fields': FIELDS,
				'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
				'task/get_documents': [newest(older), newest(twin, mine, older)],
				'task/create_document': [500],
			});
			const { error } = await create();
			expect(creates(sent)).toHaveLength(1);
			expect(error?.message).toMatch(/may have been applied.*\(6, 5\)/);
		});

		it("another user's task with the same values, created meanwhile, is never adopted: ours is sent again", async () => {
			const theirs = {
				...TASK,
				dvs_document_id: 6,
				creator: { id: 2001, display_name: 'Alice Archer' },
				date_created: '2026-11-28 10:00:07',
			};
			const sent = dmsApi({
				'task/get_fields': FIELDS,
				'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
				'task/get_documents': [newest(older), newest(theirs, older), newest(theirs, older)],
				'task/create_document': [[500], [200, { dvs_document_id: 7 }]],
				'task/get_document': [200, { ...mine, dvs_document_id: 7 }],
			});
			const { out, error } = await create();
			expect(error).toBeUndefined();
			expect(creates(sent)).toHaveLength(2);
			expect(out[0].json).toMatchObject({ dvs_document_id: 7, outcome: 'applied' });
		});

		it('a task of this user dated before the write began is not taken for it', async () => {
			// Not among the newest noted before (it only became visible since), and older than they are.
			const stale = { ...mine, dvs_document_id: 2, ...ours('2026-11-28 09:59:59') };
			const sent = dmsApi({
				'task/get_fields': FIELDS,
				'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
				'task/get_documents': [newest(older), newest(older, stale), newest(older, stale)],
				'task/create_document': [[500], [200, { dvs_document_id: 5 }]],
				'task/get_document': [200, mine],
			});
			const { error } = await create();
			expect(error).toBeUndefined();
			expect(creates(sent)).toHaveLength(2);
		});

		it('a check read that fails says the create may have been applied, never "nothing was changed"', async () => {
			const sent = dmsApi({
				'task/get_fields': FIELDS,
				'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
				'task/get_documents': [newest(older), [403]],
				'task/create_document': [500],
			});
			const { error } = await create();
			expect(creates(sent)).toHaveLength(1);
			expect(error?.message).toMatch(
				/^The write may have been applied: the answer to the task write was lost, and the read that would have settled it failed/,
			);
			expect(`${error?.message} ${error?.description}`).not.toMatch(/nothing was changed/i);
		});

		it('the credential\'s user cannot be read: "may have been applied", not sent again', async () => {
			nock.cleanAll();
			nock(BASE).post('/api/authenticate_user.php').reply(403, '');
			const sent = dmsApi({
				'task/get_fields': FIELDS,
				'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
				'task/get_documents': [newest(older), newest(mine, older)],
				'task/create_document': [500],
			});
			const { error } = await create();
			expect(creates(sent)).toHaveLength(1);
			expect(error?.message).toMatch(/may have been applied.*credential's user could not be read/);
		});
	});

	it('retries a 429 and explains an empty-bodied 400', async () => {
		dmsApi({
			'task/get_fields': [[429], FIELDS],
			'project_2/get_document': [200, { dvs_document_id: 3, name: 'P' }],
			'task/get_documents': NONE_YET,
			'task/create_document': [400],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(3),
			fields: mapped({ name: 'T' }),
		});
		expect(error?.message).toMatch(/document-management API rejected the request \(400\)/);
		expect(error?.description).toMatch(/ids from Get Fields \/ Get Users/);
	});

	it('names a user who is not a worker of the project, listing who is', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [200, { dvs_document_id: 3 }],
			'task/get_users': WORKERS,
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(3),
			fields: mapped({ name: 'T', responsible: 9 }),
		});
		expect(error?.message).toBe('Unknown user (not a worker of this project) "9" for Responsible');
		expect(error?.description).toBe('Choose one of: Ann (7), Ben (8).');
		expect(sent.map((entry) => entry.path)).not.toContain('task/create_document');
	});

	it('names an unknown project (the API says 405, and projects are readable)', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [405],
			'project_2/get_fields': [200, { fields: [] }],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(77),
			fields: mapped({ name: 'T' }),
		});
		expect(error?.message).toBe('Unknown project 77 for Project');
		expect(sent.map((entry) => entry.path)).not.toContain('task/create_document');
	});

	it('a user who may write tasks only: the project check is skipped, the create goes through', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [405],
			'project_2/get_fields': [405],
			'task/get_users': WORKERS,
			'task/get_documents': NONE_YET,
			'task/create_document': [200, { dvs_document_id: 5 }],
			'task/get_document': [200, TASK],
		});
		const { out, error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(3),
			fields: mapped({ name: 'T', responsible: 'Ben' }),
		});
		expect(error).toBeUndefined();
		expect(sent.map((entry) => entry.path)).toEqual([
			'task/get_fields',
			'project_2/get_document',
			'project_2/get_fields',
			'task/get_users',
			'task/get_documents',
			'task/create_document',
			'task/get_document',
		]);
		expect(sent.find((entry) => entry.path === 'task/create_document')!.body.create_params).toEqual(
			{ dvs_project_id: 3, name: 'T', responsible: 8 },
		);
		expect(out[0].json).toEqual({ ...TASK, outcome: 'applied' });
	});

	it("a user who may write tasks only: the service's 400 names the unchecked project", async () => {
		dmsApi({
			'task/get_fields': FIELDS,
			'project_2/get_document': [405],
			'project_2/get_fields': [405],
			'task/get_documents': NONE_YET,
			'task/create_document': [400],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'create',
			project: id(77),
			fields: mapped({ name: 'T' }),
		});
		expect(error?.message).toBe(
			'The service refused the values (400): check Project (dvs_project_id) = 77',
		);
		expect(error?.description).toMatch(/this user's group may not read the registers/);
		expect(error?.description).toMatch(
			/Project \(dvs_project_id\) = 77: not checked \(this user may not read projects\)/,
		);
	});
});

describe('task update', () => {
	it('reads the task, checks users against its project and sends only the changed fields', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'task/get_document': [200, TASK],
			'task/get_users': WORKERS,
			'task/update_document': [200, { dvs_document_id: 5 }],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'update',
			documentId: id(5),
			fields: mapped({ followers: 'Ann', name: '', dropdown_status: null }),
			clearFields: ['date_due'],
		});
		expect(error).toBeUndefined();
		expect(sent.find((entry) => entry.path === 'task/update_document')!.body).toEqual({
			user: 'demo',
			user_access_token: 'tok-secret-1',
			dvs_document_id: 5,
			update_params: { followers: [7], date_due: null },
		});
		expect(sent.find((entry) => entry.path === 'task/get_users')!.body).toMatchObject({
			dvs_project_id: 3,
		});
	});

	it('a user who may write tasks only: external followers pass unchecked when contact persons answer 405', async () => {
		const external = {
			name: 'ext_notif_receiver',
			label: 'External followers',
			type: 'relation_ids',
			section: 'contact_person',
			list_action: 'get_documents',
		};
		const sent = dmsApi({
			'task/get_fields': [200, { fields: [...TASK_FIELDS, external] }],
			'task/get_document': [200, TASK],
			'contact_person/get_document': [405],
			'contact_person/get_fields': [405],
			'task/update_document': [200, { dvs_document_id: 5 }],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'update',
			documentId: id(5),
			fields: mapped({ ext_notif_receiver: '31' }),
		});
		expect(error).toBeUndefined();
		expect(sent.find((entry) => entry.path === 'task/update_document')!.body.update_params).toEqual(
			{ ext_notif_receiver: [31] },
		);
	});

	it('after a lost answer, reads back and does not resend when the update is there', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'task/get_document': [
				[200, TASK],
				[200, { ...TASK, dropdown_status: { id: 33, display_name: 'Done' } }],
			],
			'task/update_document': [500],
		});
		const { error, out } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'update',
			documentId: id(5),
			fields: mapped({ dropdown_status: 33 }),
		});
		expect(error).toBeUndefined();
		expect(sent.filter((entry) => entry.path === 'task/update_document')).toHaveLength(1);
		expect(out[0].json.dropdown_status).toEqual({ id: 33, display_name: 'Done' });
	});

	it('after a lost answer, resends when the read shows the update missing', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'task/get_document': [200, TASK],
			'task/update_document': [[500], [200, { dvs_document_id: 5 }]],
		});
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'update',
			documentId: id(5),
			fields: mapped({ dropdown_status: 33 }),
		});
		expect(error).toBeUndefined();
		expect(sent.filter((entry) => entry.path === 'task/update_document')).toHaveLength(2);
	});

	it('refuses a project change and an empty update before any request', async () => {
		const sent = dmsApi({});
		const moved = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'update',
			documentId: id(5),
			fields: mapped({ dvs_project_id: 4 }),
		});
		expect(moved.error?.message).toBe('The project of a task cannot be changed');
		expect(sent).toHaveLength(0);
		nock.cleanAll();
		dmsApi({ 'task/get_fields': FIELDS, 'task/get_document': [200, TASK] });
		const empty = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'update',
			documentId: id(5),
			fields: mapped({ name: '' }),
		});
		expect(empty.error?.message).toMatch(/Nothing to update/);
	});

	it('refuses to clear a required field', async () => {
		dmsApi({ 'task/get_fields': FIELDS, 'task/get_document': [200, TASK] });
		const { error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'update',
			documentId: id(5),
			fields: mapped({}),
			clearFields: ['name'],
		});
		expect(error?.message).toBe('Name is required and cannot be emptied');
	});
});

describe('task get many', () => {
	it('pages with limit 200 until total, sends filters, and stops at the limit', async () => {
		const page = (from: number, count: number) =>
			Array.from({ length: count }, (_, i) => ({
				dvs_document_id: 1000 - from - i,
				name: `t${from + i}`,
			}));
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'task/get_documents': [
				[200, { items: page(0, 200), total: 450, limit: 200, offset: 0 }],
				[200, { items: page(200, 200), total: 450, limit: 200, offset: 200 }],
				[200, { items: page(400, 50), total: 450, limit: 200, offset: 400 }],
			],
		});
		const { out, error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'getAll',
			returnAll: true,
			filters: {
				conditions: [
					{ field: 'dropdown_status', values: ['Open'] },
					{ field: 'dropdown_status', values: '33' },
				],
			},
		});
		expect(error).toBeUndefined();
		expect(out).toHaveLength(450);
		const pages = sent
			.filter((entry) => entry.path === 'task/get_documents')
			.map((entry) => entry.body);
		expect(pages.map(({ limit, offset }) => [limit, offset])).toEqual([
			[200, 0],
			[200, 200],
			[200, 400],
		]);
		expect(pages[0].filters).toEqual({ dropdown_status: [31, 33] });
	});

	it('never asks for more than 200 at once, whatever the Limit', async () => {
		const page = (from: number, count: number) =>
			Array.from({ length: count }, (_, i) => ({ dvs_document_id: 5000 - from - i }));
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'task/get_documents': [
				[200, { items: page(0, 200), total: 900 }],
				[200, { items: page(200, 200), total: 900 }],
				[200, { items: page(400, 50), total: 900 }],
			],
		});
		const { out } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'getAll',
			returnAll: false,
			limit: 450,
		});
		expect(out).toHaveLength(450);
		expect(
			sent
				.filter((entry) => entry.path === 'task/get_documents')
				.map((entry) => [entry.body.limit, entry.body.offset]),
		).toEqual([
			[200, 0],
			[200, 200],
			[50, 400],
		]);
	});

	it('asks only for what the limit needs', async () => {
		const sent = dmsApi({
			'task/get_fields': FIELDS,
			'task/get_documents': [
				200,
				{ items: [{ dvs_document_id: 1 }, { dvs_document_id: 2 }], total: 900 },
			],
		});
		const { out } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
		});
		expect(out).toHaveLength(2);
		expect(sent.find((entry) => entry.path === 'task/get_documents')!.body).toMatchObject({
			limit: 2,
			offset: 0,
		});
		expect(sent.find((entry) => entry.path === 'task/get_documents')!.body).not.toHaveProperty(
			'filters',
		);
	});
});

describe('task comments', () => {
	it('prepends picked mentions and posts plain text once', async () => {
		const sent = dmsApi({ 'task/add_comment': [200, { dvs_document_id: 5 }] });
		const { out, error } = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'addComment',
			documentId: id(5),
			comment: '  Done <b>now</b> @[USER:7]',
			mentions: [12],
		});
		expect(error).toBeUndefined();
		// No lookup of users: the comment is the only request, whatever rights the user has on projects.
		expect(sent.map((entry) => entry.path)).toEqual(['task/add_comment']);
		expect(sent[0].body).toEqual({
			user: 'demo',
			user_access_token: 'tok-secret-1',
			dvs_document_id: 5,
			comment: '@[USER:12] Done <b>now</b> @[USER:7]',
		});
		expect(out[0].json.mentioned_user_ids).toEqual([12, 7]);
	});

	it('refuses an empty comment without a request, and never repeats an uncertain one', async () => {
		const none = dmsApi({});
		const empty = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'addComment',
			documentId: id(5),
			comment: '   ',
		});
		expect(empty.error?.message).toBe('The comment is empty');
		expect(none).toHaveLength(0);
		nock.cleanAll();
		const sent = dmsApi({ 'task/add_comment': [503] });
		const lost = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'addComment',
			documentId: id(5),
			comment: 'hi',
		});
		expect(sent).toHaveLength(1);
		expect(lost.error?.description).toMatch(/would post it twice/);
		// No read can settle it: the message names the task and the comment text.
		expect(lost.error?.message).toMatch(
			/^The write may have been applied: the comment on task 5, "hi"/,
		);
	});
});

describe('errors', () => {
	it('explains 401 and 405 of the DMS, and Continue On Fail keeps the item', async () => {
		dmsApi({ 'task/get_fields': [401] });
		const unauthorised = await runDms('cloudStorageDmsTask', {
			resource: 'task',
			operation: 'getFields',
		});
		expect(unauthorised.error?.message).toMatch(
			/Authentication failed \(401\), or the account has no organisation/,
		);
		nock.cleanAll();
		dmsApi({ 'client/get_document': [405] });
		const missing = await runDms(
			'cloudStorageDmsTask',
			{ resource: 'client', operation: 'get', documentId: id(9) },
			true,
		);
		expect(missing.out[0].json).toMatchObject({ error: 'No client with ID 9 was found' });
		expect(String(missing.out[0].json.description)).toMatch(/write permission on clients/);
	});
});

describe('contact person get many', () => {
	// The documents name two contact-person filters: company and multi_dropdown_group.
	const CONTACT_FIELDS = [
		{ name: 'name', label: 'Name', type: 'text', required: true, filter: false },
		{
			name: 'company',
			label: 'Company',
			type: 'relation',
			required: false,
			filter: true,
			section: 'client',
			list_action: 'get_documents',
		},
		{
			name: 'multi_dropdown_group',
			label: 'Groups',
			type: 'dropdown_ids',
			required: false,
			filter: true,
			options: [
				{ id: 61, display_name: 'Customer' },
				{ id: 63, display_name: 'Press' },
			],
		},
	];

	it('filters on company and on multi_dropdown_group (group names or IDs)', async () => {
		const sent = dmsApi({
			'contact_person/get_fields': [200, { fields: CONTACT_FIELDS }],
			'client/get_document': [200, { dvs_document_id: 7, name: 'Acme' }],
			'contact_person/get_documents': [
				200,
				{ items: [{ dvs_document_id: 4, name: 'Ada' }], total: 1, limit: 50, offset: 0 },
			],
		});
		const { out, error } = await runDms('cloudStorageContactPerson', {
			resource: 'contactPerson',
			operation: 'getAll',
			returnAll: false,
			limit: 50,
			filters: {
				conditions: [
					{ field: 'company', values: '7' },
					{ field: 'multi_dropdown_group', values: ['Customer', '63'] },
				],
			},
		});
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1);
		const [request] = sent.filter((entry) => entry.path === 'contact_person/get_documents');
		expect(request.body.filters).toEqual({ company: [7], multi_dropdown_group: [61, 63] });
	});
});
