/**
 * Calendar and Contacts Trigger polls against nock'd DAV answers, through a hand-made poll context whose
 * static data the test carries from poll to poll: first poll records, sync-collection reports each change
 * once, a quiet poll is one request, rejected tokens and servers without sync fall back to an ETag
 * comparison, and a failed poll neither loses nor repeats anything.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	byUrl,
	collectionProps,
	DAV,
	etagProp,
	found,
	gone,
	ics,
	multistatus,
	poll,
	vcard,
	xmlText,
	type Prefixes,
	type SentRequest,
} from './poll-context';
import { withDurableCursors } from '../durable-env';
import { offlineWithNock } from '../offline';

// Retries of a failing read wait with back-off; the waits are skipped here, the attempts are not.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

offlineWithNock({ allMocksUsed: true });

const ALL = ['created', 'updated', 'deleted'];
const calendarParams = (path: string, events = ALL) => ({
	calendar: byUrl(path),
	trigger: 'changes',
	events,
});
const calData = (data: string, p?: Prefixes) =>
	`<${p?.cal ?? 'C'}:calendar-data>${xmlText(data)}</${p?.cal ?? 'C'}:calendar-data>`;
const cardData = (data: string) => `<A:address-data>${xmlText(data)}</A:address-data>`;
const summary = (requests: SentRequest[]) =>
	requests.map((request) =>
		`${request.method} ${new URL(request.url).pathname} ${request.headers.depth ?? ''}`.trim(),
	);
const tokenSent = (request: SentRequest) =>
	/<d:sync-token>([^<]*)<\/d:sync-token>|<d:sync-token\/>/.exec(request.body)?.[1] ?? '';

/** The first poll against a sync-capable calendar holding the given members; returns the static data. */
async function baseline(
	path: string,
	members: Record<string, string>,
	token = 'tok-1',
): Promise<IDataObject> {
	nock(DAV)
		.intercept(path, 'PROPFIND')
		.reply(
			207,
			collectionProps(path, 'calendar', ['calendar-query', 'calendar-multiget', 'sync-collection']),
		);
	nock(DAV)
		.intercept(path, 'REPORT')
		.reply(
			207,
			multistatus(
				Object.entries(members)
					.map(([name, etag]) => found(`${path}${name}`, etagProp(etag)))
					.join(''),
				{ syncToken: token },
			),
		);
	const staticData: IDataObject = {};
	const first = await poll('calendar', calendarParams(path), staticData);
	expect(first.emitted).toBeNull();
	return staticData;
}

