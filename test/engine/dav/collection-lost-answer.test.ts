/**
 * Collection writes whose answer was lost (a dropped connection, a 5xx): MKCALENDAR, extended MKCOL,
 * PROPPATCH and a collection DELETE are each settled by a Depth-0 PROPFIND of the new (UUID) URL or the
 * changed collection — created, changed or gone is `applied-after-lost-answer`; nothing there (create), old
 * values (update) or still there (delete) sends it again, which cannot do anything twice. Only when that read
 * fails is it "may have been applied", outcome unknown, never "nothing was changed".
 */
import nock from 'nock';
import type { INode } from 'n8n-workflow';

import { deleteCollection } from '../../../nodes/shared/dav/collections';
import { DavClient } from '../../../nodes/shared/dav/client';
import { DavError } from '../../../nodes/shared/dav/errors';
import type { DavHttpRequest } from '../../../nodes/shared/dav/http';
import {
	MAY_HAVE_BEEN_APPLIED,
	outcomeOf,
	withOutcome,
} from '../../../nodes/shared/errors/outcome';
import { toNodeError } from '../../../nodes/shared/node/node-error';
import { offlineWithNock } from '../../unit/offline';
import { kindAnswer, kindIs } from './resource-kinds';
import { byUrl, DAV, run } from './run-node';

const HOME = '/alice/';
const NEW = /^\/alice\/[0-9a-f-]{36}\/$/;

const ms = (inner: string) =>
	`<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="urn:ietf:params:xml:ns:carddav">${inner}</D:multistatus>`;
const one = (href: string, props: string) =>
	`<D:response><D:href>${href}</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>`;
const calendarAt = (path: string, name: string) =>
	ms(
		one(
			path,
			`<D:resourcetype><D:collection/><C:calendar/></D:resourcetype><D:displayname>${name}</D:displayname>`,
		),
	);
const bookAt = (path: string, name: string) =>
	ms(
		one(
			path,
			`<D:resourcetype><D:collection/><A:addressbook/></D:resourcetype><D:displayname>${name}</D:displayname>`,
		),
	);
const dropped = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

function discovery(home: 'calendar-home-set' | 'addressbook-home-set') {
	nock(DAV)
		.intercept('/', 'PROPFIND')
		.reply(
			207,
			ms(one('/', `<D:current-user-principal><D:href>${HOME}</D:href></D:current-user-principal>`)),
		);
	const prefix = home === 'calendar-home-set' ? 'C' : 'A';
	nock(DAV)
		.intercept(HOME, 'PROPFIND')
		.reply(207, ms(one(HOME, `<${prefix}:${home}><D:href>${HOME}</D:href></${prefix}:${home}>`)));
}

offlineWithNock({ allMocksUsed: true });

