import {
	convertValues,
	DmsInputError,
	toList,
	type ConvertLookup,
} from '../../../nodes/shared/dms/convert';
import { buildFilters } from '../../../nodes/shared/dms/filters';
import { mapperFields } from '../../../nodes/shared/dms/mapper';
import { updateApplied } from '../../../nodes/shared/dms/operations';
import type { FieldDescriptor } from '../../../nodes/shared/dms/types';
import { collectByOffsetTotal } from '../../../nodes/shared/transport';
import { TASK_FIELDS } from './task-fields';

const schema = [
	...TASK_FIELDS,
	{
		name: 'labels',
		label: 'Labels',
		type: 'dropdown_ids',
		options: [
			{ id: 1, display_name: 'A' },
			{ id: 2, display_name: 'B' },
			{ id: 3, display_name: 'b' },
		],
	},
	{ name: 'contacts', label: 'Contacts', type: 'relation_ids', section: 'contact_person' },
	{ name: 'full_number', label: 'Number', type: 'readonly_thing' },
] as FieldDescriptor[];

const lookup: ConvertLookup = {
	users: async (field, values) =>
		field.depends_on && values[field.depends_on] === 3
			? [
					{ id: 7, display_name: 'Ann' },
					{ id: 8, display_name: 'Ben' },
				]
			: [{ id: 1, display_name: 'Root' }],
	documentExists: async (section, id) =>
		(section === 'project_2' && id === 3) || (section === 'contact_person' && id < 100),
};

const convert = (
	input: Record<string, unknown>,
	mode: 'create' | 'update' = 'create',
	extra = {},
) => convertValues(schema, input, lookup, { section: 'task', mode, ...extra });

describe('value conversion', () => {
	it("converts names, ids, lists and dates to the spec's input types", async () => {
		await expect(
			convert({
				dvs_project_id: '3',
				name: 'N',
				followers: ['Ann', { id: 8 }],
				labels: '[1, "A", 2]',
				contacts: '5, 6',
				date_due: new Date('2026-02-03T00:00:00Z'),
			}),
		).resolves.toEqual({
			dvs_project_id: 3,
			name: 'N',
			followers: [7, 8],
			labels: [1, 2],
			contacts: [5, 6],
			date_due: '2026-02-03',
		});
	});

	it.each([
		[{ name: 'N', dvs_project_id: 3, labels: 'b' }, /"b" is ambiguous for Labels/],
		[{ name: 'N', dvs_project_id: 3, labels: '[1,' }, /not a valid JSON array/],
		[{ name: 'N', dvs_project_id: 3, date_due: '2026-02-30' }, /Due date must be a date/],
		[{ name: 'N', dvs_project_id: 3, estimated_hours: '1h' }, /Estimated hours must be a number/],
		[{ name: 'N', dvs_project_id: 3, contacts: 'x' }, /Contacts needs the ID of a contact person/],
		[{ name: 'N', dvs_project_id: 3, contacts: '100' }, /Unknown contact person 100 for Contacts/],
		[{ name: 'N', dvs_project_id: 3, full_number: 'x' }, /Number is read-only/],
		[{ name: { a: 1 }, dvs_project_id: 3 }, /Name must be text/],
		[{ dvs_project_id: 3 }, /Missing required field: Name/],
		[{}, /Missing required fields: Project, Name/],
	])('rejects %j', async (input, message) => {
		await expect(convert(input)).rejects.toThrow(message);
	});

	it('checks user fields against the project of the update context, and clears to null or []', async () => {
		await expect(
			convert({ responsible: 'ben' }, 'update', {
				context: { dvs_project_id: 3 },
				clear: ['followers', 'date_due'],
			}),
		).resolves.toEqual({ responsible: 8, followers: [], date_due: null });
		await expect(
			convert({ responsible: 'Root' }, 'update', { context: { dvs_project_id: 3 } }),
		).rejects.toBeInstanceOf(DmsInputError);
	});

	it('reads comma lists and JSON arrays', () => {
		expect(toList(' 1, 2 ,,3')).toEqual(['1', '2', '3']);
		expect(toList([{ id: 4 }, 5])).toEqual([4, 5]);
		expect(toList({ id: 9, display_name: 'x' })).toEqual([9]);
	});
});

describe('filters', () => {
	it('merges values of one field (OR) and keeps fields apart (AND)', async () => {
		await expect(
			buildFilters(
				schema,
				[
					{ field: 'dropdown_status', values: ['Open'] },
					{ field: 'dvs_project_id', values: '3' },
					{ field: 'dropdown_status', values: [33, 31] },
				],
				lookup,
			),
		).resolves.toEqual({ dropdown_status: [31, 33], dvs_project_id: [3] });
	});

	it('names the filterable fields when a field is not one', async () => {
		await expect(
			buildFilters(schema, [{ field: 'name', values: 'x' }], lookup),
		).rejects.toMatchObject({
			message: '"name" cannot be used as a filter',
			description:
				'This organisation allows filtering on: Project (dvs_project_id), Status (dropdown_status).',
		});
		await expect(
			buildFilters(schema, [{ field: 'dropdown_status', values: [] }], lookup),
		).rejects.toThrow(/has no values/);
	});
});

