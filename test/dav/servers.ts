/**
 * The independent CalDAV/CardDAV servers every DAV engine test runs against. Each entry names the server
 * and the documented behaviour where it differs from another conforming server (what the tests assert
 * the node does there).
 */
import { startRadicale, type Radicale } from './radicale.ts';
import { startXandikos } from './xandikos.ts';

export type DavServer = Radicale;

export interface DavServerKind {
	name: 'Radicale' | 'Xandikos';
	start(): Promise<DavServer>;
	/** MKCALENDAR creates the calendar but refuses `supported-calendar-component-set` (it takes every component). */
	ignoresComponentSet: boolean;
	/** No authentication of its own (it expects a reverse proxy): any credential is accepted. */
	noAuthentication: boolean;
}

export const DAV_SERVERS: DavServerKind[] = [
	{
		name: 'Radicale',
		start: () => startRadicale(),
		ignoresComponentSet: false,
		noAuthentication: false,
	},
	{
		name: 'Xandikos',
		start: () => startXandikos(),
		ignoresComponentSet: true,
		noAuthentication: true,
	},
];
