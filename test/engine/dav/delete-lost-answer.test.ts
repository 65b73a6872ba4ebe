/**
 * Calendar/Contacts Delete whose answer was lost (a dropped connection, a 5xx): the DELETE is repeated with
 * the same If-Match, which cannot delete a newer version, and the repeat's answer settles the outcome —
 * gone (404, or 412 and a read finds nothing) is deleted, 2xx is deleted now, a 412 with the object still
 * there is another client's change (a conflict naming its ETag), never "may have been applied".
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow } from '../harness';
import { offlineWithNock } from '../../unit/offline';
import { kindIs } from './resource-kinds';

const DAV = 'https://dav.example.test';
const credentials = {
	cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
};
const EVENT_PATH = '/cal/work/e1.ics';
const CONTACT_PATH = '/card/main/c1.vcf';
const EVENT =
	'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VEVENT\r\nUID:e1\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300101T100000Z\r\nSUMMARY:Changed elsewhere\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
const CONTACT = 'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:c1\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n';

async function remove(
	node: 'cloudStorageCalendar' | 'cloudStorageContacts',
	options: IDataObject = {},
) {
	const parameters =
		node === 'cloudStorageCalendar'
			? { resource: 'event', operation: 'delete', eventUrl: `${DAV}${EVENT_PATH}`, options }
			: { resource: 'contact', operation: 'delete', contactUrl: `${DAV}${CONTACT_PATH}`, options };
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'DAV', type: `${PACKAGE_NAME}.${node}`, parameters: parameters as never },
	];
	kindIs(DAV, node === 'cloudStorageCalendar' ? EVENT_PATH : CONTACT_PATH, 'object');
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'DAV') },
		{ credentials: credentials as never },
	);
	return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
}

const dropped = (path: string, etag: string) =>
	nock(DAV)
		.delete(path)
		.matchHeader('if-match', etag)
		.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));

offlineWithNock({ allMocksUsed: true });

describe('Calendar event Delete after a lost answer', () => {
	it('the repeat answers 404: the event is gone, reported deleted with the lost answer named', async () => {
		dropped(EVENT_PATH, '"v1"');
		const repeat = nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(404, '');
		const { json, error } = await remove('cloudStorageCalendar', { etag: '"v1"' });
		expect(error).toBeUndefined();
		expect(repeat.isDone()).toBe(true);
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${EVENT_PATH}`,
				etag: '"v1"',
				goneAfterLostAnswer: true,
				outcome: 'applied-after-lost-answer',
			},
		]);
	});

	it('a 502 (the gateway lost the answer) and then 410 to the repeat: gone, deleted', async () => {
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(502, 'Bad Gateway');
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(410, '');
		const { json, error } = await remove('cloudStorageCalendar', { etag: '"v1"' });
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ deleted: true, goneAfterLostAnswer: true });
	});

	it('the repeat is applied (the first never arrived): deleted now, nothing to qualify', async () => {
		dropped(EVENT_PATH, '"v1"');
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(204, '');
		const { json, error } = await remove('cloudStorageCalendar', { etag: '"v1"' });
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${EVENT_PATH}`,
				etag: '"v1"',
				outcome: 'applied-after-lost-answer',
			},
		]);
	});

	it('the repeat answers 412 and nothing is there (RFC 9110: If-Match fails on a missing object): gone, deleted', async () => {
		dropped(EVENT_PATH, '"v1"');
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(412, '');
		nock(DAV).get(EVENT_PATH).reply(404, '');
		const { json, error } = await remove('cloudStorageCalendar', { etag: '"v1"' });
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ deleted: true, etag: '"v1"', goneAfterLostAnswer: true });
	});

	it('the repeat answers 412 and a newer version is there: a conflict naming its ETag, not "may have been applied"', async () => {
		dropped(EVENT_PATH, '"v1"');
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(412, '');
		nock(DAV).get(EVENT_PATH).times(2).reply(200, EVENT, { ETag: '"v9"' });
		const { json, error } = await remove('cloudStorageCalendar', { etag: '"v1"' });
		expect(json).toEqual([]);
		expect(error?.message).toBe(
			'The event was changed by another client since it was read (412); it was not deleted',
		);
		expect(error?.message).not.toMatch(/may have been applied/);
		expect(error?.description).toMatch(/^Its current ETag is "v9"\./);
	});

	it('the same with "Delete Whatever Version Is There": the newer version is deleted by its ETag and returned', async () => {
		dropped(EVENT_PATH, '"v1"');
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(412, '');
		nock(DAV).get(EVENT_PATH).times(2).reply(200, EVENT, { ETag: '"v9"' });
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v9"').reply(204, '');
		const { json, error } = await remove('cloudStorageCalendar', {
			etag: '"v1"',
			deleteIfChanged: true,
		});
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${EVENT_PATH}`,
				etag: '"v9"',
				changedByOtherClient: expect.objectContaining({
					summary: 'Changed elsewhere',
					etag: '"v9"',
				}),
				outcome: 'applied-after-lost-answer',
			},
		]);
	});

	it('without an ETag (the version there is read first): a 404 to the repeat is gone, deleted', async () => {
		nock(DAV).get(EVENT_PATH).reply(200, EVENT, { ETag: '"now"' });
		dropped(EVENT_PATH, '"now"');
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"now"').reply(404, '');
		const { json, error } = await remove('cloudStorageCalendar');
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${EVENT_PATH}`,
				etag: '"now"',
				goneAfterLostAnswer: true,
				outcome: 'applied-after-lost-answer',
			},
		]);
	});

	it('the repeat answers a 207 whose only response is an inner 404: gone, deleted', async () => {
		dropped(EVENT_PATH, '"v1"');
		nock(DAV)
			.delete(EVENT_PATH)
			.matchHeader('if-match', '"v1"')
			.reply(
				207,
				`<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>${EVENT_PATH}</D:href><D:status>HTTP/1.1 404 Not Found</D:status></D:response></D:multistatus>`,
			);
		const { json, error } = await remove('cloudStorageCalendar', { etag: '"v1"' });
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ deleted: true, goneAfterLostAnswer: true });
	});

	it('a 404 to a first DELETE whose answer was not lost stays an error: nothing was deleted by this item', async () => {
		nock(DAV).delete(EVENT_PATH).matchHeader('if-match', '"v1"').reply(404, '');
		const { json, error } = await remove('cloudStorageCalendar', { etag: '"v1"' });
		expect(json).toEqual([]);
		expect(error?.message).toBe('The event does not exist (404)');
	});
});

describe('Contacts contact Delete after a lost answer', () => {
	it('the repeat answers 404: deleted', async () => {
		dropped(CONTACT_PATH, '"c1"');
		nock(DAV).delete(CONTACT_PATH).matchHeader('if-match', '"c1"').reply(404, '');
		const { json, error } = await remove('cloudStorageContacts', { etag: '"c1"' });
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${CONTACT_PATH}`,
				etag: '"c1"',
				goneAfterLostAnswer: true,
				outcome: 'applied-after-lost-answer',
			},
		]);
	});

	it('the repeat answers 412 and the contact was changed: a conflict naming its ETag', async () => {
		dropped(CONTACT_PATH, '"c1"');
		nock(DAV).delete(CONTACT_PATH).matchHeader('if-match', '"c1"').reply(412, '');
		nock(DAV).get(CONTACT_PATH).times(2).reply(200, CONTACT, { ETag: '"c2"' });
		const { error } = await remove('cloudStorageContacts', { etag: '"c1"' });
		expect(error?.message).toBe(
			'The contact was changed by another client since it was read (412); it was not deleted',
		);
		expect(error?.description).toMatch(/^Its current ETag is "c2"\./);
	});
});
