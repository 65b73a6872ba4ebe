/**
 * Faults: FAULT_ITEMS-item (1,000 for the report, 250 in npm test) Calendar (event create, update) and Contacts (contact create, update) workflows in a
 * real n8n with Continue On Fail, against Radicale behind a seeded faulty proxy (fault-proxy.ts). Afterwards
 * Radicale's collections are read from disk: every item done exactly once or reported failed, none lost, none twice.
 *
 * The world is not the node's alone (issue #35): a second client of the account writes objects with the same
 * titles (names) into the same collections as the node's writes arrive (every one a fault stops, and a seeded
 * fifth of the others), and changes an object right after the node's update of it was applied but its answer
 * lost (half of those); every answer's `Date` is 5 min off (ahead for creates, behind for updates); some writes are applied
 * only after the node's Timeout ended (`slow`). Every PUT Radicale applies is counted per item (Sent again
 * after applied), and each write reported done is checked to be the node's own (Wrong item adopted).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { prng } from '../../sandbox/prng';
import { RADICALE_USER, startRadicale, type Radicale } from '../../dav/radicale';
import { startN8n, type CredentialRef, type N8nInstance } from '../harness/n8n';
import { startFaultProxy, type FaultProxy, type SeenRequest } from './fault-proxy';
import {
	errorsAreClear,
	FAULT_ITEMS,
	itemsNode,
	linearWorkflow,
	printTally,
	reportsByIndex,
	requestOptions,
	tally,
	timeoutErrors,
} from './tally';

jest.setTimeout(900_000);

let radicale: Radicale;
let proxy: FaultProxy;
let n8n: N8nInstance;
let credential: CredentialRef;
beforeAll(async () => {
	radicale = await startRadicale();
	proxy = await startFaultProxy(radicale.url);
	n8n = await startN8n({ mode: 'regular' });
	credential = await n8n.client.createCredential('cloudStorageDavApi', 'Faults DAV', {
		davUrl: proxy.url,
		username: RADICALE_USER.username,
		password: RADICALE_USER.password,
	});
});
afterAll(async () => {
	await n8n?.stop();
	await proxy?.close();
	await radicale?.stop();
});

const FIVE_MINUTES = 5 * 60_000;
/** The second client's objects are stored as `second-<n>.ics|vcf`: the tally tells them from the node's. */
const SECOND = 'second-';
const pad = (i: number) => String(i).padStart(4, '0');
/** The collection's objects as Radicale stored them: file name → content (unfolded). */
const objects = (name: string) => {
	const dir = join(radicale.dir, 'collections/collection-root', RADICALE_USER.username, name);
	return readdirSync(dir)
		.filter((file) => /\.(ics|vcf)$/.test(file))
		.map((file) => ({
			file,
			text: readFileSync(join(dir, file), 'utf8').replace(/\r\n[ \t]/g, ''),
		}));
};
const linesOf = (text: string) => text.split(/\r?\n/);
/** The node's objects (not the second client's) holding `line`. */
const withLine = (name: string, line: string) =>
	objects(name).filter(
		(object) => !object.file.startsWith(SECOND) && linesOf(object.text).includes(line),
	).length;
