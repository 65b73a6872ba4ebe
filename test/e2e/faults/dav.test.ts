/**
 * Faults: 1,000-item Calendar (event create, update) and Contacts (contact create, update) workflows in a
 * real n8n with Continue On Fail, against Radicale behind a seeded faulty proxy (fault-proxy.ts). Afterwards
 * Radicale's collections are read from disk: every item done exactly once or reported failed, none lost, none twice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RADICALE_USER, startRadicale, type Radicale } from '../../dav/radicale';
import { startN8n, type CredentialRef, type N8nInstance } from '../harness/n8n';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
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

const pad = (i: number) => String(i).padStart(4, '0');
/** The collection's objects as Radicale stored them: file name → content. */
const objects = (name: string) => {
	const dir = join(radicale.dir, 'collections/collection-root', RADICALE_USER.username, name);
	return readdirSync(dir)
		.filter((file) => /\.(ics|vcf)$/.test(file))
		.map((file) => ({
			file,
			text: readFileSync(join(dir, file), 'utf8').replace(/\r\n[ \t]/g, ''),
		}));
};
const withLine = (name: string, line: string) =>
	objects(name).filter((object) => object.text.split(/\r?\n/).includes(line)).length;

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

async function stage(
	label: string,
	nodes: any[],
	inputCount: number,
	seed: number,
	applied: () => number[],
) {
	const workflow = await n8n.client.importWorkflow(linearWorkflow(`Faults DAV: ${label}`, nodes));
	proxy.setFaults(0.06, seed);
	const started = Date.now();
	const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 600_000 });
	const hits = `${Object.entries(proxy.hits)
		.map(([kind, n]) => `${kind}×${n}`)
		.join(' ')} in ${proxy.requests()} requests, ${((Date.now() - started) / 1000).toFixed(1)} s`;
	proxy.setFaults(0, 0);
	expect(execution.status).toBe('success');
	expect(JSON.stringify(execution.data)).not.toContain(RADICALE_USER.password);
	const { reports, errors } = reportsByIndex(execution, 'DAV', inputCount);
	const result = tally(reports, applied());
	printTally(label, result, `faults ${hits} · ${timeoutErrors(errors)} timeouts reported`);
	expect(errorsAreClear(errors)).toEqual([]);
	expect({ lost: result.lostIndexes, duplicated: result.duplicatedIndexes }).toEqual({
		lost: [],
		duplicated: [],
	});
}

const indexes = Array.from({ length: FAULT_ITEMS }, (_, i) => i);
const CALENDAR = 'n8n-nodes-cloud-storage.cloudStorageCalendar';
const CONTACTS = 'n8n-nodes-cloud-storage.cloudStorageContacts';

it('creates and updates 1,000 events under faults: nothing lost, nothing duplicated', async () => {
	const calendar = (await radicale.mkcalendar('faults')).replace(radicale.url, proxy.url);
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
		() => indexes.map((i) => withLine('faults', `SUMMARY:fault event ${pad(i)}`)),
	);
	const created = objects('faults').map(({ file, text }) => ({
		url: `${calendar}${file}`,
		index: Number(/SUMMARY:fault event (\d+)/.exec(text)![1]),
	}));
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
	);
});

it('creates and updates 1,000 contacts under faults: nothing lost, nothing duplicated', async () => {
	const book = (await radicale.mkaddressbook('faults-book')).replace(radicale.url, proxy.url);
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
		() => indexes.map((i) => withLine('faults-book', `FN:fault contact ${pad(i)}`)),
	);
	const created = objects('faults-book').map(({ file, text }) => ({
		url: `${book}${file}`,
		index: Number(/FN:fault contact (\d+)/.exec(text)![1]),
	}));
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
	);
});
