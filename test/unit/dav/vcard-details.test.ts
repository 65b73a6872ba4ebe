// @zone-sensitive: npm test runs this file again under two more time zones (scripts/test.mjs).
/** vCard details other clients rely on: REV's type per version, Apple's grouped labels and no-year birthdays. */
import {
	createContactData,
	describeVcard,
	patchContactData,
} from '../../../nodes/shared/dav/vcard';

const lines = (...parts: string[]) => parts.join('\r\n') + '\r\n';
const now = new Date('2030-01-15T00:00:00Z');

describe('vCard details', () => {
	it('a vCard 4.0 gets REV as a timestamp without VALUE=DATE-TIME (RFC 6350 6.7.4); 3.0 keeps its form', () => {
		const v4 = lines('BEGIN:VCARD', 'VERSION:4.0', 'UID:u', 'FN:Ada', 'END:VCARD');
		const patched = patchContactData(v4, { title: 'Engineer' }, now);
		expect(patched).toContain('\r\nREV:20300115T000000Z\r\n');
		expect(patched).not.toMatch(/REV;VALUE=/);
		expect(createContactData({ fullName: 'Ada' }, 'u', now)).toContain(
			'\r\nREV:20300115T000000Z\r\n',
		);
	});

	it('a vCard 4.0 birthday is written without VALUE=DATE; --MM-DD writes a birthday without year in both versions', () => {
		const v4 = lines('BEGIN:VCARD', 'VERSION:4.0', 'UID:u', 'FN:Ada', 'END:VCARD');
		expect(patchContactData(v4, { birthday: '1990-05-17' }, now)).toContain(
			'\r\nBDAY:19900517\r\n',
		);
		const noYear4 = patchContactData(v4, { birthday: '--05-17' }, now);
		expect(noYear4).toContain('\r\nBDAY:--0517\r\n');
		expect(describeVcard(noYear4).birthday).toBe('--05-17');
		const noYear3 = createContactData({ fullName: 'Ada', birthday: '--05-17' }, 'u', now);
		expect(noYear3).toContain('BDAY;X-APPLE-OMIT-YEAR=1604;VALUE=DATE:16040517');
		expect(describeVcard(noYear3).birthday).toBe('--05-17');
	});

	it("Apple's birthday without year (X-APPLE-OMIT-YEAR) is shown without its placeholder year", () => {
		const card = lines(
			'BEGIN:VCARD',
			'VERSION:3.0',
			'UID:u',
			'FN:Ada',
			'BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15',
			'END:VCARD',
		);
		expect(describeVcard(card).birthday).toBe('--04-15');
		expect(describeVcard(card.replace('X-APPLE-OMIT-YEAR=1604', 'X-OTHER=1')).birthday).toBe(
			'1604-04-15',
		);
	});

	it("replacing a grouped property removes its group's label; other groups and their labels stay", () => {
		const card = lines(
			'BEGIN:VCARD',
			'VERSION:3.0',
			'UID:u',
			'FN:Ada',
			'item1.TEL:+49 30 1234',
			'item1.X-ABLABEL:_$!<Mobile>!$_',
			'item2.EMAIL;type=INTERNET:old@example.com',
			'item2.X-ABLABEL:_$!<Other>!$_',
			'item3.ADR:;;Street 1;Berlin;;10115;Germany',
			'item3.X-ABADR:de',
			'item3.URL:https://example.com',
			'END:VCARD',
		);
		const patched = patchContactData(
			card,
			{ emails: [{ value: 'new@example.com', type: 'work' }] },
			now,
		);
		expect(patched).not.toContain('item2.');
		expect(patched).toContain('EMAIL;TYPE=work:new@example.com');
		expect(patched).toContain('item1.TEL:+49 30 1234\r\nitem1.X-ABLABEL:_$!<Mobile>!$_\r\n');
		// A group that still holds a property nobody replaced keeps its X- lines.
		const address = patchContactData(card, { addresses: [{ city: 'Hamburg' }] }, now);
		expect(address).toContain('item3.X-ABADR:de');
		expect(address).toContain('item3.URL:https://example.com');
	});
});