describe('Create Calendar (MKCALENDAR) after a lost answer', () => {
	const create = () =>
		run('cloudStorageCalendar', {
			resource: 'calendar',
			operation: 'create',
			displayName: 'Team',
			components: ['VEVENT'],
		});

	it('dropped after the server made it: the new URL holds our calendar; applied-after-lost-answer, not sent again', async () => {
		discovery('calendar-home-set');
		const sent: string[] = [];
		nock(DAV).intercept(NEW, 'MKCALENDAR').replyWithError(dropped());
		nock(DAV)
			.intercept(NEW, 'MKCALENDAR')
			.optionally()
			.reply(201, (uri) => (sent.push(uri), ''));
		nock(DAV)
			.intercept(NEW, 'PROPFIND')
			.times(2)
			.reply(207, (uri) => calendarAt(uri, 'Team'));
		const { json, error } = await create();
		expect(error).toBeUndefined();
		expect(sent).toEqual([]);
		expect(json[0]).toMatchObject({ displayName: 'Team', outcome: 'applied-after-lost-answer' });
	});

	it('a 502 and nothing at the new URL: sent again to the same URL, then read back', async () => {
		discovery('calendar-home-set');
		const sent: string[] = [];
		nock(DAV)
			.intercept(NEW, 'MKCALENDAR')
			.reply(502, (uri) => (sent.push(uri), 'Bad Gateway'));
		nock(DAV).intercept(NEW, 'PROPFIND').reply(404, '');
		nock(DAV)
			.intercept(NEW, 'MKCALENDAR')
			.reply(201, (uri) => (sent.push(uri), ''));
		nock(DAV)
			.intercept(NEW, 'PROPFIND')
			.reply(207, (uri) => calendarAt(uri, 'Team'));
		const { json, error } = await create();
		expect(error).toBeUndefined();
		expect(sent).toHaveLength(2);
		expect(sent[1]).toBe(sent[0]);
		expect(json[0]).toMatchObject({ displayName: 'Team', outcome: 'applied-after-lost-answer' });
	});

	it('nothing there yet, and the repeat finds the URL taken (the first landed late): ours, applied', async () => {
		discovery('calendar-home-set');
		nock(DAV).intercept(NEW, 'MKCALENDAR').reply(504, 'Gateway Timeout');
		nock(DAV).intercept(NEW, 'PROPFIND').reply(404, '');
		nock(DAV).intercept(NEW, 'MKCALENDAR').reply(405, 'Method Not Allowed');
		nock(DAV)
			.intercept(NEW, 'PROPFIND')
			.times(2)
			.reply(207, (uri) => calendarAt(uri, 'Team'));
		const { json, error } = await create();
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({ displayName: 'Team', outcome: 'applied-after-lost-answer' });
	});

	it('the read that would settle it fails: "may have been applied", never "nothing was changed"', async () => {
		discovery('calendar-home-set');
		nock(DAV).intercept(NEW, 'MKCALENDAR').replyWithError(dropped());
		nock(DAV).intercept(NEW, 'PROPFIND').times(2).reply(500, 'Internal error');
		const { json, error } = await create();
		expect(json).toEqual([]);
		expect(error?.message).toMatch(
			new RegExp(
				`^${MAY_HAVE_BEEN_APPLIED}: the answer to creating the calendar was lost, and reading ${DAV}/alice/[0-9a-f-]{36}/ to check it failed`,
			),
		);
		expect(`${error?.message} ${error?.description}`).not.toMatch(
			/nothing was (changed|created)|only read data/i,
		);
		expect(error?.description).toMatch(/did not send it again/);
	});
});

it('Create Address Book (extended MKCOL) dropped after the server made it: applied-after-lost-answer', async () => {
	discovery('addressbook-home-set');
	nock(DAV).intercept(NEW, 'MKCOL').replyWithError(dropped());
	nock(DAV)
		.intercept(NEW, 'PROPFIND')
		.times(2)
		.reply(207, (uri) => bookAt(uri, 'Clients'));
	const { json, error } = await run('cloudStorageContacts', {
		resource: 'addressBook',
		operation: 'create',
		displayName: 'Clients',
	});
	expect(error).toBeUndefined();
	expect(json[0]).toMatchObject({ displayName: 'Clients', outcome: 'applied-after-lost-answer' });
});