const fileOf = (url: unknown) => decodeURIComponent(String(url ?? '').replace(/^.*\//, ''));
const pathOf = (url: string) => decodeURIComponent(new URL(url).pathname);

function davNode(type: string, parameters: Record<string, unknown>) {
	return {
		name: 'DAV',
		type,
		typeVersion: 1,
		parameters: { ...parameters, requestOptions },
		credentials: { cloudStorageDavApi: { id: credential.id, name: credential.name } },
		onError: 'continueRegularOutput',
	};
}

/** What a stage's world does besides the faults. */
interface StageWorld {
	dateOffsetMs: number;
	/** The item a PUT of the node applies to, or undefined. */
	applies: (seen: SeenRequest) => number | undefined;
	/** The second client, as one of the node's PUTs for item i arrives. */
	meanwhile?: (seen: SeenRequest, index: number, stopped: boolean) => Promise<void>;
	/** The second client, right after Radicale applied item i's PUT whose answer the node will miss. */
	afterLostAnswer?: (seen: SeenRequest, index: number) => Promise<void>;
	/** True when item i's ok output names what its own write did not make. */
	wrong: (outputs: Record<string, any>[], applications: number[]) => (index: number) => boolean;
}

async function stage(
	label: string,
	nodes: any[],
	inputCount: number,
	seed: number,
	applied: () => number[],
	world: StageWorld,
) {
	const workflow = await n8n.client.importWorkflow(linearWorkflow(`Faults DAV: ${label}`, nodes));
	const applications = Array.from({ length: inputCount }, () => 0);
	const secondClient = prng(seed + 77);
	// The second client's own failures are collected (a hook must not throw inside the proxy) and must be none.
	const secondClientErrors: string[] = [];
	const acting = async (act: () => Promise<void>) =>
		await act().catch((error: Error) => void secondClientErrors.push(error.message));
	proxy.setFaults(0.06, seed, {
		dateOffsetMs: world.dateOffsetMs,
		slow: true,
		meanwhile: async (seen, stopped) => {
			const index = world.applies(seen);
			if (index === undefined || !world.meanwhile || !(stopped || secondClient() < 0.2)) return;
			await acting(async () => await world.meanwhile!(seen, index, stopped));
		},
		answered: async (seen, status, answerLost) => {
			const index = world.applies(seen);
			if (index === undefined || status < 200 || status >= 300) return;
			applications[index]++;
			if (answerLost && world.afterLostAnswer && secondClient() < 0.5)
				await acting(async () => await world.afterLostAnswer!(seen, index));
		},
	});
	const started = Date.now();
	const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 600_000 });
	// A write held back past the Timeout lands afterwards: wait for it before Radicale is read.
	await proxy.idle();
	const hits = `${Object.entries(proxy.hits)
		.map(([kind, n]) => `${kind}×${n}`)
		.join(' ')} in ${proxy.requests()} requests, ${((Date.now() - started) / 1000).toFixed(1)} s`;
	proxy.setFaults(0, 0);
	expect(execution.status).toBe('success');
	expect(JSON.stringify(execution.data)).not.toContain(RADICALE_USER.password);
	const { reports, errors, outputs } = reportsByIndex(execution, 'DAV', inputCount);
	const result = tally(reports, applied(), {
		applications,
		wrong: world.wrong(outputs, applications),
	});
	printTally(label, result, `faults ${hits} · ${timeoutErrors(errors)} timeouts reported`);
	expect(errorsAreClear(errors)).toEqual([]);
	expect(secondClientErrors).toEqual([]);
	expect({
		lost: result.lostIndexes,
		duplicated: result.duplicatedIndexes,
		wrongAdopted: result.wrongIndexes,
		sentAgain: result.sentAgainIndexes,
	}).toEqual({ lost: [], duplicated: [], wrongAdopted: [], sentAgain: [] });
}

/** A PUT with If-None-Match: * (the node's create), its item read from the line `pattern` finds. */
const createOf = (pattern: RegExp) => (seen: SeenRequest) => {
	if (seen.method !== 'PUT' || seen.headers['if-none-match'] !== '*') return undefined;
	const match = pattern.exec(seen.body.replace(/\r\n[ \t]/g, ''));
	return match ? Number(match[1]) : undefined;
};

/** A PUT with If-Match to one of `urls` (the node's update), its item by position. */
const updateOf = (urls: string[]) => {
	const position = new Map(urls.map((url, i) => [pathOf(url), i]));
	return (seen: SeenRequest) =>
		seen.method === 'PUT' && seen.headers['if-match'] !== undefined
			? position.get(decodeURIComponent(seen.path.split('?')[0]))
			: undefined;
};

