// `npm start` gives n8n the machine's time zone (GENERIC_TIMEZONE), not n8n's New York default.
import { machineTimeZone } from '../../../scripts/lib/machine-time-zone.ts';

const none = () => {
	throw new Error('absent');
};

describe('machineTimeZone', () => {
	it('takes TZ first, also in glibc\'s ":Zone" form', () => {
		expect(machineTimeZone({ tz: 'Europe/Tallinn', etcTimezone: () => 'Asia/Tokyo' })).toBe(
			'Europe/Tallinn',
		);
		expect(machineTimeZone({ tz: ':Europe/Berlin' })).toBe('Europe/Berlin');
	});

	it('then /etc/timezone, then the /etc/localtime link, then Intl', () => {
		expect(machineTimeZone({ etcTimezone: () => 'Asia/Tokyo\n', intl: () => 'UTC' })).toBe(
			'Asia/Tokyo',
		);
		expect(
			machineTimeZone({
				etcTimezone: none,
				localtimeLink: () => '/usr/share/zoneinfo/America/Sao_Paulo',
				intl: () => 'UTC',
			}),
		).toBe('America/Sao_Paulo');
		expect(machineTimeZone({ etcTimezone: none, localtimeLink: none, intl: () => 'Etc/UTC' })).toBe(
			'Etc/UTC',
		);
	});

	it('skips what is not a zone name and falls back to UTC', () => {
		expect(machineTimeZone({ tz: 'not/a-zone', etcTimezone: () => 'Europe/Riga' })).toBe(
			'Europe/Riga',
		);
		expect(
			machineTimeZone({ tz: '', etcTimezone: none, localtimeLink: none, intl: () => undefined }),
		).toBe('UTC');
	});
});
