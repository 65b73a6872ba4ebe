/**
 * A DAV update (PUT with If-Match) whose answer was lost is settled by reading the object, not by sending
 * it again: the ETag it was sent against still there — not applied (yet); what was sent there — applied;
 * anything else — another client changed it, "may have been applied", never sent again. After a timeout the
 * service may still be applying it (a `slow` write): the transport's second look then finds it applied,
 * where the old code, which read nothing, ended every timed-out update "may have been applied".
 */
import nock from 'nock';

import { DavClient } from '../../../nodes/shared/dav/client';
import type { DavHttp, DavHttpResponse } from '../../../nodes/shared/dav/http';
import {
	MAY_HAVE_BEEN_APPLIED,
	outcomeOf,
	withOutcome,
} from '../../../nodes/shared/errors/outcome';
import { chain, PACKAGE_NAME, runWorkflow } from '../harness';
import { offlineWithNock } from '../../unit/offline';
import { kindIs } from './resource-kinds';

const URL_ = 'https://dav.example.test/cal/work/e1.ics';
const event = (summary: string, extra = '') =>
	`BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VEVENT\r\nUID:e1\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300101T100000Z\r\nSUMMARY:${summary}\r\n${extra}END:VEVENT\r\nEND:VCALENDAR\r\n`;
const SENT = event('New');

/**
 * The transport's part for a timed-out write, as the client sees it: a first look, then (the write may still
 * be running) a second one; nothing proven by either is "may have been applied", never a repeat.
 */
function timedOutTransport(looks: Array<{ etag: string; data: string }>) {
	const methods: string[] = [];
	let look = 0;
	const http: DavHttp = async (request) => {
		methods.push(request.method);
		if (request.method === 'PUT') {
			for (let n = 0; n < 2; n++) {
				const found = await request.write!.reconcile!();
				if (found !== undefined) return { status: 200, headers: {}, body: '', reconciled: found };
				look++;
			}
			throw withOutcome(new Error(`${MAY_HAVE_BEEN_APPLIED}: timed out`), 'unknown');
		}
		const now = looks[Math.min(look, looks.length - 1)];
		return { status: 200, headers: { etag: now.etag }, body: now.data } as DavHttpResponse;
	};
	return { http, methods };
}

describe('DavClient.put (update) whose answer was lost', () => {
	it('applied only after the Timeout (slow): the second look reads it, applied-after-lost-answer', async () => {
		const { http, methods } = timedOutTransport([
			{ etag: '"v1"', data: event('Old') },
			{ etag: '"v2"', data: SENT },
		]);
		const client = new DavClient(http, 'https://dav.example.test/', 'event');
		const written = await client.put(URL_, SENT, 'text/calendar', { etag: '"v1"' });
		expect(written).toEqual({
			url: URL_,
			status: 204,
			etag: '"v2"',
			outcome: 'applied-after-lost-answer',
		});
		expect(methods).toEqual(['PUT', 'GET', 'GET']);
	});

	it('another client changed it: may have been applied, with its ETag, and not sent again', async () => {
		const { http, methods } = timedOutTransport([
			{ etag: '"v3"', data: event('New', 'LOCATION:elsewhere\r\n') },
		]);
		const client = new DavClient(http, 'https://dav.example.test/', 'event');
		const error = await client
			.put(URL_, SENT, 'text/calendar', { etag: '"v1"' })
			.catch((caught: unknown) => caught);
		expect((error as Error).message).toMatch(
			/^The write may have been applied: the event update's answer was lost, and the event now differs from what was sent/,
		);
		expect(outcomeOf(error)).toBe('unknown');
		expect(methods).toEqual(['PUT', 'GET']);
	});
});

describe('through the node: the update PUT dropped after the server applied it', () => {
	const DAV = 'https://dav.example.test';
	const PATH = '/cal/work/e1.ics';
	offlineWithNock({ allMocksUsed: true });

	it('a read finds what was sent: applied-after-lost-answer, no second PUT', async () => {
		kindIs(DAV, PATH, 'object');
		let sent = '';
		nock(DAV)
			.get(PATH)
			.reply(200, event('Old'), { etag: '"v1"' })
			.put(PATH, (body: string) => {
				sent = body;
				return true;
			})
			.matchHeader('if-match', '"v1"')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.get(PATH)
			.reply(200, () => sent, { etag: '"v2"' });
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
					{
						name: 'DAV',
						type: `${PACKAGE_NAME}.cloudStorageCalendar`,
						parameters: {
							resource: 'event',
							operation: 'update',
							eventUrl: `${DAV}${PATH}`,
							updateFields: { summary: 'New' },
						} as never,
					},
				],
				connections: chain('Start', 'DAV'),
			},
			{
				credentials: {
					cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
				} as never,
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.nodeOutput('DAV').map((item) => item.json)).toEqual([
			expect.objectContaining({
				url: `${DAV}${PATH}`,
				etag: '"v2"',
				summary: 'New',
				outcome: 'applied-after-lost-answer',
			}),
		]);
	});
});