let written = 0;
/** The second client stores an object of its own (its own UID and URL) in the collection of `path`. */
async function secondClientStores(path: string, kind: 'ics' | 'vcf', lines: string[]) {
	const n = ++written;
	const collection = path.replace(/[^/]*$/, '');
	const body =
		kind === 'ics'
			? [
					'BEGIN:VCALENDAR',
					'VERSION:2.0',
					'PRODID:-//Second client//EN',
					'BEGIN:VEVENT',
					`UID:second-client-${n}`,
					'DTSTAMP:20300101T000000Z',
					'DTSTART:20300501T090000Z',
					'DTEND:20300501T100000Z',
					...lines,
					'END:VEVENT',
					'END:VCALENDAR',
					'',
				]
			: ['BEGIN:VCARD', 'VERSION:3.0', `UID:second-client-${n}`, ...lines, 'END:VCARD', ''];
	const answer = await radicale.send('PUT', `${collection}${SECOND}${n}.${kind}`, {
		body: body.join('\r\n'),
		headers: { 'Content-Type': kind === 'ics' ? 'text/calendar' : 'text/vcard' },
	});
	if (answer.status >= 300) throw new Error(`second client: PUT answered ${answer.status}`);
}

/** The second client changes the object at `path` (read, one line added, PUT with If-Match). */
async function secondClientChanges(path: string, line: string) {
	const current = await radicale.send('GET', path);
	const etag = current.headers.etag;
	const text = current.body.replace(/\r\n[ \t]/g, '');
	const end = text.includes('END:VEVENT') ? 'END:VEVENT' : 'END:VCARD';
	const answer = await radicale.send('PUT', path, {
		body: text.replace(end, `${line}\r\n${end}`),
		headers: {
			'Content-Type': end === 'END:VEVENT' ? 'text/calendar' : 'text/vcard',
			...(typeof etag === 'string' ? { 'If-Match': etag } : {}),
		},
	});
	if (answer.status >= 300) throw new Error(`second client: change answered ${answer.status}`);
}

/** A create reported ok names an object the node's own PUT made: its URL, its item's title, no other item's. */
const createWrong =
	(collection: string, titleLine: (i: number) => string) =>
	(outputs: Record<string, any>[], applications: number[]) => {
		const stored = new Map(objects(collection).map((object) => [object.file, object.text]));
		const reported = new Map<string, number>();
		outputs.forEach((output) => {
			const file = fileOf(output?.url);
			if (output && output.error === undefined) reported.set(file, (reported.get(file) ?? 0) + 1);
		});
		return (i: number) => {
			const file = fileOf(outputs[i]?.url);
			const text = stored.get(file);
			return (
				applications[i] === 0 ||
				file.startsWith(SECOND) ||
				text === undefined ||
				!linesOf(text).includes(titleLine(i)) ||
				(reported.get(file) ?? 0) > 1
			);
		};
	};

/** An update reported ok names its own object, and Radicale applied the node's own PUT to it. */
const updateWrong =
	(urls: string[]) => (outputs: Record<string, any>[], applications: number[]) => (i: number) =>
		applications[i] === 0 || fileOf(outputs[i]?.url) !== fileOf(urls[i]);

const indexes = Array.from({ length: FAULT_ITEMS }, (_, i) => i);
const CALENDAR = 'n8n-nodes-cloud-storage.cloudStorageCalendar';
const CONTACTS = 'n8n-nodes-cloud-storage.cloudStorageContacts';

