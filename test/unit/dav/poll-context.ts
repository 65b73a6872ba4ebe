/**
 * A hand-made IPollFunctions for the DAV triggers' unit tests: parameters, a static-data object the test
 * keeps between polls, the mode (trigger or manual) and an HTTP helper that applies the real credential and
 * sends through Node's http module, where nock answers. Every request is logged for counting and bodies.
 */
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import nock from 'nock';
import type {
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';

import { CloudStorageDavApi } from '../../../credentials/CloudStorageDavApi.credentials';
import { CloudStorageCalendarTrigger } from '../../../nodes/CalendarTrigger/CloudStorageCalendarTrigger.node';
import { CloudStorageContactsTrigger } from '../../../nodes/ContactsTrigger/CloudStorageContactsTrigger.node';

// This context logs the requests that pass through its stand-in for n8n's helper, so they are sent there. The
// transport's own kept-alive connections (the default) carry the same triggers against Radicale in the engine tier.
process.env.CLOUD_STORAGE_KEEP_ALIVE = 'false';

export const DAV = 'https://dav.example.test';

/**
 * The file's DAV answers come from nock alone: nothing leaves the machine, every answer a test set up must
 * have been asked for, and spies end with each test.
 */
export function answeredByNock(): void {
	beforeEach(() => {
		nock.cleanAll();
		nock.disableNetConnect();
	});
	afterEach(() => {
		jest.restoreAllMocks();
		expect(nock.pendingMocks()).toEqual([]);
	});
	afterAll(() => {
		nock.enableNetConnect();
		nock.restore();
	});
}
export const DAV_CREDENTIAL = { davUrl: `${DAV}/`, username: 'alice', password: 'dav-secret-1' };

export interface SentRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: string;
}

export interface PollRun {
	emitted: INodeExecutionData[][] | null;
	items: IDataObject[];
	requests: SentRequest[];
}

function send(
	options: IHttpRequestOptions,
	log: SentRequest[],
): Promise<{ statusCode: number; headers: IncomingMessage['headers']; body: IncomingMessage }> {
	const headers = Object.fromEntries(
		Object.entries(options.headers ?? {}).map(([name, value]) => [
			name.toLowerCase(),
			String(value),
		]),
	);
	const body = typeof options.body === 'string' ? options.body : '';
	log.push({ method: String(options.method), url: options.url, headers, body });
	return new Promise((resolve, reject) => {
		const request = httpsRequest(options.url, { method: options.method, headers }, (response) =>
			resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response }),
		);
		request.on('error', reject);
		if (options.timeout)
			request.setTimeout(options.timeout, () =>
				request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
			);
		request.end(body);
	});
}

/** Resource locators arrive as `{ __rl, value }`; `extractValue` asks for the value. */
function parameter(
	parameters: IDataObject,
	name: string,
	fallback: unknown,
	options?: { extractValue?: boolean },
): unknown {
	const value = parameters[name] ?? fallback;
	if (options?.extractValue && value && typeof value === 'object' && '__rl' in value)
		return (value as IDataObject).value;
	return value;
}

export function pollContext(
	parameters: IDataObject,
	staticData: IDataObject,
	mode: 'trigger' | 'manual',
	log: SentRequest[],
	/** The workflow's time zone (n8n: the workflow setting, else GENERIC_TIMEZONE). */
	timezone = 'UTC',
): IPollFunctions {
	const credential = new CloudStorageDavApi();
	const ctx = {
		getNode: () => ({
			id: 'n1',
			name: 'Trigger',
			type: 'trigger',
			typeVersion: 1,
			position: [0, 0],
			parameters,
		}),
		getMode: () => mode,
		getTimezone: () => timezone,
		getNodeParameter: (name: string, fallback: unknown, options?: { extractValue?: boolean }) =>
			parameter(parameters, name, fallback, options),
		getWorkflowStaticData: (type: string) => {
			if (type !== 'node') throw new Error(`unexpected static data type ${type}`);
			return staticData;
		},
		getCredentials: async () => ({ ...DAV_CREDENTIAL }),
		helpers: {
			returnJsonArray: (items: IDataObject[]) => items.map((json) => ({ json })),
			httpRequest: async (options: IHttpRequestOptions) => await send(options, log),
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
				await send(
					await credential.authenticate(
						{ ...DAV_CREDENTIAL },
						{ ...options, headers: { ...options.headers } },
					),
					log,
				),
		},
	};
	return ctx as unknown as IPollFunctions;
}

