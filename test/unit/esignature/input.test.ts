import {
	EsignatureInputError,
	isEmailAddress,
	parseEmails,
	signatureDate,
	signatureDateRange,
	splitList,
} from '../../../nodes/shared/esignature/input';

describe('e-mail addresses', () => {
	it('accepts plain addresses and splits lists on commas, semicolons and lines, dropping duplicates', () => {
		expect(
			parseEmails(
				'anna@example.com, Ben.Carter+sign@mail.example.org;\nanna@EXAMPLE.com',
				'To',
				true,
			),
		).toEqual(['anna@example.com', 'Ben.Carter+sign@mail.example.org']);
		expect(parseEmails(['a@b.io', ' c@d.de '], 'To', true)).toEqual(['a@b.io', 'c@d.de']);
		expect(parseEmails('', 'Next', false)).toEqual([]);
		expect(parseEmails(undefined, 'Next', false)).toEqual([]);
	});

	it.each([
		'anna',
		'anna@',
		'@example.com',
		'anna@example',
		'anna@@example.com',
		'Anna <anna@example.com>',
		'an na@example.com',
		'anna@example.c',
		'anna@.com',
		'anna@example.123',
	])('refuses %s', (address) => {
		expect(isEmailAddress(address)).toBe(false);
		expect(() => parseEmails(address, 'To', true)).toThrow(EsignatureInputError);
	});

	it('needs at least one recipient when required', () => {
		expect(() => parseEmails(' , ', 'Recipient E-Mails', true)).toThrow(
			'Recipient E-Mails: no e-mail address given',
		);
	});
});

describe('signature dates', () => {
	it('keeps a date alone (whole day) and normalises a time', () => {
		expect(signatureDate('2026-03-02', 'From Date')).toBe('2026-03-02');
		expect(signatureDate(' 2026-03-02T09:05 ', 'From Date')).toBe('2026-03-02 09:05:00');
		expect(signatureDate('2024-02-29 23:59:59', 'From Date')).toBe('2024-02-29 23:59:59');
		expect(signatureDate('', 'From Date')).toBeUndefined();
	});

	it.each([
		'2026-02-30',
		'2025-02-29',
		'2026-13-01',
		'2026-03-02 24:00',
		'2026-03-02 10:60',
		'02.03.2026',
		'2026-03-02T10:00:00Z',
		'yesterday',
	])('refuses %s', (value) => {
		expect(() => signatureDate(value, 'To Date')).toThrow(EsignatureInputError);
	});

	it('refuses a range that ends before it starts, the same day included', () => {
		expect(signatureDateRange('2026-03-01', '2026-03-01')).toEqual({
			from: '2026-03-01',
			to: '2026-03-01',
		});
		expect(signatureDateRange('2026-03-01 10:00', '2026-03-01')).toEqual({
			from: '2026-03-01 10:00:00',
			to: '2026-03-01',
		});
		expect(() => signatureDateRange('2026-03-02', '2026-03-01')).toThrow(
			'From Date is after To Date',
		);
		expect(() => signatureDateRange('2026-03-01 12:00', '2026-03-01 11:00')).toThrow(
			'From Date is after To Date',
		);
	});
});

it('splits the comma-separated lists of esignature_share answers', () => {
	expect(splitList('a@b.io,c@d.de')).toEqual(['a@b.io', 'c@d.de']);
	expect(splitList('')).toEqual([]);
	expect(splitList(null)).toEqual([]);
});
