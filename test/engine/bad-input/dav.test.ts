/**
 * Bad input for the Calendar and Contacts nodes: dates, rules, zones, e-mails, iCalendar and vCard text
 * are checked before any request; broken or hostile XML and calendar data from the server give a clear error.
 */
import nock from 'nock';

import { badInputSuite, CREDENTIALS, DAV, type BadInput } from './harness';

const calendar = 'cloudStorageCalendar';
const contacts = 'cloudStorageContacts';
const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });
const event = (
	fields: Record<string, unknown> = {},
	additionalFields: Record<string, unknown> = {},
) => ({
	resource: 'event',
	operation: 'create',
	calendar: byUrl('/cal/work/'),
	summary: 'Review',
	start: '2030-01-01T10:00:00Z',
	...fields,
	additionalFields,
});
const rawEvent = (iCalendar: string) => ({
	resource: 'event',
	operation: 'create',
	calendar: byUrl('/cal/work/'),
	input: 'raw',
	iCalendar,
});
const contact = (
	fields: Record<string, unknown> = {},
	additionalFields: Record<string, unknown> = {},
) => ({
	resource: 'contact',
	operation: 'create',
	addressBook: byUrl('/ab/main/'),
	fullName: 'Ana Berg',
	...fields,
	additionalFields,
});
const rawContact = (vCard: string) => ({
	resource: 'contact',
	operation: 'create',
	addressBook: byUrl('/ab/main/'),
	input: 'raw',
	vCard,
});
const listEvents = {
	resource: 'event',
	operation: 'getAll',
	calendar: byUrl('/cal/work/'),
	returnAll: true,
};

/** A persisting answer to every request of one method. */
const answer =
	(method: string, status: number, body: string, type = 'application/xml; charset=utf-8') =>
	() => {
		nock(DAV).persist().intercept(/.*/, method).reply(status, body, { 'Content-Type': type });
	};
const BOMB =
	'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
	'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><D:multistatus xmlns:D="DAV:"><D:response><D:href>&lol3;</D:href></D:response></D:multistatus>';
const VCARD = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana\r\nEND:VCARD\r\n';