describe('Update Calendar (PROPPATCH) after a lost answer', () => {
	const path = '/alice/work/';
	const update = () =>
		run('cloudStorageCalendar', {
			resource: 'calendar',
			operation: 'update',
			calendar: byUrl(`${DAV}${path}`),
			displayName: 'Renamed',
		});

	it('dropped after the server applied it: the calendar holds the values sent; not sent again', async () => {
		kindIs(DAV, path, 'calendar');
		nock(DAV).intercept(path, 'PROPPATCH').replyWithError(dropped());
		nock(DAV).intercept(path, 'PROPFIND').times(2).reply(207, calendarAt(path, 'Renamed'));
		const { json, error } = await update();
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({
			displayName: 'Renamed',
			notApplied: [],
			outcome: 'applied-after-lost-answer',
		});
	});

	it('a 500 and the old values still there: sent again (setting values twice changes nothing more)', async () => {
		kindIs(DAV, path, 'calendar');
		nock(DAV).intercept(path, 'PROPPATCH').reply(500, 'boom');
		nock(DAV).intercept(path, 'PROPFIND').reply(207, calendarAt(path, 'Old'));
		const again = nock(DAV)
			.intercept(path, 'PROPPATCH')
			.reply(207, ms(one(path, '<D:displayname/>')));
		nock(DAV).intercept(path, 'PROPFIND').reply(207, calendarAt(path, 'Renamed'));
		const { json, error } = await update();
		expect(error).toBeUndefined();
		expect(again.isDone()).toBe(true);
		expect(json[0]).toMatchObject({ displayName: 'Renamed', outcome: 'applied-after-lost-answer' });
	});

	it('the read that would settle it fails: "may have been applied"', async () => {
		kindIs(DAV, path, 'calendar');
		nock(DAV).intercept(path, 'PROPPATCH').replyWithError(dropped());
		nock(DAV).intercept(path, 'PROPFIND').times(2).reply(500, 'Internal error');
		const { error } = await update();
		expect(error?.message).toMatch(
			new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: the answer to updating the calendar was lost`),
		);
	});
});

describe('Delete Address Book after a lost answer', () => {
	const path = '/alice/book/';
	const remove = () =>
		run('cloudStorageContacts', {
			resource: 'addressBook',
			operation: 'delete',
			addressBook: byUrl(`${DAV}${path}`),
		});

	it('dropped after the server deleted it: 404 on the URL; deleted, the lost answer named', async () => {
		kindIs(DAV, path, 'addressbook');
		nock(DAV).delete(path).replyWithError(dropped());
		nock(DAV).intercept(path, 'PROPFIND').reply(404, '');
		const { json, error } = await remove();
		expect(error).toBeUndefined();
		expect(json).toEqual([
			{
				deleted: true,
				url: `${DAV}${path}`,
				goneAfterLostAnswer: true,
				outcome: 'applied-after-lost-answer',
			},
		]);
	});

	it('a 502 and the address book still there: deleted by the repeat', async () => {
		kindIs(DAV, path, 'addressbook');
		nock(DAV).delete(path).reply(502, 'Bad Gateway');
		nock(DAV).intercept(path, 'PROPFIND').reply(207, bookAt(path, 'Book'));
		const again = nock(DAV).delete(path).reply(204, '');
		const { json, error } = await remove();
		expect(error).toBeUndefined();
		expect(again.isDone()).toBe(true);
		expect(json).toEqual([
			{ deleted: true, url: `${DAV}${path}`, outcome: 'applied-after-lost-answer' },
		]);
	});

	it('the read that would settle it fails: "may have been applied"', async () => {
		kindIs(DAV, path, 'addressbook');
		nock(DAV).delete(path).replyWithError(dropped());
		nock(DAV).intercept(path, 'PROPFIND').times(2).reply(500, 'Internal error');
		const { error } = await remove();
		expect(error?.message).toMatch(
			new RegExp(`^${MAY_HAVE_BEEN_APPLIED}: the answer to deleting the address book was lost`),
		);
		expect(error?.message).not.toMatch(/nothing was changed/i);
	});
});

describe('the outcome travels with the error', () => {
	it('an unsettled collection write is marked unknown, and stays so as an n8n error', async () => {
		const url = 'https://dav.example/alice/book/';
		const http = async (request: DavHttpRequest) => {
			if (request.method === 'PROPFIND' && request.body?.includes('current-user-principal'))
				return { status: 207, headers: {}, body: kindAnswer('/alice/book/', 'addressbook') };
			if (request.method === 'PROPFIND') throw new Error('connection refused');
			// The transport lost the DELETE's answer and asks the caller to settle it.
			await request.write!.reconcile!();
			return { status: 204, headers: {}, body: '' };
		};
		const client = new DavClient(http, 'https://dav.example/', 'contact');
		const failure = await deleteCollection(client, 'addressbook', url).catch((error) => error);
		expect(failure).toBeInstanceOf(DavError);
		expect(outcomeOf(failure)).toBe('unknown');
		const node = { name: 'DAV', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} };
		expect(outcomeOf(toNodeError(node as unknown as INode, failure, 0))).toBe('unknown');
		expect(
			outcomeOf(toNodeError(node as unknown as INode, withOutcome(new Error('x'), 'not-applied'))),
		).toBe('not-applied');
	});
});
