/**
 * A read failing with the same 500 twice stops retrying (the server fails it every time) and is worded as
 * a read: nothing was changed. A write's 5xx keeps its own wording (it may have been applied).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { chain, PACKAGE_NAME, runWorkflow } from '../../engine/harness';
import { offlineWithNock } from '../offline';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => undefined),
}));

const DAV = 'https://dav.example.test';
const credentials = {
	cloudStorageDavApi: { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' },
};

async function run(parameters: IDataObject) {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
		{ name: 'DAV', type: `${PACKAGE_NAME}.cloudStorageCalendar`, parameters: parameters as never },
	];
	const result = await runWorkflow(
		{ nodes, connections: chain('Start', 'DAV') },
		{ credentials: credentials as never },
	);
	return { ...result, json: result.nodeOutput('DAV').map((item) => item.json) };
}

offlineWithNock({ allMocksUsed: true });

it('the same 500 twice on a read: two requests, not five; worded as a read that changed nothing', async () => {
	let requests = 0;
	nock(DAV)
		.get('/cal/a.ics')
		.times(2)
		.reply(500, () => (requests++, 'AttributeError: boom'));
	const { error } = await run({
		resource: 'event',
		operation: 'get',
		getBy: 'url',
		eventUrl: `${DAV}/cal/a.ics`,
	});
	expect(requests).toBe(2);
	expect(error?.message).toBe('The service had an internal error (500)');
	expect(error?.description).toBe(
		'The request only read data, so nothing was changed. Try again later; if it keeps failing, the calendar/address-book server\'s own log names the cause. The calendar/address-book server said: "AttributeError: boom" The same answer came twice, so the node stopped retrying.',
	);
	expect(error?.description).not.toMatch(/If this was a write/);
});

it('500s that differ are retried up to the usual five attempts; a success ends it', async () => {
	nock(DAV).get('/cal/b.ics').reply(500, 'first');
	nock(DAV).get('/cal/b.ics').reply(500, 'second');
	nock(DAV)
		.get('/cal/b.ics')
		.reply(
			200,
			'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300101T100000Z\r\nSUMMARY:B\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
			{ ETag: '"b1"' },
		);
	const { json, error } = await run({
		resource: 'event',
		operation: 'get',
		getBy: 'url',
		eventUrl: `${DAV}/cal/b.ics`,
	});
	expect(error).toBeUndefined();
	expect(json[0]).toMatchObject({ uid: 'b', summary: 'B' });
});