it(`creates and updates ${FAULT_ITEMS} events under faults: nothing lost, duplicated, adopted or sent again`, async () => {
	const calendar = (await radicale.mkcalendar('faults')).replace(radicale.url, proxy.url);
	const title = (i: number) => `SUMMARY:fault event ${pad(i)}`;
	await stage(
		'Calendar event create',
		[
			itemsNode(indexes.map((i) => ({ summary: `fault event ${pad(i)}` }))),
			davNode(CALENDAR, {
				resource: 'event',
				operation: 'create',
				calendar: { __rl: true, mode: 'url', value: calendar },
				summary: '={{ $json.summary }}',
				start: '2030-05-01T09:00:00Z',
				end: '2030-05-01T10:00:00Z',
				allDay: false,
				additionalFields: {},
			}),
		],
		FAULT_ITEMS,
		9701,
		() => indexes.map((i) => withLine('faults', title(i))),
		{
			dateOffsetMs: FIVE_MINUTES,
			applies: createOf(/^SUMMARY:fault event (\d{4})\r?$/m),
			meanwhile: async (seen, i) => await secondClientStores(seen.path, 'ics', [title(i)]),
			wrong: createWrong('faults', title),
		},
	);
	const created = objects('faults')
		.filter(({ file }) => !file.startsWith(SECOND))
		.map(({ file, text }) => ({
			url: `${calendar}${file}`,
			index: Number(/SUMMARY:fault event (\d+)/.exec(text)![1]),
		}));
	const urls = created.map(({ url }) => url);
	await stage(
		'Calendar event update',
		[
			itemsNode(created),
			davNode(CALENDAR, {
				resource: 'event',
				operation: 'update',
				eventUrl: '={{ $json.url }}',
				updateFields: { summary: "={{ 'updated ' + $json.index }}" },
			}),
		],
		created.length,
		9702,
		() => created.map(({ index }) => withLine('faults', `SUMMARY:updated ${index}`)),
		{
			dateOffsetMs: -FIVE_MINUTES,
			applies: updateOf(urls),
			meanwhile: async (seen, i) =>
				await secondClientStores(seen.path, 'ics', [`SUMMARY:updated ${created[i].index}`]),
			afterLostAnswer: async (seen) =>
				await secondClientChanges(seen.path, 'LOCATION:set by the second client'),
			wrong: updateWrong(urls),
		},
	);
});

it(`creates and updates ${FAULT_ITEMS} contacts under faults: nothing lost, duplicated, adopted or sent again`, async () => {
	const book = (await radicale.mkaddressbook('faults-book')).replace(radicale.url, proxy.url);
	const name = (i: number) => `FN:fault contact ${pad(i)}`;
	await stage(
		'Contacts contact create',
		[
			itemsNode(indexes.map((i) => ({ name: `fault contact ${pad(i)}` }))),
			davNode(CONTACTS, {
				resource: 'contact',
				operation: 'create',
				addressBook: { __rl: true, mode: 'url', value: book },
				fullName: '={{ $json.name }}',
				additionalFields: {},
			}),
		],
		FAULT_ITEMS,
		9801,
		() => indexes.map((i) => withLine('faults-book', name(i))),
		{
			dateOffsetMs: FIVE_MINUTES,
			applies: createOf(/^FN:fault contact (\d{4})\r?$/m),
			meanwhile: async (seen, i) =>
				await secondClientStores(seen.path, 'vcf', [name(i), `N:;fault contact ${pad(i)};;;`]),
			wrong: createWrong('faults-book', name),
		},
	);
	const created = objects('faults-book')
		.filter(({ file }) => !file.startsWith(SECOND))
		.map(({ file, text }) => ({
			url: `${book}${file}`,
			index: Number(/FN:fault contact (\d+)/.exec(text)![1]),
		}));
	const urls = created.map(({ url }) => url);
	await stage(
		'Contacts contact update',
		[
			itemsNode(created),
			davNode(CONTACTS, {
				resource: 'contact',
				operation: 'update',
				contactUrl: '={{ $json.url }}',
				updateFields: { title: "={{ 'updated ' + $json.index }}" },
			}),
		],
		created.length,
		9802,
		() => created.map(({ index }) => withLine('faults-book', `TITLE:updated ${index}`)),
		{
			dateOffsetMs: -FIVE_MINUTES,
			applies: updateOf(urls),
			meanwhile: async (seen, i) =>
				await secondClientStores(seen.path, 'vcf', [
					`FN:fault contact ${pad(created[i].index)}`,
					`N:;fault contact ${pad(created[i].index)};;;`,
					`TITLE:updated ${created[i].index}`,
				]),
			afterLostAnswer: async (seen) =>
				await secondClientChanges(seen.path, 'NOTE:set by the second client'),
			wrong: updateWrong(urls),
		},
	);
});