describe('Calendar Trigger over sync-collection', () => {
	it('first poll: reads the collection, runs one initial sync, records token and ETags exactly as sent, emits nothing', async () => {
		const path = '/cal/first/';
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.reply(207, collectionProps(path, 'calendar', ['calendar-multiget', 'sync-collection']));
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					found(`${path}a.ics`, etagProp('"a-1"')) + found(`${path}b%40x.ics`, etagProp('W/"b-1"')),
					{ syncToken: 'http://srv/ns/sync/7' },
				),
			);
		const staticData: IDataObject = {};
		const first = await poll('calendar', calendarParams(path), staticData);
		expect(first.emitted).toBeNull();
		expect(summary(first.requests)).toEqual([`PROPFIND ${path} 0`, `REPORT ${path} 0`]);
		expect(first.requests[1].body).toMatch(
			/<d:sync-collection[^>]*>.*<d:sync-level>1<\/d:sync-level>.*<d:getetag\/>/s,
		);
		expect(tokenSent(first.requests[1])).toBe('');
		expect(staticData.dav).toEqual({
			collection: `${DAV}${path}`,
			sync: true,
			multiget: true,
			token: 'http://srv/ns/sync/7',
			etags: { [`${DAV}${path}a.ics`]: '"a-1"', [`${DAV}${path}b%40x.ics`]: 'W/"b-1"' },
		});
	});

	it('reports created, updated and deleted (a 404 response) once each, whatever the prefixes; a quiet poll is one request', async () => {
		const path = '/cal/changes/';
		const staticData = await baseline(path, {
			'keep.ics': '"k-1"',
			'edit%20me.ics': '"e-1"',
			'gone%40x.ics': '"g-1"',
		});
		const odd: Prefixes = { dav: 'ns0', cal: 'cal1', card: 'x' };
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					// The server encodes differently than before: `edit me` unencoded is the same object.
					found(`${DAV}${path}edit me.ics`, etagProp('"e-2"', odd), odd) +
						found(`${path}new.ics`, etagProp('"n-1"', odd), odd) +
						gone(`${path}gone@x.ics`, odd),
					{ prefixes: odd, syncToken: 'tok-2' },
				),
			);
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					found(
						`${path}edit%20me.ics`,
						etagProp('"e-2"', odd) + calData(ics('edit', 'Edited', '20300301T090000Z'), odd),
						odd,
					) +
						found(
							`${path}new.ics`,
							etagProp('"n-1"', odd) + calData(ics('new', 'New', '20300302T090000Z'), odd),
							odd,
						),
					{ prefixes: odd },
				),
			);
		const second = await poll('calendar', calendarParams(path), staticData);
		expect(summary(second.requests)).toEqual([`REPORT ${path} 0`, `REPORT ${path} 1`]);
		expect(tokenSent(second.requests[0])).toBe('tok-1');
		expect(second.requests[1].body).toContain('<c:calendar-multiget');
		expect(
			second.items.map((item) => [item.event, item.url, item.etag, item.summary ?? null]),
		).toEqual([
			['updated', `${DAV}${path}edit%20me.ics`, '"e-2"', 'Edited'],
			['created', `${DAV}${path}new.ics`, '"n-1"', 'New'],
			['deleted', `${DAV}${path}gone@x.ics`, '"g-1"', null],
		]);
		expect(second.items[2]).toEqual({
			event: 'deleted',
			eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
			url: `${DAV}${path}gone@x.ics`,
			etag: '"g-1"',
		});
		expect((staticData.dav as IDataObject).token).toBe('tok-2');
		expect(Object.keys((staticData.dav as IDataObject).etags as object).sort()).toEqual([
			`${DAV}${path}edit%20me.ics`,
			`${DAV}${path}keep.ics`,
			`${DAV}${path}new.ics`,
		]);

		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus('', { syncToken: 'tok-2' }));
		const quiet = await poll('calendar', calendarParams(path), staticData);
		expect(quiet.emitted).toBeNull();
		expect(summary(quiet.requests)).toEqual([`REPORT ${path} 0`]);
		expect(tokenSent(quiet.requests[0])).toBe('tok-2');
	});

	it('gives each change the same eventId when the same static data is polled again (a crash before n8n kept it)', async () => {
		const path = '/cal/replayed/';
		const saved = await baseline(path, { 'a.ics': '"a-1"', 'b.ics': '"b-1"' });
		const answers = () => {
			nock(DAV)
				.intercept(path, 'REPORT')
				.reply(
					207,
					multistatus(found(`${path}a.ics`, etagProp('"a-2"')) + gone(`${path}b.ics`), {
						syncToken: 'tok-2',
					}),
				);
			nock(DAV)
				.intercept(path, 'REPORT')
				.reply(
					207,
					multistatus(
						found(`${path}a.ics`, etagProp('"a-2"') + calData(ics('a', 'A', '20300301T090000Z'))),
					),
				);
		};
		const ids = (run: { items: IDataObject[] }) =>
			run.items.map((item) => [item.event, item.eventId]);
		answers();
		const second = await poll('calendar', calendarParams(path), structuredClone(saved));
		answers();
		const replayed = await poll('calendar', calendarParams(path), structuredClone(saved));
		expect(ids(second).map(([event]) => event)).toEqual(['updated', 'deleted']);
		expect(ids(replayed)).toEqual(ids(second));
		expect(ids(second)[0][1]).not.toBe(ids(second)[1][1]);
	});

	it("with n8n's durable poll cursors the first poll emits one empty batch, so n8n commits the state it staged", async () => {
		const path = '/cal/durable/';
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.reply(207, collectionProps(path, 'calendar', ['calendar-multiget', 'sync-collection']));
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus(found(`${path}a.ics`, etagProp('"a-1"')), { syncToken: 'tok-1' }));
		const staticData: IDataObject = {};
		const first = await withDurableCursors(
			async () => await poll('calendar', calendarParams(path), staticData),
		);
		expect(first.emitted).toEqual([[]]);
		expect((staticData.dav as IDataObject).token).toBe('tok-1');
	});

	it('reports only the chosen change types, yet moves past the others', async () => {
		const path = '/cal/only-deleted/';
		const staticData = await baseline(path, { 'a.ics': '"a-1"', 'b.ics': '"b-1"' });
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(found(`${path}a.ics`, etagProp('"a-2"')) + gone(`${path}b.ics`), {
					syncToken: 'tok-2',
				}),
			);
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					found(`${path}a.ics`, etagProp('"a-2"') + calData(ics('a', 'A', '20300301T090000Z'))),
				),
			);
		const second = await poll('calendar', calendarParams(path, ['deleted']), staticData);
		expect(second.items).toEqual([
			{
				event: 'deleted',
				eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
				url: `${DAV}${path}b.ics`,
				etag: '"b-1"',
			},
		]);
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus('', { syncToken: 'tok-2' }));
		expect(
			(await poll('calendar', calendarParams(path, ['deleted']), staticData)).emitted,
		).toBeNull();
	});

	it('an object created and deleted between two polls is reported neither way', async () => {
		const path = '/cal/flash/';
		const staticData = await baseline(path, {});
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus(gone(`${path}flash.ics`), { syncToken: 'tok-2' }));
		const second = await poll('calendar', calendarParams(path), staticData);
		expect(second.emitted).toBeNull();
		expect(second.requests).toHaveLength(1);
	});

	it('an object gone between the sync and the read is not reported created, nor deleted later', async () => {
		const path = '/cal/vanish/';
		const staticData = await baseline(path, {});
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus(found(`${path}v.ics`, etagProp('"v-1"')), { syncToken: 'tok-2' }));
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus(gone(`${path}v.ics`)));
		expect((await poll('calendar', calendarParams(path), staticData)).emitted).toBeNull();
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus(gone(`${path}v.ics`), { syncToken: 'tok-3' }));
		expect((await poll('calendar', calendarParams(path), staticData)).emitted).toBeNull();
	});

	it('picking another calendar starts over: records, emits nothing', async () => {
		const staticData = await baseline('/cal/one/', { 'a.ics': '"a-1"' });
		nock(DAV)
			.intercept('/cal/two/', 'PROPFIND')
			.reply(207, collectionProps('/cal/two/', 'calendar', ['sync-collection']));
		nock(DAV)
			.intercept('/cal/two/', 'REPORT')
			.reply(207, multistatus(found('/cal/two/z.ics', etagProp('"z"')), { syncToken: 'two-1' }));
		const other = await poll('calendar', calendarParams('/cal/two/'), staticData);
		expect(other.emitted).toBeNull();
		expect(staticData.dav).toMatchObject({
			collection: `${DAV}/cal/two/`,
			token: 'two-1',
			etags: { [`${DAV}/cal/two/z.ics`]: '"z"' },
		});
	});
});

