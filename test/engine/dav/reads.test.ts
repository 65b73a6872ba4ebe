/**
 * Reads against answers real servers send: Get by UID keeps only the exact UID (servers match substrings)
 * and names both objects when two share one; contacts deleted between the listing and the read are
 * skipped; a multiget failed as a whole falls back to one GET each; a search the server fails (Xandikos
 * 0.2.8 answers 500 to every addressbook-query) is answered by reading the book.
 */
import nock from 'nock';

import {
	collectionProps,
	DAV,
	etagProp,
	found,
	ics,
	multistatus,
	vcard,
	xmlText,
} from '../../unit/dav/poll-context';
import { offlineWithNock } from '../../unit/offline';
import { byUrl, run } from './run-node';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const calData = (data: string) => `<C:calendar-data>${xmlText(data)}</C:calendar-data>`;

offlineWithNock({ allMocksUsed: true });

describe('Get by UID', () => {
	const cal = '/cal/work/';
	it('keeps only the exact UID when the server matches substrings; sends no match-type CalDAV does not define', async () => {
		let body = '';
		nock(DAV)
			.intercept(cal, 'REPORT')
			.reply(207, (_uri, sent) => {
				body = String(sent);
				return multistatus(
					found(
						`${cal}a.ics`,
						etagProp('"a"') + calData(ics('team', 'Exact', '20300101T100000Z')),
					) +
						found(
							`${cal}b.ics`,
							etagProp('"b"') + calData(ics('team-offsite', 'Longer', '20300101T100000Z')),
						),
				);
			});
		const { json, error } = await run('cloudStorageCalendar', {
			resource: 'event',
			operation: 'get',
			getBy: 'uid',
			calendar: byUrl(`${DAV}${cal}`),
			uid: 'team',
		});
		expect(error).toBeUndefined();
		expect(json).toEqual([
			expect.objectContaining({ uid: 'team', summary: 'Exact', url: `${DAV}${cal}a.ics` }),
		]);
		expect(body).toContain('<c:text-match collation="i;octet">team</c:text-match>');
	});

	it('two objects with the same UID: an error naming both', async () => {
		nock(DAV)
			.intercept(cal, 'REPORT')
			.reply(
				207,
				multistatus(
					found(`${cal}a.ics`, etagProp('"a"') + calData(ics('twice', 'One', '20300101T100000Z'))) +
						found(
							`${cal}b.ics`,
							etagProp('"b"') + calData(ics('twice', 'Two', '20300101T100000Z')),
						),
				),
			);
		const { error } = await run('cloudStorageCalendar', {
			resource: 'event',
			operation: 'get',
			getBy: 'uid',
			calendar: byUrl(`${DAV}${cal}`),
			uid: 'twice',
		});
		expect(error?.message).toBe(
			`2 objects in this calendar share the UID "twice": ${DAV}${cal}a.ics, ${DAV}${cal}b.ics`,
		);
		expect(error?.description).toMatch(/keep one and delete the others/);
	});
});

describe('contacts read while another client deletes', () => {
	const book = '/ab/friends/';
	const listing = multistatus(
		found(book, '<D:resourcetype><D:collection/><A:addressbook/></D:resourcetype>') +
			found(`${book}a.vcf`, `${etagProp('"a"')}<D:resourcetype/>`) +
			found(`${book}gone.vcf`, `${etagProp('"g"')}<D:resourcetype/>`),
	);

	it('without multiget: a GET answering 404 is skipped, the rest is returned', async () => {
		nock(DAV).intercept(book, 'PROPFIND').matchHeader('depth', '1').reply(207, listing);
		nock(DAV)
			.intercept(book, 'PROPFIND')
			.matchHeader('depth', '0')
			.reply(207, collectionProps(book, 'addressbook', []));
		nock(DAV).get(`${book}a.vcf`).reply(200, vcard('a', 'Ada'), { ETag: '"a"' });
		nock(DAV).get(`${book}gone.vcf`).reply(404, 'Not Found');
		const { json, error } = await run('cloudStorageContacts', {
			resource: 'contact',
			operation: 'getAll',
			addressBook: byUrl(`${DAV}${book}`),
		});
		expect(error).toBeUndefined();
		expect(json.map((item) => item.fullName)).toEqual(['Ada']);
	});

	it('a multiget the server fails as a whole (404 for the batch) falls back to one GET each', async () => {
		nock(DAV).intercept(book, 'PROPFIND').matchHeader('depth', '1').reply(207, listing);
		nock(DAV)
			.intercept(book, 'PROPFIND')
			.matchHeader('depth', '0')
			.reply(207, collectionProps(book, 'addressbook', ['addressbook-multiget']));
		nock(DAV)
			.intercept(book, 'REPORT')
			.reply(404, '<?xml version="1.0"?><D:error xmlns:D="DAV:"/>');
		nock(DAV).get(`${book}a.vcf`).reply(200, vcard('a', 'Ada'), { ETag: '"a"' });
		nock(DAV).get(`${book}gone.vcf`).reply(404, 'Not Found');
		const { json, error } = await run('cloudStorageContacts', {
			resource: 'contact',
			operation: 'getAll',
			addressBook: byUrl(`${DAV}${book}`),
		});
		expect(error).toBeUndefined();
		expect(json.map((item) => item.fullName)).toEqual(['Ada']);
	});
});

it('search: an addressbook-query failed with 500 (Xandikos 0.2.8) is answered by reading the book and matching here', async () => {
	const book = '/user/contacts/b/';
	nock(DAV)
		.intercept(book, 'REPORT')
		.reply(
			500,
			'<html><head><title>500 Internal Server Error</title></head><body><h1>500 Internal Server Error</h1>Server got itself in trouble</body></html>',
		);
	nock(DAV)
		.intercept(book, 'PROPFIND')
		.matchHeader('depth', '1')
		.reply(
			207,
			multistatus(
				found(`${book}z.vcf`, `${etagProp('"z"')}<D:resourcetype/>`) +
					found(`${book}b.vcf`, `${etagProp('"b"')}<D:resourcetype/>`),
			),
		);
	nock(DAV)
		.intercept(book, 'PROPFIND')
		.matchHeader('depth', '0')
		.reply(207, collectionProps(book, 'addressbook', []));
	nock(DAV).get(`${book}z.vcf`).reply(200, vcard('z', 'Zoë Müller-Łukasiewicz'), { ETag: '"z"' });
	nock(DAV).get(`${book}b.vcf`).reply(200, vcard('b', 'Bob Builder'), { ETag: '"b"' });
	const { json, error } = await run('cloudStorageContacts', {
		resource: 'contact',
		operation: 'search',
		addressBook: byUrl(`${DAV}${book}`),
		query: 'MÜLLER',
	});
	expect(error).toBeUndefined();
	expect(json.map((item) => item.fullName)).toEqual(['Zoë Müller-Łukasiewicz']);
});
