/**
 * Contact Person → Create after a lost answer: the same create proof as a task's (nodes/shared/dms/create-proof.ts),
 * over the newest contact persons of the account (the register has no project): exactly one new one holding
 * the values sent is this create; none, also after a pause, means it was not created and it is sent again;
 * several, or one that differs, is "may have been applied" naming their ids, never sent twice.
 */
import { accountApi, dmsApi, mapped, ours, runDms, type Sent } from '../../unit/dms/run-dms';
import { offlineWithNock } from '../../unit/offline';

offlineWithNock({ allMocksUsed: true });

const CONTACT_FIELDS = [
	{ name: 'name', label: 'Name', type: 'text', required: true, filter: false },
	{ name: 'email', label: 'Email', type: 'text', required: false, filter: false },
];
const FIELDS: [number, unknown] = [200, { fields: CONTACT_FIELDS }];
const ADA = {
	dvs_document_id: 21,
	name: 'Ada Lovelace',
	email: 'ada@example.test',
	...ours('2026-11-28 10:00:07'),
};
const OLDER = {
	dvs_document_id: 20,
	name: 'Charles Babbage',
	email: 'cb@example.test',
	...ours('2026-11-28 10:00:00'),
};

/** get_documents' answer: the newest contact persons, newest first. */
const newest = (...items: object[]): [number, unknown] => [
	200,
	{ items, total: items.length, limit: 50, offset: 0 },
];

const create = () =>
	runDms('cloudStorageContactPerson', {
		resource: 'contactPerson',
		operation: 'create',
		fields: mapped({ name: 'Ada Lovelace', email: 'ada@example.test' }),
	});
const creates = (sent: Sent[]) =>
	sent.filter((entry) => entry.path === 'contact_person/create_document');
const listings = (sent: Sent[]) =>
	sent.filter((entry) => entry.path === 'contact_person/get_documents');

describe('contact person create after a lost answer', () => {
	beforeEach(() => accountApi());
	it('one new contact person holding the values sent: created, not sent twice', async () => {
		const sent = dmsApi({
			'contact_person/get_fields': FIELDS,
			'contact_person/get_documents': [newest(OLDER), newest(ADA, OLDER)],
			'contact_person/create_document': [500],
			'contact_person/get_document': [200, ADA],
		});
		const { out, error } = await create();
		expect(error).toBeUndefined();
		expect(creates(sent)).toHaveLength(1);
		expect(out.map((item) => item.json)).toEqual([
			{ ...ADA, outcome: 'applied-after-lost-answer' },
		]);
		// The register has no project: the newest of the account are compared, without a filter.
		expect(listings(sent)).toHaveLength(2);
		expect(listings(sent)[0].body.filters).toBeUndefined();
		const read = sent.find((entry) => entry.path === 'contact_person/get_document');
		expect(read?.body).toMatchObject({ dvs_document_id: 21 });
	});

	it('no new contact person, also after a pause: not created, sent again once', async () => {
		const sent = dmsApi({
			'contact_person/get_fields': FIELDS,
			'contact_person/get_documents': newest(OLDER),
			'contact_person/create_document': [[500], [200, { dvs_document_id: 21 }]],
			'contact_person/get_document': [200, ADA],
		});
		const { out, error } = await create();
		expect(error).toBeUndefined();
		expect(creates(sent)).toHaveLength(2);
		expect(creates(sent)[1].body).toEqual(creates(sent)[0].body);
		// Noted before, then looked at twice (at once and after the pause) before sending again.
		expect(listings(sent)).toHaveLength(3);
		expect(out.map((item) => item.json)).toEqual([{ ...ADA, outcome: 'applied' }]);
	});

	it('two new contact persons that fit: "may have been applied", naming both, not sent again', async () => {
		const twin = { ...ADA, dvs_document_id: 22 };
		const sent = dmsApi({
			'contact_person/get_fields': FIELDS,
			'contact_person/get_documents': [newest(OLDER), newest(twin, ADA, OLDER)],
			'contact_person/create_document': [500],
		});
		const { out, error } = await create();
		expect(out).toEqual([]);
		expect(creates(sent)).toHaveLength(1);
		expect(error?.message).toMatch(/may have been applied/);
		expect(error?.message).toMatch(
			/new contact persons since it was sent \(22, 21\) cannot be told apart: 2 of them hold the values sent/,
		);
		expect(error?.description).toMatch(
			/Another run with this credential may have created contact persons meanwhile/,
		);
	});

	it('one new contact person that differs from what was sent: "may have been applied", naming it', async () => {
		const other = {
			...OLDER,
			dvs_document_id: 23,
			name: 'Grace Hopper',
			email: 'grace@example.test',
			date_created: '2026-11-28 10:00:07',
		};
		const sent = dmsApi({
			'contact_person/get_fields': FIELDS,
			'contact_person/get_documents': [newest(OLDER), newest(other, OLDER)],
			'contact_person/create_document': [500],
		});
		const { error } = await create();
		expect(creates(sent)).toHaveLength(1);
		expect(error?.message).toMatch(/may have been applied.*\(23\).*0 of them hold the values sent/);
	});
});