describe.each([403, 409])(
	'a token the server rejects with %i and DAV:valid-sync-token',
	(status) => {
		it('falls back to a full sync compared by ETag: each change once, then incremental again', async () => {
			const path = `/cal/expired-${status}/`;
			const staticData = await baseline(path, {
				'same.ics': '"s-1"',
				'edited.ics': '"e-1"',
				'removed.ics': '"r-1"',
			});
			nock(DAV)
				.intercept(path, 'REPORT')
				.reply(
					status,
					'<?xml version="1.0"?><D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>',
					{ 'Content-Type': 'application/xml' },
				);
			nock(DAV)
				.intercept(path, 'REPORT')
				.reply(
					207,
					multistatus(
						found(`${path}same.ics`, etagProp('"s-1"')) +
							found(`${path}edited.ics`, etagProp('"e-2"')) +
							found(`${path}added.ics`, etagProp('"a-1"')),
						{ syncToken: 'fresh-1' },
					),
				);
			nock(DAV)
				.intercept(path, 'REPORT')
				.reply(
					207,
					multistatus(
						found(
							`${path}edited.ics`,
							etagProp('"e-2"') + calData(ics('e', 'Edited', '20300301T090000Z')),
						) +
							found(
								`${path}added.ics`,
								etagProp('"a-1"') + calData(ics('a', 'Added', '20300301T100000Z')),
							),
					),
				);
			const second = await poll('calendar', calendarParams(path), staticData);
			expect(summary(second.requests)).toEqual([
				`REPORT ${path} 0`,
				`REPORT ${path} 0`,
				`REPORT ${path} 1`,
			]);
			expect(second.requests.slice(0, 2).map(tokenSent)).toEqual(['tok-1', '']);
			expect(second.items.map((item) => [item.event, item.url])).toEqual([
				['updated', `${DAV}${path}edited.ics`],
				['created', `${DAV}${path}added.ics`],
				['deleted', `${DAV}${path}removed.ics`],
			]);
			expect(staticData.dav).toMatchObject({ sync: true, token: 'fresh-1' });

			nock(DAV)
				.intercept(path, 'REPORT')
				.reply(207, multistatus('', { syncToken: 'fresh-1' }));
			const quiet = await poll('calendar', calendarParams(path), staticData);
			expect(quiet.emitted).toBeNull();
			expect(quiet.requests.map(tokenSent)).toEqual(['fresh-1']);
		});
	},
);

