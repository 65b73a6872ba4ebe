// A second `npm start`: the sandbox seeded new hashes, and the examples imported at the first start are brought up
// to date with them (scripts/lib/demo-setup.ts), leaving the user's other edits alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { fillPlaceholders, refreshExampleWorkflows } from '../../../scripts/lib/demo-setup.ts';
import type { N8nClient } from '../../../scripts/lib/n8n-client.ts';

const EXAMPLE = {
	name: 'Watch a folder',
	nodes: [
		{
			name: 'Trigger',
			parameters: { folder: { value: 'REPLACE_ME: the hash of the folder to watch' } },
		},
		{
			name: 'Get',
			parameters: {
				file: { value: 'REPLACE_ME: the hash of a PDF file in your storage' },
				note: 'unchanged',
			},
		},
	],
};
const FIRST = {
	'the hash of the folder to watch': 'OldFolder1',
	'the hash of a PDF file in your storage': 'OldPdf1',
};
const SECOND = {
	'the hash of the folder to watch': 'NewFolder2',
	'the hash of a PDF file in your storage': 'NewPdf2',
};

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'demo-refresh-'));
	writeFileSync(join(dir, 'watch.json'), JSON.stringify(EXAMPLE));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An n8n holding `workflow` as id 1, recording what is saved. */
function fakeClient(workflow: Record<string, unknown>) {
	const saved: Array<Record<string, unknown>> = [];
	const client = {
		listWorkflows: async () => [{ id: '1', name: EXAMPLE.name, versionId: 'v1' }],
		getWorkflow: async () => structuredClone(workflow),
		updateWorkflow: async (_id: string, changes: Record<string, unknown>) => {
			saved.push(changes);
		},
	};
	return { client: client as unknown as N8nClient, saved };
}

it('replaces the values of the first start everywhere (expressions and pinned data too), and keeps the rest', async () => {
	const imported = fillPlaceholders(EXAMPLE, FIRST) as typeof EXAMPLE & Record<string, unknown>;
	imported.nodes[1].parameters.note = '={{ "OldPdf1" }} added by the user';
	imported.pinData = { Trigger: [{ json: { hash: 'OldFolder1' } }] };
	const { client, saved } = fakeClient(imported);
	const valuesFile = join(dir, 'values.json');
	writeFileSync(valuesFile, JSON.stringify(FIRST));

	const updated = await refreshExampleWorkflows(client, dir, SECOND, valuesFile);

	expect(updated).toEqual([EXAMPLE.name]);
	const [changes] = saved;
	expect(JSON.stringify(changes)).not.toMatch(/Old/);
	expect(changes.nodes).toEqual([
		{ name: 'Trigger', parameters: { folder: { value: 'NewFolder2' } } },
		{
			name: 'Get',
			parameters: { file: { value: 'NewPdf2' }, note: '={{ "NewPdf2" }} added by the user' },
		},
	]);
	expect(changes.pinData).toEqual({ Trigger: [{ json: { hash: 'NewFolder2' } }] });
	expect(JSON.parse(readFileSync(valuesFile, 'utf8'))).toEqual(SECOND);
});

it('without the values file (a folder of an older npm start), reads the old values where the placeholders sit', async () => {
	const { client, saved } = fakeClient(fillPlaceholders(EXAMPLE, FIRST));
	await refreshExampleWorkflows(client, dir, SECOND, join(dir, 'values.json'));
	expect(JSON.stringify(saved[0].nodes)).toContain('NewFolder2');
	expect(JSON.stringify(saved[0].nodes)).toContain('NewPdf2');
});

it('saves nothing when the seeded values did not change, and leaves a value the user chose', async () => {
	const mine = fillPlaceholders(EXAMPLE, FIRST);
	mine.nodes[0].parameters.folder!.value = 'MyOwnFolder';
	const valuesFile = join(dir, 'values.json');
	writeFileSync(valuesFile, JSON.stringify(FIRST));
	const same = fakeClient(fillPlaceholders(EXAMPLE, FIRST));
	expect(await refreshExampleWorkflows(same.client, dir, FIRST, valuesFile)).toEqual([]);
	expect(same.saved).toEqual([]);

	const own = fakeClient(mine);
	await refreshExampleWorkflows(own.client, dir, SECOND, valuesFile);
	expect(JSON.stringify(own.saved[0].nodes)).toContain('MyOwnFolder');
});
