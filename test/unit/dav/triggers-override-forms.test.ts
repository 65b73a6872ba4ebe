// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/**
 * Calendar Trigger "starts within": an override whose RECURRENCE-ID another client wrote in UTC, for a
 * series in Europe/Berlin, is one occurrence — announced once, with its new start — not the series'
 * original and the override both (issue #37).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import {
	answeredByNock,
	byUrl,
	DAV,
	etagProp,
	found,
	multistatus,
	poll,
	xmlText,
} from './poll-context';

answeredByNock();

const SERIES = [
	'BEGIN:VCALENDAR',
	'VERSION:2.0',
	'PRODID:-//Other//EN',
	'BEGIN:VEVENT',
	'UID:berlin',
	'DTSTAMP:20300101T000000Z',
	'DTSTART;TZID=Europe/Berlin:20310601T090000',
	'DTEND;TZID=Europe/Berlin:20310601T100000',
	'RRULE:FREQ=DAILY;COUNT=5',
	'SUMMARY:Daily',
	'END:VEVENT',
	'BEGIN:VEVENT',
	'UID:berlin',
	'DTSTAMP:20300101T000000Z',
	'RECURRENCE-ID:20310602T070000Z',
	'DTSTART:20310602T073000Z',
	'DTEND:20310602T083000Z',
	'SUMMARY:Daily (later)',
	'END:VEVENT',
	'END:VCALENDAR',
	'',
].join('\r\n');

it('announces an occurrence whose override names it in UTC once, at its new start', async () => {
	const path = '/cal/soon/';
	const params = { calendar: byUrl(path), trigger: 'startsWithin', minutes: 60 };
	const answer = multistatus(
		found(
			`${path}berlin.ics`,
			etagProp('"b1"') + `<C:calendar-data>${xmlText(SERIES)}</C:calendar-data>`,
		),
	);
	const reply = () => {
		nock(DAV).intercept(path, 'REPORT').times(3).reply(207, answer);
	};
	const staticData: IDataObject = {};
	jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2031-06-02T05:00:00Z'));
	reply();
	expect((await poll('calendar', params, staticData)).emitted).toBeNull();
	jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2031-06-02T06:45:00Z'));
	reply();
	const second = await poll('calendar', params, staticData);
	expect(second.items.map((item) => [item.summary, item.start, item.recurrenceId])).toEqual([
		['Daily (later)', '2031-06-02T07:30:00.000Z', '2031-06-02T07:00:00.000Z'],
	]);
	jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2031-06-02T06:50:00Z'));
	reply();
	expect((await poll('calendar', params, staticData)).emitted).toBeNull();
});
