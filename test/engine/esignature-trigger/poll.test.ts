/**
 * What one E-Signature Trigger poll sends and emits, with nock as the service: from_date per file, names
 * asked only for files with a new signature, a missing listed file refused without moving the state.
 */
import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPoll } from '../harness';
import { BASE, form, TOKEN, WEB } from '../../unit/storage/run-storage';
import { withDurableCursors } from '../../unit/durable-env';
import { callsThroughNock } from '../../unit/offline';

callsThroughNock();

beforeEach(() => {
	nock.cleanAll();
	nock.disableNetConnect();
	nock(BASE)
		.persist()
		.post('/api/authenticate_user.php')
		.reply(200, { Success: true, SessionID: 's1', UserData: { UserName: 'demo' } });
});
afterAll(() => {
	nock.enableNetConnect();
	nock.restore();
});

const TRIGGER = 'n8n-nodes-cloud-storage.cloudStorageESignatureTrigger';
const poll = async (parameters: INodeParameters, staticData: IDataObject = {}) =>
	await runPoll(
		{ nodes: [{ name: 'Trigger', type: TRIGGER, parameters }], connections: {} },
		{ credentials: { cloudStorageTokenApi: { ...TOKEN } }, staticData },
	);

/** get_esignatures answered per file hash from a table; each request's form fields recorded. */
function signatures(
	table: Record<string, Array<[number, unknown]>>,
): Array<Record<string, string>> {
	const sent: Array<Record<string, string>> = [];
	nock(BASE)
		.persist()
		.post('/api_v2/get_esignatures')
		.reply((_uri, body) => {
			const fields = form(String(body));
			sent.push(fields);
			const queue = table[fields.file_hash] ?? [[405, '']];
			const [status, answer] = queue.length > 1 ? queue.shift()! : queue[0];
			return [
				status,
				answer === '' ? '' : JSON.stringify(answer),
				{ 'Content-Type': 'application/json' },
			];
		});
	return sent;
}
const rec = (signing_timestamp: string, signer_name: string) => ({
	file_hash: 'ignored',
	signing_timestamp,
	signer_name,
});

describe('a list of files', () => {
	it('asks from_date the last signing time per file, and file info only for a file with a new signature', async () => {
		const sent = signatures({
			aaa: [
				[200, [rec('2030-01-01 10:00:00', 'Ann')]],
				[200, [rec('2030-01-01 10:00:00', 'Ann'), rec('2030-01-01 11:00:00', 'Bob')]],
			],
			bbb: [[200, []]],
		});
		const info = nock(BASE)
			.post('/api_v2/get_file_info')
			.reply(200, { name: 'contract.pdf', size: 10 });
		const parameters = { watch: 'files', files: `aaa, ${WEB}/f/bbb` };
		const first = await poll(parameters);
		expect(first.emitted).toBeNull();
		const second = await poll(parameters, first.staticData);
		expect(second.items.map(({ json }) => json)).toEqual([
			{
				event: 'signed',
				eventId: expect.stringMatching(/^[0-9a-f]{32}$/),
				file_hash: 'aaa',
				file_name: 'contract.pdf',
				signer_name: 'Bob',
				signing_timestamp: '2030-01-01 11:00:00',
				link: `${WEB}/f/aaa`,
			},
		]);
		expect(info.isDone()).toBe(true);
		expect(sent.map(({ file_hash, from_date }) => [file_hash, from_date])).toEqual([
			['aaa', undefined],
			['bbb', undefined],
			['aaa', '2030-01-01 10:00:00'],
			['bbb', undefined],
		]);
		expect(sent[0].user_access_token).toBe(TOKEN.accessToken);
	});

	it('a listed file that cannot be read fails the poll with a fix, keeping the state', async () => {
		signatures({ aaa: [[200, []]] });
		const first = await poll({ watch: 'files', files: 'aaa' });
		await expect(poll({ watch: 'files', files: 'aaa, gone' }, first.staticData)).rejects.toThrow(
			/gone was not found or cannot be viewed/,
		);
	});

	it('refuses a folder link before any request', async () => {
		const sent = signatures({});
		await expect(poll({ watch: 'files', files: `${WEB}/u/folder` })).rejects.toThrow(
			/not a file hash or file link/,
		);
		expect(sent).toEqual([]);
	});
});

describe('eventId', () => {
	it('is the same when the same static data is polled again (a crash before n8n kept it); a second identical signature gets its own', async () => {
		const ann = rec('2030-01-01 10:00:00', 'Ann');
		const bob = rec('2030-01-01 11:00:00', 'Bob');
		signatures({
			aaa: [
				[200, [ann]],
				[200, [ann, bob]],
				[200, [ann, bob]],
				[200, [bob, bob]],
			],
		});
		nock(BASE).persist().post('/api_v2/get_file_info').reply(200, { name: 'c.pdf', size: 1 });
		const parameters = { watch: 'files', files: 'aaa' };
		const ids = (run: { items: Array<{ json: IDataObject }> }) =>
			run.items.map(({ json }) => [json.signer_name, json.eventId]);
		const first = await poll(parameters);
		const second = await poll(parameters, first.staticData);
		const replayed = await poll(parameters, first.staticData);
		expect(ids(second)).toEqual([['Bob', expect.stringMatching(/^[0-9a-f]{32}$/)]]);
		expect(ids(replayed)).toEqual(ids(second));
		// Bob signed again in the same second: a new signature, with an id of its own.
		const third = await poll(parameters, second.staticData);
		expect(ids(third)).toHaveLength(1);
		expect(ids(third)[0][1]).not.toBe(ids(second)[0][1]);
	});
});

describe("with n8n's durable poll cursors", () => {
	it('the first poll records the state and emits one empty batch, so n8n commits the state it staged', async () => {
		signatures({ aaa: [[200, [rec('2030-01-01 10:00:00', 'Ann')]]] });
		const first = await withDurableCursors(
			async () => await poll({ watch: 'files', files: 'aaa' }),
		);
		expect(first.emitted).toEqual([[]]);
		expect(first.nodeStaticData.state).toMatchObject({ v: 1, scope: 'files' });
	});
});
