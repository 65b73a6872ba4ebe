// The DAV triggers as crash-run targets (crash.ts), against a real Radicale through the proxy of
// dav-proxy.ts (which sees every request and can hold an answer back): Calendar Trigger on changes (created,
// updated, deleted events), Calendar Trigger "starts within" (events created to start in 10 minutes), Contacts
// Trigger (created, updated, deleted contacts). Updates and deletions touch objects made before activation,
// each one once, so no two changes merge before a poll and every change stays one event.
import type { Radicale } from '../../dav/radicale';
import { RADICALE_USER } from '../../dav/radicale';
import type { CrashTarget, PollRequest } from './crash';
import { closeProxy, davProxy, type DavProxy } from './dav-proxy';
import { loadWorkflow } from './n8n';

const POOL = 40;

const event = (
	uid: string,
	summary: string,
	start = '20300110T100000Z',
	end = '20300110T110000Z',
) =>
	[
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//Crash Run//EN',
		'BEGIN:VEVENT',
		`UID:${uid}`,
		'DTSTAMP:20300101T000000Z',
		`DTSTART:${start}`,
		`DTEND:${end}`,
		`SUMMARY:${summary}`,
		'END:VEVENT',
		'END:VCALENDAR',
		'',
	].join('\r\n');
const contact = (uid: string, name: string) =>
	['BEGIN:VCARD', 'VERSION:3.0', `UID:${uid}`, `FN:${name}`, 'END:VCARD', ''].join('\r\n');
/** iCalendar UTC date-time (RFC 5545 3.3.5). */
const icalUtc = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

type Kind = 'calendar' | 'startsSoon' | 'contacts';

async function put(server: Radicale, url: string, body: string) {
	const answer = await server.send('PUT', url, {
		body,
		headers: { 'content-type': url.endsWith('.ics') ? 'text/calendar' : 'text/vcard' },
	});
	if (answer.status >= 300) throw new Error(`PUT ${url} answered ${answer.status}`);
}

function proxied(proxy: DavProxy, collectionPath: string) {
	const mark = proxy.log.length;
	return {
		pollRequests: (): PollRequest[] =>
			proxy.log
				.slice(mark)
				.filter((entry) => entry.path.startsWith(collectionPath))
				.map((entry) => ({
					name: entry.sync === undefined ? entry.method : 'sync',
					answered: entry.status !== undefined,
				})),
		// Every request asked so far answered: after a sync answer the objects' data follows within milliseconds.
		pollAnswered: (requests: PollRequest[]) =>
			requests.length > 0 && requests.every((request) => request.answered),
		holdNextAnswer: (ms: number) => void (proxy.holdNextAnswerMs = ms),
		release: () => void (proxy.holdNextAnswerMs = 0),
		close: async () => await closeProxy(proxy),
	};
}

export async function davTarget(server: Radicale, kind: Kind, label: string): Promise<CrashTarget> {
	const proxy = await davProxy(server.url);
	const name = `crash-${kind}-${label}-${Date.now()}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
	const collection =
		kind === 'contacts' ? await server.mkaddressbook(name) : await server.mkcalendar(name);
	const extension = kind === 'contacts' ? 'vcf' : 'ics';
	const body = (uid: string, text: string) =>
		kind === 'contacts'
			? contact(uid, text)
			: kind === 'startsSoon'
				? event(uid, text, icalUtc(Date.now() + 10 * 60_000), icalUtc(Date.now() + 70 * 60_000))
				: event(uid, text);
	const pool: string[] = [];
	if (kind === 'startsSoon') {
		// Due at activation: recorded by the first poll, never announced.
		await put(server, `${collection}due.ics`, body('due', 'Due at activation'));
	} else {
		for (let i = 0; i < POOL; i++) {
			await put(server, `${collection}pool-${i}.${extension}`, body(`pool-${i}`, `Pool ${i}`));
			pool.push(`pool-${i}.${extension}`);
		}
	}

	const workflow = loadWorkflow('dav-triggers.json');
	const node = workflow.nodes[kind === 'contacts' ? 1 : 0];
	workflow.nodes = [node];
	workflow.connections = {};
	const watched = new URL(new URL(collection).pathname, proxy.url).href;
	if (kind === 'contacts') node.parameters.addressBook.value = watched;
	else node.parameters.calendar.value = watched;
	if (kind === 'startsSoon')
		Object.assign(node.parameters, { trigger: 'startsWithin', minutes: 15 });

	let count = 0;
	return {
		trigger:
			kind === 'contacts'
				? 'Contacts Trigger'
				: kind === 'startsSoon'
					? 'Calendar Trigger (starts within)'
					: 'Calendar Trigger (changes)',
		node: node.name,
		workflow,
		credential: {
			type: 'cloudStorageDavApi',
			data: { davUrl: proxy.url, ...RADICALE_USER },
		},
		async change(random) {
			const keys: string[] = [];
			for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
				const draw = random();
				if (kind !== 'startsSoon' && draw < 0.5 && pool.length) {
					const file = pool.shift()!;
					if (draw < 0.25) {
						await put(server, `${collection}${file}`, body(file.split('.')[0], `Changed ${file}`));
						keys.push(`updated ${file}`);
					} else {
						const answer = await server.send('DELETE', `${collection}${file}`);
						if (answer.status >= 300) throw new Error(`DELETE ${file} answered ${answer.status}`);
						keys.push(`deleted ${file}`);
					}
					continue;
				}
				const file = `new-${++count}.${extension}`;
				await put(server, `${collection}${file}`, body(`new-${count}`, `New ${count}`));
				keys.push(`${kind === 'startsSoon' ? 'startsSoon' : 'created'} ${file}`);
			}
			return keys;
		},
		keyOf: (json) =>
			typeof json.url === 'string'
				? `${json.event} ${new URL(json.url).pathname.split('/').pop()}`
				: undefined,
		...proxied(proxy, new URL(collection).pathname),
	};
}
