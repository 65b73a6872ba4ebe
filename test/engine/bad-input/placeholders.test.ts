// The example workflows mark what a user must set with `REPLACE_ME: <what>`; such a value is refused before
// any request, naming the parameter and what to set (sent as is, it came back as a misleading 403/404/405).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';

import { fillPlaceholders } from '../../../scripts/lib/demo-setup';
import { findPlaceholder } from '../../../nodes/shared/node/placeholders';
import { rl, runStorage, unexpectedRequests } from '../../unit/storage/run-storage';
import { callsThroughNock } from '../../unit/offline';

callsThroughNock();

const seen = unexpectedRequests();
afterEach(() => nock.cleanAll());
// nock patches Node's http module for the whole Jest worker; later files in it need the real one back.
afterAll(() => nock.restore());

describe('example placeholders', () => {
	it('are refused before any request, with the parameter and what to set', async () => {
		const { error } = await runStorage({
			resource: 'file',
			operation: 'get',
			file: rl('REPLACE_ME: the hash of a PDF file in your storage'),
		});
		expect(error?.message).toBe('"file" still holds the example\'s placeholder');
		expect(error?.description).toBe(
			'Set "file" to the hash of a PDF file in your storage. Nothing was sent to the service.',
		);
		expect(seen).toEqual([]);
	});

	it('give one error item per item under Continue On Fail', async () => {
		const { out, error } = await runStorage(
			{ resource: 'folder', operation: 'get', folder: rl('REPLACE_ME: a folder hash') },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out[0].json.error).toBe('"folder" still holds the example\'s placeholder');
		expect(seen).toEqual([]);
	});

	it('name nested parameters by their path', () => {
		expect(findPlaceholder({ updateFields: { summary: 'x', url: 'REPLACE_ME: an URL' } })).toEqual({
			path: ['updateFields', 'url'],
			what: 'an URL',
		});
		expect(findPlaceholder({ a: 'REPLACEMENT' })).toBeUndefined();
	});

	it('are all filled by npm start (every placeholder of the examples has a value in the demo)', () => {
		const dir = join(__dirname, '../../e2e/workflows');
		const demo = {
			'the hash of a PDF file in your storage': 'Pdf1',
			'the hash of the folder to watch': 'Fold1',
			"the service's address (the Base URL of your credential)": 'http://127.0.0.1:5680',
			'the URL of the calendar to watch': 'http://127.0.0.1:5232/alice/calendar/',
			'the URL of a calendar on your DAV server': 'http://127.0.0.1:5232/alice/calendar/',
			'the URL of the address book to watch': 'http://127.0.0.1:5232/alice/contacts/',
			'the URL of an event another calendar client wrote (Get Events shows it)':
				'http://127.0.0.1:5232/alice/calendar/foreign.ics',
			'the URL of a contact another client wrote (Get Contacts shows it)':
				'http://127.0.0.1:5232/alice/contacts/foreign.vcf',
		};
		for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
			const filled = fillPlaceholders(JSON.parse(readFileSync(join(dir, file), 'utf8')), demo);
			expect([file, findPlaceholder(filled)]).toEqual([file, undefined]);
		}
	});
});
