// The machine's time zone for n8n's GENERIC_TIMEZONE (n8n's own default is America/New_York, so without it
// folders and dates the examples create are stamped in New York time on any other machine).
// The first valid IANA name of: TZ, /etc/timezone (Debian), the /etc/localtime link, Intl's zone.
import { readFileSync, readlinkSync } from 'node:fs';

export type TimeZoneSources = {
	tz?: string;
	etcTimezone?: () => string;
	localtimeLink?: () => string;
	intl?: () => string | undefined;
};

function isZone(name: string | undefined): name is string {
	if (!name) return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name });
		return true;
	} catch {
		return false;
	}
}

const attempt = (read: (() => string | undefined) | undefined) => {
	try {
		return read?.()?.trim();
	} catch {
		return undefined;
	}
};

export function machineTimeZone(
	sources: TimeZoneSources = {
		tz: process.env.TZ,
		etcTimezone: () => readFileSync('/etc/timezone', 'utf8'),
		localtimeLink: () => readlinkSync('/etc/localtime'),
		intl: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
	},
): string {
	// TZ may be ":Europe/Berlin" (glibc's form) or a path; only a zone name is taken.
	const fromTz = sources.tz?.replace(/^:/, '').trim();
	const fromLink = attempt(sources.localtimeLink)?.split('/zoneinfo/')[1];
	for (const candidate of [fromTz, attempt(sources.etcTimezone), fromLink, attempt(sources.intl)])
		if (isZone(candidate)) return candidate;
	return 'UTC';
}