describe('resource mapper fields', () => {
	it('labels, marks required, lists dropdowns by name and says how lists are given', () => {
		const fields = mapperFields(
			'task',
			schema,
			'update',
			{ users: [{ id: 7, display_name: 'Ann' }] },
			['dvs_project_id'],
		);
		expect(fields.map((field) => field.id)).toEqual([
			'name',
			'description',
			'dropdown_status',
			'responsible',
			'followers',
			'estimated_hours',
			'date_due',
			'labels',
			'contacts',
		]);
		const byId = Object.fromEntries(fields.map((field) => [field.id, field]));
		expect(byId.dropdown_status).toMatchObject({
			type: 'options',
			options: [
				{ name: 'Open', value: 31 },
				{ name: 'Done', value: 33 },
			],
			required: false,
		});
		expect(byId.responsible).toMatchObject({ type: 'options', displayName: 'Responsible' });
		expect(byId.followers.displayName).toBe(
			'Followers (user names or IDs, comma-separated; replaces the current selection)',
		);
		expect(byId.date_due.displayName).toBe('Due date (YYYY-MM-DD)');
		expect(byId.estimated_hours.displayName).toBe('Estimated hours (number, e.g. 2.5)');
		const create = mapperFields('task', schema, 'create', {});
		expect(create.find((field) => field.id === 'name')!.required).toBe(true);
		expect(create.find((field) => field.id === 'responsible')).toMatchObject({
			type: 'string',
			displayName: 'Responsible (user ID or name)',
		});
		expect(create.find((field) => field.id === 'dvs_project_id')).toMatchObject({
			type: 'string',
			displayName: 'Project (ID)',
			required: true,
		});
	});
});

describe('update reconciliation', () => {
	it('compares ids of references and lists regardless of order', () => {
		const doc = {
			dvs_document_id: 1,
			dropdown_status: { id: 33, display_name: 'Done' },
			followers: [{ id: 8 }, { id: 7 }],
			date_due: null,
		};
		expect(updateApplied(doc, { dropdown_status: 33, followers: [7, 8], date_due: null })).toBe(
			true,
		);
		expect(updateApplied(doc, { dropdown_status: 31 })).toBe(false);
		expect(updateApplied(doc, { name: 'x' })).toBe(false);
	});
});

describe('bounded concurrency after the first page', () => {
	const range = (from: number, to: number) =>
		Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

	it('fetches the remaining pages at most N at a time, in order', async () => {
		let inFlight = 0;
		let peak = 0;
		const calls: number[] = [];
		const items = await collectByOffsetTotal(
			async (offset, limit) => {
				calls.push(offset);
				inFlight++;
				peak = Math.max(peak, inFlight);
				await new Promise((resolve) => setImmediate(resolve));
				inFlight--;
				return { items: range(offset, Math.min(offset + limit, 1050)), total: 1050 };
			},
			{ pageSize: 200, concurrency: 3 },
		);
		expect(items).toEqual(range(0, 1050));
		expect(calls.sort((a, b) => a - b)).toEqual([0, 200, 400, 600, 800, 1000]);
		expect(peak).toBe(3);
	});

	it('falls back to one page at a time after a short page, and follows a growing total', async () => {
		let total = 600;
		const items = await collectByOffsetTotal(
			async (offset, limit) => {
				// The list grew after the first page: a later page reports the new total.
				if (offset > 0) total = 650;
				return { items: range(offset, Math.min(offset + limit, total)), total };
			},
			{ pageSize: 200, concurrency: 4 },
		);
		expect(items).toEqual(range(0, 650));
	});

	it('respects max with concurrency', async () => {
		const limits: number[] = [];
		const items = await collectByOffsetTotal(
			async (offset, limit) => (
				limits.push(limit),
				{ items: range(offset, offset + limit), total: 5000 }
			),
			{ pageSize: 200, max: 450, concurrency: 4 },
		);
		expect(items).toHaveLength(450);
		expect(limits.sort((a, b) => a - b)).toEqual([50, 200, 200]);
	});
});

describe('unknown registers', () => {
	it('refuses a relation to a register the API does not offer, before any lookup', async () => {
		const odd = [
			{ name: 'name', type: 'text', required: true },
			{ name: 'invoice', label: 'Invoice', type: 'relation', section: 'invoice', filter: true },
		] as FieldDescriptor[];
		const never: ConvertLookup = {
			users: async () => [],
			documentExists: async () => {
				throw new Error('no request expected');
			},
		};
		await expect(
			convertValues(odd, { name: 'x', invoice: 5 }, never, { section: 'task', mode: 'create' }),
		).rejects.toThrow('Invoice refers to the unknown register "invoice"');
		await expect(buildFilters(odd, [{ field: 'invoice', values: [5] }], never)).rejects.toThrow(
			/unknown register/,
		);
	});
});