const cases: BadInput[] = [
	// Calendar: dates, times, rules
	{
		name: 'event start that is not a date',
		node: calendar,
		parameters: event({ start: 'next tuesday' }),
		error: /"next tuesday" is not a valid date or time/,
	},
	{
		name: 'event end that is not a date',
		node: calendar,
		parameters: event({ end: '2030-13-45T99:00' }),
		error: /is not a valid date or time/,
	},
	{
		name: 'event without a start',
		node: calendar,
		parameters: event({ start: '={{ "" }}' }),
		error: /needs a start/,
	},
	{
		name: 'recurrence rule without FREQ syntax',
		node: calendar,
		parameters: event({}, { recurrenceRule: 'EVERY DAY' }),
		error: /recurrence rule|FREQ/,
	},
	{
		name: 'recurrence rule with no FREQ',
		node: calendar,
		parameters: event({}, { recurrenceRule: 'COUNT=3' }),
		error: /FREQ/,
	},
	{
		name: 'unknown time zone',
		node: calendar,
		parameters: event({}, { timezone: 'Mars/Olympus' }),
		error: /time zone.*Mars\/Olympus/i,
	},
	{
		name: 'negative reminder',
		node: calendar,
		parameters: event({}, { reminders: '15, -5' }),
		error: /Reminders must be minutes before the start/,
	},
	{
		name: 'reminder that is text',
		node: calendar,
		parameters: event({}, { reminders: 'soon' }),
		error: /Reminders must be minutes/,
	},
	{
		name: 'attendee that is not an e-mail',
		node: calendar,
		parameters: event({}, { attendees: 'ana@example.com, ben(at)example' }),
		error: /Attendees: "ben\(at\)example" is not an e-mail address/,
	},
	{
		name: 'attendee without a domain',
		node: calendar,
		parameters: event({}, { attendees: 'ana@' }),
		error: /"ana@" is not an e-mail address/,
	},
	{
		name: 'list range with an invalid After',
		node: calendar,
		parameters: { ...listEvents, timeMin: 'soon' },
		error: /"soon" is not a valid date/,
	},
	{
		name: 'list range ending before it starts',
		node: calendar,
		parameters: { ...listEvents, timeMin: '2030-02-01T00:00:00Z', timeMax: '2030-01-01T00:00:00Z' },
		error: /Before must be later than After/,
	},
	{
		name: 'expanding without a range',
		node: calendar,
		parameters: { ...listEvents, expand: true },
		error: /Expanding recurring events needs a range/,
	},
	{
		name: 'get by an empty UID',
		node: calendar,
		parameters: {
			resource: 'event',
			operation: 'get',
			getBy: 'uid',
			calendar: byUrl('/cal/work/'),
			uid: '={{ " " }}',
		},
		error: /No UID given/,
	},
	{
		name: 'calendar without a name',
		node: calendar,
		parameters: { resource: 'calendar', operation: 'create', displayName: '={{ "" }}' },
		error: /needs a name/,
	},
	{
		name: 'event update with nothing to change',
		node: calendar,
		parameters: {
			resource: 'event',
			operation: 'update',
			eventUrl: '/cal/work/e1.ics',
			updateFields: {},
		},
		error: /Nothing to update/,
	},
	{
		name: 'calendar URL on another host',
		node: calendar,
		parameters: { ...listEvents, calendar: byUrl('https://evil.example.test/cal/work/') },
		error: /not on the DAV server/,
	},
	{
		name: 'event URL that is not a URL',
		node: calendar,
		parameters: { resource: 'event', operation: 'delete', eventUrl: 'http://[oops' },
		error: /is not a valid event URL|not on the DAV server/,
	},
	{
		name: 'plain http DAV URL',
		node: calendar,
		parameters: listEvents,
		credentials: {
			cloudStorageDavApi: { ...CREDENTIALS.cloudStorageDavApi, davUrl: 'http://dav.example.test/' },
		},
		error: /Refusing plain http for dav\.example\.test/,
	},

	// Calendar: malformed iCalendar
	{
		name: 'raw iCalendar that is not iCalendar',
		node: calendar,
		parameters: rawEvent('hello world'),
		error: /iCalendar data could not be parsed/,
	},
	{
		name: 'raw iCalendar holding a vCard',
		node: calendar,
		parameters: rawEvent(VCARD),
		error: /Expected a VCALENDAR, found VCARD/,
	},
	{
		name: 'raw iCalendar without an event',
		node: calendar,
		parameters: rawEvent('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nEND:VCALENDAR\r\n'),
		error: /holds no event/,
	},
	{
		name: 'raw iCalendar left empty',
		node: calendar,
		parameters: rawEvent('={{ "  " }}'),
		error: /No iCalendar text given/,
	},
	{
		name: 'raw iCalendar cut off',
		node: calendar,
		parameters: rawEvent('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n'),
		error: /could not be parsed|holds no event/,
	},

	// Calendar: what the server sends
	{
		name: 'a 207 with broken XML',
		node: calendar,
		parameters: listEvents,
		error: /XML that could not be parsed .*cut off/,
		answer: answer(
			'REPORT',
			207,
			'<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/cal/work/a.ics</D:href>',
		),
	},
	{
		name: 'an XML entity bomb',
		node: calendar,
		parameters: listEvents,
		error: /document type declaration, which is refused/,
		answer: answer('REPORT', 207, BOMB),
	},
	{
		name: 'a 200 with an HTML body to a REPORT',
		node: calendar,
		parameters: listEvents,
		error: /answered 200 instead of a multistatus \(207\)/,
		answer: answer('REPORT', 200, '<!doctype html><html><body>Sign in</body></html>', 'text/html'),
	},
	{
		name: 'an event the server stores as garbage',
		node: calendar,
		parameters: { resource: 'event', operation: 'get', getBy: 'url', eventUrl: '/cal/work/e1.ics' },
		error: /iCalendar data could not be parsed|VCALENDAR/,
		answer: answer('GET', 200, 'BEGIN:VCALENDAR\r\nBROKEN', 'text/calendar'),
	},

	// Contacts
	{
		name: 'contact without any name',
		node: contacts,
		parameters: contact({ fullName: '={{ "" }}' }),
		error: /A contact needs a name/,
	},
	{
		name: 'birthday in the wrong format',
		node: contacts,
		parameters: contact({}, { birthday: '17.05.1990' }),
		error: /"17.05.1990" is not a valid birthday/,
	},
	{
		name: 'contact e-mail that is not an e-mail',
		node: contacts,
		parameters: contact(
			{},
			{ emails: { entries: [{ value: 'ana at example.com', type: 'work' }] } },
		),
		error: /Emails: "ana at example.com" is not an e-mail address/,
	},
	{
		name: 'raw vCard that is not a vCard',
		node: contacts,
		parameters: rawContact('{"name": "Ana"}'),
		error: /vCard data could not be parsed/,
	},
	{
		name: 'raw vCard holding a calendar',
		node: contacts,
		parameters: rawContact('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n'),
		error: /Expected a VCARD, found VCALENDAR/,
	},
	{
		name: 'raw vCard without FN',
		node: contacts,
		parameters: rawContact('BEGIN:VCARD\r\nVERSION:3.0\r\nN:Berg;Ana;;;\r\nEND:VCARD\r\n'),
		error: /has no FN/,
	},
	{
		name: 'raw vCard left empty',
		node: contacts,
		parameters: rawContact('={{ "" }}'),
		error: /No vCard text given/,
	},
	{
		name: 'contact search without text',
		node: contacts,
		parameters: {
			resource: 'contact',
			operation: 'search',
			addressBook: byUrl('/ab/main/'),
			query: '={{ " " }}',
		},
		error: /Enter the text to search for/,
	},
	{
		name: 'contact update with nothing to change',
		node: contacts,
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactUrl: '/ab/main/x.vcf',
			updateFields: {},
		},
		error: /Nothing to update/,
	},
	{
		name: 'contact URL on another host',
		node: contacts,
		parameters: {
			resource: 'contact',
			operation: 'get',
			contactUrl: 'https://evil.example.test/ab/x.vcf',
		},
		error: /not on the DAV server/,
	},
	{
		name: 'an XML entity bomb listing contacts',
		node: contacts,
		parameters: {
			resource: 'contact',
			operation: 'getAll',
			addressBook: byUrl('/ab/main/'),
			returnAll: true,
		},
		error: /document type declaration, which is refused/,
		answer: () => {
			answer('REPORT', 207, BOMB)();
			answer('PROPFIND', 207, BOMB)();
		},
	},
	{
		name: 'a contact the server stores as garbage',
		node: contacts,
		parameters: { resource: 'contact', operation: 'get', contactUrl: '/ab/main/x.vcf' },
		error: /vCard data could not be parsed|VCARD/,
		answer: answer('GET', 200, 'BEGIN:VCARD\r\nFN', 'text/vcard'),
	},
];

badInputSuite(cases);
