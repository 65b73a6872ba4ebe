/** XML namespaces of WebDAV and its calendar/contacts extensions; elements are matched by these URIs, never by prefix. */
export const NS = {
	DAV: 'DAV:',
	CALDAV: 'urn:ietf:params:xml:ns:caldav',
	CARDDAV: 'urn:ietf:params:xml:ns:carddav',
	/** getctag, shared-calendar details (Apple/CalendarServer extensions most servers carry). */
	CALSERVER: 'http://calendarserver.org/ns/',
	/** calendar-color, calendar-order. */
	APPLE_ICAL: 'http://apple.com/ns/ical/',
} as const;

/** The prefixes this pack writes; servers may answer with any others. */
export const PREFIX: Record<string, string> = {
	[NS.DAV]: 'd',
	[NS.CALDAV]: 'c',
	[NS.CARDDAV]: 'card',
	[NS.CALSERVER]: 'cs',
	[NS.APPLE_ICAL]: 'ical',
};

export interface QName {
	ns: string;
	name: string;
}

export const qname = (ns: string, name: string): QName => ({ ns, name });