const TRIGGERS = {
	calendar: new CloudStorageCalendarTrigger(),
	contacts: new CloudStorageContactsTrigger(),
};

/**
 * One poll as n8n runs it: the static data object is the one n8n would persist after a successful poll
 * (the caller passes the same object again for the next poll).
 */
export async function poll(
	trigger: keyof typeof TRIGGERS,
	parameters: IDataObject,
	staticData: IDataObject,
	mode: 'trigger' | 'manual' = 'trigger',
	timezone = 'UTC',
): Promise<PollRun> {
	const requests: SentRequest[] = [];
	const emitted = await TRIGGERS[trigger].poll.call(
		pollContext(parameters, staticData, mode, requests, timezone),
	);
	return { emitted, items: (emitted?.[0] ?? []).map((item) => item.json), requests };
}

export const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });

// Multistatus fixtures, with prefixes chosen per test: servers differ in them.
export interface Prefixes {
	dav: string;
	cal: string;
	card: string;
}
export const USUAL: Prefixes = { dav: 'D', cal: 'C', card: 'A' };

export function multistatus(
	inner: string,
	options: { prefixes?: Prefixes; syncToken?: string } = {},
): string {
	const { dav, cal, card } = options.prefixes ?? USUAL;
	const token =
		options.syncToken === undefined
			? ''
			: `<${dav}:sync-token>${options.syncToken}</${dav}:sync-token>`;
	return `<?xml version="1.0" encoding="utf-8"?><${dav}:multistatus xmlns:${dav}="DAV:" xmlns:${cal}="urn:ietf:params:xml:ns:caldav" xmlns:${card}="urn:ietf:params:xml:ns:carddav">${inner}${token}</${dav}:multistatus>`;
}

export function found(href: string, props: string, prefixes: Prefixes = USUAL): string {
	const d = prefixes.dav;
	return `<${d}:response><${d}:href>${href}</${d}:href><${d}:propstat><${d}:prop>${props}</${d}:prop><${d}:status>HTTP/1.1 200 OK</${d}:status></${d}:propstat></${d}:response>`;
}

/** A deletion as sync-collection reports it: a response with a 404 status and no propstat. */
export function gone(href: string, prefixes: Prefixes = USUAL): string {
	const d = prefixes.dav;
	return `<${d}:response><${d}:href>${href}</${d}:href><${d}:status>HTTP/1.1 404 Not Found</${d}:status></${d}:response>`;
}

export const etagProp = (etag: string, prefixes: Prefixes = USUAL) =>
	`<${prefixes.dav}:getetag>${etag}</${prefixes.dav}:getetag>`;

/** PROPFIND Depth 0 answer for a collection: its type and supported reports. */
export function collectionProps(
	href: string,
	kind: 'calendar' | 'addressbook',
	reports: string[],
	prefixes: Prefixes = USUAL,
): string {
	const { dav: d, cal, card } = prefixes;
	const type = kind === 'calendar' ? `<${cal}:calendar/>` : `<${card}:addressbook/>`;
	const reportNs = (name: string) =>
		name === 'sync-collection' ? d : kind === 'calendar' ? cal : card;
	const supported = reports
		.map(
			(name) =>
				`<${d}:supported-report><${d}:report><${reportNs(name)}:${name}/></${d}:report></${d}:supported-report>`,
		)
		.join('');
	return multistatus(
		found(
			href,
			`<${d}:resourcetype><${d}:collection/>${type}</${d}:resourcetype><${d}:supported-report-set>${supported}</${d}:supported-report-set>`,
			prefixes,
		),
		{ prefixes },
	);
}

export function ics(uid: string, summary: string, start: string, extra: string[] = []): string {
	return [
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Other//EN',
		'BEGIN:VEVENT',
		`UID:${uid}`,
		'DTSTAMP:20300101T000000Z',
		`DTSTART:${start}`,
		'DURATION:PT30M',
		`SUMMARY:${summary}`,
		...extra,
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n');
}

export function vcard(uid: string, fullName: string): string {
	return ['BEGIN:VCARD', 'VERSION:3.0', `UID:${uid}`, `FN:${fullName}`, 'END:VCARD', ''].join(
		'\r\n',
	);
}

/** XML-escape object data for embedding in calendar-data/address-data. */
export const xmlText = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