describe('servers without sync-collection', () => {
	const path = '/ab/plain/';
	const contactsParams = { addressBook: byUrl(path), events: ALL };
	const listing = (members: Record<string, string>) =>
		multistatus(
			found(path, '<D:resourcetype><D:collection/><A:addressbook/></D:resourcetype>') +
				Object.entries(members)
					.map(([name, etag]) => found(`${path}${name}`, `${etagProp(etag)}<D:resourcetype/>`))
					.join(''),
		);

	it('Contacts Trigger compares a PROPFIND listing by ETag and reads changes with GET; quiet polls are one PROPFIND', async () => {
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '0')
			.reply(207, collectionProps(path, 'addressbook', []));
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '1')
			.reply(207, listing({ 'a.vcf': '"a-1"', 'b%C3%BC.vcf': '"b-1"' }));
		const staticData: IDataObject = {};
		const first = await poll('contacts', contactsParams, staticData);
		expect(first.emitted).toBeNull();
		expect(staticData.dav).toMatchObject({
			sync: false,
			multiget: false,
			etags: { [`${DAV}${path}a.vcf`]: '"a-1"', [`${DAV}${path}b%C3%BC.vcf`]: '"b-1"' },
		});
		expect((staticData.dav as IDataObject).token).toBeUndefined();

		nock(DAV)
			.intercept(path, 'PROPFIND')
			.reply(207, listing({ 'a.vcf': '"a-2"', 'c.vcf': '"c-1"' }));
		nock(DAV).get(`${path}a.vcf`).reply(200, vcard('a', 'Ada Lovelace'), { ETag: '"a-2"' });
		nock(DAV).get(`${path}c.vcf`).reply(200, vcard('c', 'Charles Babbage'), { ETag: '"c-1"' });
		const second = await poll('contacts', contactsParams, staticData);
		expect(summary(second.requests)).toEqual([
			`PROPFIND ${path} 1`,
			`GET ${path}a.vcf`,
			`GET ${path}c.vcf`,
		]);
		expect(second.items.map((item) => [item.event, item.fullName ?? item.url, item.etag])).toEqual([
			['updated', 'Ada Lovelace', '"a-2"'],
			['created', 'Charles Babbage', '"c-1"'],
			['deleted', `${DAV}${path}b%C3%BC.vcf`, '"b-1"'],
		]);

		nock(DAV)
			.intercept(path, 'PROPFIND')
			.reply(207, listing({ 'a.vcf': '"a-2"', 'c.vcf': '"c-1"' }));
		const quiet = await poll('contacts', contactsParams, staticData);
		expect(quiet.emitted).toBeNull();
		expect(summary(quiet.requests)).toEqual([`PROPFIND ${path} 1`]);
	});

	it('a server that advertises sync-collection but answers 501 is compared by ETag, and not asked to sync again', async () => {
		const book = '/ab/liar/';
		const params = { addressBook: byUrl(book), events: ALL };
		const members = (etag: string) =>
			multistatus(
				found(book, '<D:resourcetype><D:collection/><A:addressbook/></D:resourcetype>') +
					found(`${book}x.vcf`, `${etagProp(etag)}<D:resourcetype/>`),
			);
		nock(DAV)
			.intercept(book, 'PROPFIND')
			.matchHeader('depth', '0')
			.reply(
				207,
				collectionProps(book, 'addressbook', ['sync-collection', 'addressbook-multiget']),
			);
		nock(DAV).intercept(book, 'REPORT').reply(501, 'Not Implemented');
		nock(DAV).intercept(book, 'PROPFIND').matchHeader('depth', '1').reply(207, members('"x-1"'));
		const staticData: IDataObject = {};
		expect((await poll('contacts', params, staticData)).emitted).toBeNull();
		expect(staticData.dav).toMatchObject({
			sync: false,
			etags: { [`${DAV}${book}x.vcf`]: '"x-1"' },
		});

		nock(DAV).intercept(book, 'PROPFIND').reply(207, members('"x-2"'));
		nock(DAV)
			.intercept(book, 'REPORT')
			.reply(
				207,
				multistatus(found(`${book}x.vcf`, etagProp('"x-2"') + cardData(vcard('x', 'Xavier')))),
			);
		const second = await poll('contacts', params, staticData);
		expect(summary(second.requests)).toEqual([`PROPFIND ${book} 1`, `REPORT ${book} 1`]);
		expect(second.requests[1].body).toContain('<card:addressbook-multiget');
		expect(second.items.map((item) => [item.event, item.fullName])).toEqual([
			['updated', 'Xavier'],
		]);
	});
});

