/**
 * A real Xandikos (Debian `xandikos`), the second independent CalDAV/CardDAV server of the DAV tests: free
 * port on 127.0.0.1, temporary storage, stopped cleanly. It answers the same helper interface as
 * `radicale.ts`, so a test runs unchanged against both.
 *
 * What differs from Radicale, and what the tests rely on:
 * - one principal `/user/` with the homes `/user/calendars/` and `/user/contacts/` (`--autocreate`); it does
 *   no authentication of its own (it expects a reverse proxy to do it), so any credential is accepted;
 * - MKCALENDAR answers 201 with a `mkcalendar-response` refusing `supported-calendar-component-set` (404)
 *   while it creates the calendar; its `supported-report-set` omits the `<report>` wrapper.
 *
 * Plain `.ts` with erasable syntax and `.ts` import extensions, so Node 24 runs it directly.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnLogged, waitUntil } from '../../scripts/lib/processes.ts';
import type { Radicale } from './radicale.ts';
import { rawRequest } from './raw-request.ts';

const XANDIKOS = '/usr/bin/xandikos';

export type Xandikos = Radicale;

export function xandikosInstalled(): boolean {
	return existsSync(XANDIKOS);
}

export async function startXandikos(): Promise<Xandikos> {
	if (!xandikosInstalled()) {
		throw new Error(
			'Xandikos is not installed: run `node scripts/ensure-system-packages.mjs` (Debian xandikos) first.',
		);
	}
	const dir = mkdtempSync(join(tmpdir(), 'xandikos-'));
	const port = await freePort();
	const child = spawnLogged(
		'xandikos',
		XANDIKOS,
		['-d', join(dir, 'data'), '--autocreate', '-l', '127.0.0.1', '-p', String(port)],
		{
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' },
			logFile: join(dir, 'xandikos.log'),
		},
	);
	const url = `http://127.0.0.1:${port}/`;

	const send: Xandikos['send'] = (method, target, sendOptions = {}) =>
		rawRequest(
			url,
			method,
			target,
			// Xandikos refuses a body without a type (415); another client always sends one.
			{
				...(sendOptions.body !== undefined ? { 'content-type': 'application/xml' } : {}),
				...sendOptions.headers,
			},
			sendOptions.body,
		);

	try {
		await waitUntil('Xandikos to answer', async () => (await send('OPTIONS', url)).status < 500, {
			process: child,
			timeoutMs: 15_000,
			intervalMs: 50,
		});
	} catch (error) {
		await child.stop();
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}

	const expectCreated = (what: string, response: { status: number; body: string }) => {
		if (response.status !== 201)
			throw new Error(`Xandikos refused to create ${what}: ${response.status} ${response.body}`);
	};

	return {
		url,
		port,
		dir,
		process: child,
		send,
		async mkcalendar(name, calendarOptions = {}) {
			const target = `${url}user/calendars/${name}/`;
			// Xandikos does not take the component set at creation (see above): not sent here.
			const body =
				'<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>' +
				`<D:displayname>${calendarOptions.displayName ?? name}</D:displayname>` +
				'</D:prop></D:set></C:mkcalendar>';
			expectCreated(
				`calendar ${name}`,
				await send('MKCALENDAR', target, { body, headers: { 'content-type': 'application/xml' } }),
			);
			return target;
		},
		async mkaddressbook(name, bookOptions = {}) {
			const target = `${url}user/contacts/${name}/`;
			const body =
				'<?xml version="1.0" encoding="utf-8"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>' +
				'<D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>' +
				`<D:displayname>${bookOptions.displayName ?? name}</D:displayname>` +
				'</D:prop></D:set></D:mkcol>';
			expectCreated(
				`address book ${name}`,
				await send('MKCOL', target, { body, headers: { 'content-type': 'application/xml' } }),
			);
			return target;
		},
		async stop() {
			await child.stop();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
