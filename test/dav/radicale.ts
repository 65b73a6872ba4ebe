/**
 * A real Radicale (Debian `python3-radicale`) for the DAV tests and for `npm start`: free port, temporary
 * storage, plain htpasswd, owner_only rights. Radicale does not auto-create collections, so tests create
 * theirs with `mkcalendar` / `mkaddressbook` (extended MKCOL) in set-up.
 *
 * Plain `.ts` with erasable syntax and `.ts` import extensions, so Node 24 runs it directly.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	freePort,
	spawnLogged,
	waitUntil,
	type ManagedProcess,
} from '../../scripts/lib/processes.ts';
import { rawRequest, type RawAnswer } from './raw-request.ts';

export const RADICALE_USER = { username: 'alice', password: 'alice-dav-pass-1' };
export const RADICALE_OTHER_USER = { username: 'bob', password: 'bob-dav-pass-1' };

const PYTHON = '/usr/bin/python3';

export interface RadicaleOptions {
	/** Default: a free port. */
	port?: number;
	/** Storage and config folder; default a fresh temp folder, deleted by stop(). */
	dir?: string;
	users?: Array<{ username: string; password: string }>;
}

export interface Radicale {
	/** The DAV URL for a credential: `http://127.0.0.1:<port>/`. */
	url: string;
	port: number;
	dir: string;
	process: ManagedProcess;
	/** MKCALENDAR `/<user>/<name>/`; returns its URL. */
	mkcalendar(
		name: string,
		options?: { user?: string; displayName?: string; components?: string[] },
	): Promise<string>;
	/** Extended MKCOL of an address book `/<user>/<name>/`; returns its URL. */
	mkaddressbook(name: string, options?: { user?: string; displayName?: string }): Promise<string>;
	/** A raw request as another DAV client would send it (Basic auth of `user`, default alice). */
	send(
		method: string,
		url: string,
		options?: { body?: string; headers?: Record<string, string>; user?: string },
	): Promise<RawAnswer>;
	stop(): Promise<void>;
}

export function radicaleInstalled(): boolean {
	return existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/radicale');
}

export async function startRadicale(options: RadicaleOptions = {}): Promise<Radicale> {
	if (!radicaleInstalled()) {
		throw new Error(
			'Radicale is not installed: run `node scripts/ensure-system-packages.mjs` (Debian python3-radicale) first.',
		);
	}
	const ownDir = !options.dir;
	const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'radicale-'));
	mkdirSync(join(dir, 'collections'), { recursive: true });
	const port = options.port ?? (await freePort());
	const users = options.users ?? [RADICALE_USER, RADICALE_OTHER_USER];
	writeFileSync(
		join(dir, 'users'),
		users.map((user) => `${user.username}:${user.password}`).join('\n') + '\n',
	);
	const config = [
		'[server]',
		`hosts = 127.0.0.1:${port}`,
		'[auth]',
		'type = htpasswd',
		`htpasswd_filename = ${join(dir, 'users')}`,
		'htpasswd_encryption = plain',
		'delay = 0',
		'[rights]',
		'type = owner_only',
		'[storage]',
		`filesystem_folder = ${join(dir, 'collections')}`,
		'[web]',
		'type = none',
		'[logging]',
		'level = warning',
		'mask_passwords = True',
	].join('\n');
	writeFileSync(join(dir, 'config'), config + '\n');

	const child = spawnLogged(
		'radicale',
		PYTHON,
		['-m', 'radicale', '--config', join(dir, 'config')],
		{
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' },
			logFile: join(dir, 'radicale.log'),
		},
	);
	const url = `http://127.0.0.1:${port}/`;
	const [first] = users;
	const authOf = (name = first.username) => {
		const user = users.find((candidate) => candidate.username === name) ?? first;
		return `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
	};

	const send: Radicale['send'] = (method, target, sendOptions = {}) =>
		rawRequest(
			url,
			method,
			target,
			{ authorization: authOf(sendOptions.user), ...sendOptions.headers },
			sendOptions.body,
		);

	try {
		await waitUntil('Radicale to answer', async () => (await send('OPTIONS', url)).status < 500, {
			process: child,
			timeoutMs: 15_000,
			intervalMs: 50,
		});
	} catch (error) {
		await child.stop();
		if (ownDir) rmSync(dir, { recursive: true, force: true });
		throw error;
	}

	const expectCreated = (what: string, response: { status: number; body: string }) => {
		if (response.status !== 201)
			throw new Error(`Radicale refused to create ${what}: ${response.status} ${response.body}`);
	};

	return {
		url,
		port,
		dir,
		process: child,
		send,
		async mkcalendar(name, calendarOptions = {}) {
			const user = calendarOptions.user ?? first.username;
			const target = `${url}${user}/${name}/`;
			const components = (calendarOptions.components ?? ['VEVENT', 'VTODO'])
				.map((comp) => `<C:comp name="${comp}"/>`)
				.join('');
			const body =
				'<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>' +
				`<D:displayname>${calendarOptions.displayName ?? name}</D:displayname>` +
				`<C:supported-calendar-component-set>${components}</C:supported-calendar-component-set>` +
				'</D:prop></D:set></C:mkcalendar>';
			expectCreated(
				`calendar ${name}`,
				await send('MKCALENDAR', target, {
					body,
					user,
					headers: { 'content-type': 'application/xml' },
				}),
			);
			return target;
		},
		async mkaddressbook(name, bookOptions = {}) {
			const user = bookOptions.user ?? first.username;
			const target = `${url}${user}/${name}/`;
			const body =
				'<?xml version="1.0" encoding="utf-8"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>' +
				'<D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>' +
				`<D:displayname>${bookOptions.displayName ?? name}</D:displayname>` +
				'</D:prop></D:set></D:mkcol>';
			expectCreated(
				`address book ${name}`,
				await send('MKCOL', target, { body, user, headers: { 'content-type': 'application/xml' } }),
			);
			return target;
		},
		async stop() {
			await child.stop();
			if (ownDir) rmSync(dir, { recursive: true, force: true });
		},
	};
}
