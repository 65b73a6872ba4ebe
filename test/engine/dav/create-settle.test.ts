/**
 * A DAV create (PUT with If-None-Match: *) whose first attempt was uncertain — its answer lost, or a 503
 * that the transport retries, also for writes — and whose repeat gets 412: the object at the fresh URL is
 * read. Our UID there (a UUID only this write had) means our first attempt stored it; another UID is a
 * conflict and nothing of ours was stored. Never "already exists … choose another object name", which made
 * a second run store a duplicate under a new UID.
 */
import nock from 'nock';

import { DavClient } from '../../../nodes/shared/dav/client';
import type { DavHttp, DavHttpRequest } from '../../../nodes/shared/dav/http';
import { outcomeOf } from '../../../nodes/shared/errors/outcome';
import { chain, PACKAGE_NAME, runWorkflow } from '../harness';
import { offlineWithNock } from '../../unit/offline';

const URL_ = 'https://dav.example.test/cal/work/0f8c2a52-1111-4222-8333-944455556666.ics';
const UID = '0f8c2a52-1111-4222-8333-944455556666';
const event = (uid: string) =>
	`BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300101T100000Z\r\nSUMMARY:Hi\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;

/** The transport's part as seen by the client: the PUT's repeat answered 412, then the read. */
function fakeHttp(stored: string | undefined): { http: DavHttp; sent: DavHttpRequest[] } {
	const sent: DavHttpRequest[] = [];
	const http: DavHttp = async (request) => {
		sent.push(request);
		if (request.method === 'PUT') return { status: 412, headers: {}, body: '' };
		return stored === undefined
			? { status: 404, headers: {}, body: '' }
			: { status: 200, headers: { etag: '"stored-1"' }, body: stored };
	};
	return { http, sent };
}

describe('DavClient.put (create) answered 412', () => {
	it('our UID at the URL: created by the first attempt, applied-after-lost-answer', async () => {
		const { http, sent } = fakeHttp(event(UID));
		const client = new DavClient(http, 'https://dav.example.test/', 'event');
		const written = await client.put(URL_, event(UID), 'text/calendar', { create: true, uid: UID });
		expect(written).toEqual({
			url: URL_,
			status: 201,
			etag: '"stored-1"',
			outcome: 'applied-after-lost-answer',
		});
		expect(sent.map((request) => request.method)).toEqual(['PUT', 'GET']);
	});

	it('another UID at the URL: a conflict naming it, nothing stored (not-applied)', async () => {
		const { http } = fakeHttp(event('someone-else'));
		const client = new DavClient(http, 'https://dav.example.test/', 'event');
		const error = await client
			.put(URL_, event(UID), 'text/calendar', { create: true, uid: UID })
			.catch((caught: unknown) => caught);
		expect(error).toMatchObject({
			message: `Another event is stored at ${URL_} (412)`,
			status: 412,
		});
		expect(outcomeOf(error)).toBe('not-applied');
		expect((error as Error).message).not.toMatch(/choose another object name/);
	});

	it('a UID that merely contains ours is not ours', async () => {
		const { http } = fakeHttp(event(`${UID}-copy`));
		const client = new DavClient(http, 'https://dav.example.test/', 'event');
		await expect(
			client.put(URL_, event(UID), 'text/calendar', { create: true, uid: UID }),
		).rejects.toThrow('Another event is stored at');
	});
});

describe('through the node: a 503 to the create is retried, and the repeat gets 412', () => {
	const DAV = 'https://dav.example.test';
	offlineWithNock();

	async function create(node: 'cloudStorageCalendar' | 'cloudStorageContacts') {
		const parameters =
			node === 'cloudStorageCalendar'
				? {
						resource: 'event',
						operation: 'create',
						calendar: { __rl: true, mode: 'url', value: '/cal/work/' },
						summary: 'Hi',
						start: '2030-01-01T10:00:00Z',
						additionalFields: { timezone: 'UTC' },
					}
				: {
						resource: 'contact',
						operation: 'create',
						addressBook: { __rl: true, mode: 'url', value: '/card/main/' },
						fullName: 'Ada Lovelace',
					};
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
					{ name: 'DAV', type: `${PACKAGE_NAME}.${node}`, parameters: parameters as never },
				],
				connections: chain('Start', 'DAV'),
			},
			{
				credentials: {
					cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
				} as never,
			},
		);
		return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
	}

	it.each([
		['cloudStorageCalendar', /\/cal\/work\/[0-9a-f-]+\.ics$/],
		['cloudStorageContacts', /\/card\/main\/[0-9a-f-]+\.vcf$/],
	] as const)(
		'%s: the object holds our UID, so it was created once: outcome applied-after-lost-answer',
		async (node, path) => {
			let body = '';
			// The first attempt was stored, but a proxy in front answered 503.
			nock(DAV)
				.put(path)
				.reply(503, (_uri, sent) => ((body = String(sent)), ''), { 'Retry-After': '0' });
			const repeat = nock(DAV).put(path).matchHeader('if-none-match', '*').reply(412, '');
			nock(DAV)
				.get(path)
				.reply(200, () => body, { ETag: '"stored-1"' });
			const { json, error } = await create(node);
			expect(error).toBeUndefined();
			expect(repeat.isDone()).toBe(true);
			expect(json[0]).toMatchObject({ etag: '"stored-1"', outcome: 'applied-after-lost-answer' });
			expect(nock.pendingMocks()).toEqual([]);
		},
	);

	it('another object at the URL: an error naming the conflict, no "choose another object name"', async () => {
		nock(DAV)
			.put(/\/cal\/work\/[0-9a-f-]+\.ics$/)
			.reply(503, '', { 'Retry-After': '0' });
		nock(DAV)
			.put(/\/cal\/work\/[0-9a-f-]+\.ics$/)
			.reply(412, '');
		nock(DAV)
			.get(/\/cal\/work\/[0-9a-f-]+\.ics$/)
			.reply(200, event('someone-else'), { ETag: '"x"' });
		const { error } = await create('cloudStorageCalendar');
		expect(error?.message).toMatch(/^Another event is stored at .* \(412\)$/);
		expect(error?.description).toMatch(/Nothing was stored/);
	});

	it('a create answered at once has outcome applied', async () => {
		nock(DAV)
			.put(/\/cal\/work\/[0-9a-f-]+\.ics$/)
			.reply(201, '', { ETag: '"new-1"' });
		const { json, error } = await create('cloudStorageCalendar');
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ etag: '"new-1"', outcome: 'applied' });
	});
});

describe('DavClient.put (update) refused', () => {
	it('a 412 to a first attempt is a conflict, not-applied', async () => {
		const http: DavHttp = async (request) =>
			request.method === 'PUT'
				? { status: 412, headers: {}, body: '' }
				: { status: 200, headers: { etag: '"v9"' }, body: event(UID) };
		const client = new DavClient(http, 'https://dav.example.test/', 'event');
		const error = await client
			.put(URL_, event(UID), 'text/calendar', { etag: '"v1"' })
			.catch((caught: unknown) => caught);
		expect(error).toMatchObject({ status: 412 });
		expect(outcomeOf(error)).toBe('not-applied');
	});

	it('a 403 naming a precondition is not-applied', async () => {
		const http: DavHttp = async () => ({ status: 403, headers: {}, body: '' });
		const client = new DavClient(http, 'https://dav.example.test/', 'event');
		const error = await client
			.put(URL_, event(UID), 'text/calendar', { etag: '"v1"' })
			.catch((caught: unknown) => caught);
		expect(outcomeOf(error)).toBe('not-applied');
	});
});