describe('supported-report-set in the forms servers send', () => {
	// Xandikos 0.2.8 verbatim: no <report> wrapper, prefixes ns0/ns1.
	const xandikos = (href: string) =>
		`<ns0:multistatus xmlns:ns0="DAV:" xmlns:ns1="urn:ietf:params:xml:ns:caldav"><ns0:response><ns0:href>${href}</ns0:href><ns0:propstat><ns0:status>HTTP/1.1 200 OK</ns0:status><ns0:prop>` +
		'<ns0:resourcetype><ns0:collection /><ns1:calendar /></ns0:resourcetype>' +
		'<ns0:supported-report-set><ns0:supported-report><ns1:calendar-multiget /></ns0:supported-report><ns0:supported-report><ns1:calendar-query /></ns0:supported-report><ns0:supported-report><ns0:expand-property /></ns0:supported-report><ns0:supported-report><ns0:sync-collection /></ns0:supported-report><ns0:supported-report><ns1:free-busy-query /></ns0:supported-report></ns0:supported-report-set>' +
		'<ns0:sync-token>68550843516060bdecad44243962da2c4493636f</ns0:sync-token></ns0:prop></ns0:propstat></ns0:response></ns0:multistatus>';

	it('reads sync-collection and calendar-multiget without the <report> wrapper (Xandikos)', async () => {
		const path = '/user/calendars/bare/';
		nock(DAV).intercept(path, 'PROPFIND').reply(207, xandikos(path));
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus(found(`${path}a.ics`, etagProp('"a-1"')), { syncToken: 'tok-1' }));
		const staticData: IDataObject = {};
		const first = await poll('calendar', calendarParams(path), staticData);
		expect(summary(first.requests)).toEqual([`PROPFIND ${path} 0`, `REPORT ${path} 0`]);
		expect(staticData.dav).toMatchObject({ sync: true, multiget: true, token: 'tok-1' });
	});

	it('no report set at all: tries sync-collection once, falls back to an ETag comparison when refused', async () => {
		const path = '/cal/silent/';
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '0')
			.reply(
				207,
				multistatus(found(path, '<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>')),
			);
		nock(DAV).intercept(path, 'REPORT').reply(501, 'Not Implemented');
		nock(DAV)
			.intercept(path, 'PROPFIND')
			.matchHeader('depth', '1')
			.reply(
				207,
				multistatus(
					found(path, '<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>') +
						found(`${path}a.ics`, `${etagProp('"a-1"')}<D:resourcetype/>`),
				),
			);
		const staticData: IDataObject = {};
		const first = await poll('calendar', calendarParams(path), staticData);
		expect(summary(first.requests)).toEqual([
			`PROPFIND ${path} 0`,
			`REPORT ${path} 0`,
			`PROPFIND ${path} 1`,
		]);
		expect(staticData.dav).toMatchObject({
			sync: false,
			multiget: false,
			etags: { [`${DAV}${path}a.ics`]: '"a-1"' },
		});
	});
});

describe('a failed poll loses nothing and repeats nothing', () => {
	it('a sync REPORT failing with 500 on every attempt: error names the cause, state stays, the next poll reports the change once', async () => {
		const path = '/cal/flaky/';
		const staticData = await baseline(path, { 'a.ics': '"a-1"' });
		const before = structuredClone(staticData);
		// With a token sent, a 500 starts a full sync (a known server answers 500 to a token it lost); that fails
		// the same way twice, so retrying stops early: three requests, not six.
		nock(DAV).intercept(path, 'REPORT').times(3).reply(500, 'Internal Server Error');
		const failed = poll('calendar', calendarParams(path), staticData);
		await expect(failed).rejects.toThrow(/500/);
		const error = (await failed.catch((caught: unknown) => caught)) as Error & {
			description?: string;
		};
		expect(`${error.message} ${error.description ?? ''}`).toMatch(/server error|500/i);
		expect(`${error.message} ${error.description ?? ''}`).not.toMatch(
			/dav-secret-1|Basic |at .*\.ts:\d+/,
		);
		expect(staticData).toEqual(before);

		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus(found(`${path}a.ics`, etagProp('"a-2"')), { syncToken: 'tok-2' }));
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					found(`${path}a.ics`, etagProp('"a-2"') + calData(ics('a', 'A2', '20300301T090000Z'))),
				),
			);
		const next = await poll('calendar', calendarParams(path), staticData);
		expect(tokenSent(next.requests[0])).toBe('tok-1');
		expect(next.items.map((item) => [item.event, item.summary])).toEqual([['updated', 'A2']]);
	});

	it('the sync succeeds but reading the objects drops every time: the token is not advanced; next poll emits once, the one after nothing', async () => {
		const path = '/cal/dropped/';
		const staticData = await baseline(path, { 'a.ics': '"a-1"' });
		const before = structuredClone(staticData);
		const changes = multistatus(found(`${path}new.ics`, etagProp('"n-1"')) + gone(`${path}a.ics`), {
			syncToken: 'tok-2',
		});
		nock(DAV).intercept(path, 'REPORT').reply(207, changes);
		nock(DAV)
			.intercept(path, 'REPORT')
			.times(5)
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		await expect(poll('calendar', calendarParams(path), staticData)).rejects.toThrow();
		expect(staticData).toEqual(before);

		nock(DAV).intercept(path, 'REPORT').reply(207, changes);
		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(
				207,
				multistatus(
					found(`${path}new.ics`, etagProp('"n-1"') + calData(ics('n', 'New', '20300301T090000Z'))),
				),
			);
		const next = await poll('calendar', calendarParams(path), staticData);
		expect(tokenSent(next.requests[0])).toBe('tok-1');
		expect(next.items.map((item) => [item.event, item.url])).toEqual([
			['created', `${DAV}${path}new.ics`],
			['deleted', `${DAV}${path}a.ics`],
		]);

		nock(DAV)
			.intercept(path, 'REPORT')
			.reply(207, multistatus('', { syncToken: 'tok-2' }));
		const after = await poll('calendar', calendarParams(path), staticData);
		expect(after.emitted).toBeNull();
		expect(after.requests.map(tokenSent)).toEqual(['tok-2']);
	});
});
