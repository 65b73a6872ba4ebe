// The examples as a newcomer reads them at fit-to-view: no row longer than the Storage round trip's, notes that
// say what `npm start` already filled, no date filter that expires with the year.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const WORKFLOWS = join(__dirname, '../../e2e/workflows');

type ExampleNode = {
	name: string;
	type: string;
	position: [number, number];
	parameters: Record<string, unknown>;
};
const examples = readdirSync(WORKFLOWS)
	.filter((name) => name.endsWith('.json'))
	.map((file) => {
		const workflow = JSON.parse(readFileSync(join(WORKFLOWS, file), 'utf8')) as {
			nodes: ExampleNode[];
		};
		return [file, workflow.nodes] as const;
	});
const isNote = (node: ExampleNode) => node.type === 'n8n-nodes-base.stickyNote';
const notesOf = (nodes: ExampleNode[]) =>
	nodes.filter(isNote).map((node) => String(node.parameters.content));

it.each(examples)('%s: no row holds more nodes than the Storage round trip (8)', (_file, nodes) => {
	const rows = new Map<number, number>();
	for (const node of nodes.filter((candidate) => !isNote(candidate)))
		rows.set(node.position[1], (rows.get(node.position[1]) ?? 0) + 1);
	expect(Math.max(...rows.values())).toBeLessThanOrEqual(8);
});

it.each(examples)(
	'%s: a note that speaks of a placeholder says it is for your own n8n (npm start fills them)',
	(_file, nodes) => {
		for (const note of notesOf(nodes).filter((text) => /placeholder|REPLACE_ME/.test(text)))
			expect(note).toMatch(/`npm start`|your own n8n/);
	},
);

it.each(examples)(
	'%s: no date filter fixed to a year (an expression relative to today instead)',
	(_file, nodes) => {
		for (const node of nodes) {
			const filters = node.parameters.filters as Record<string, unknown> | undefined;
			// Bad-input nodes show the error for an impossible date on purpose.
			if (!filters || /^Bad /.test(node.name)) continue;
			for (const value of Object.values(filters))
				expect(String(value)).not.toMatch(/^\d{4}-\d{2}-\d{2}/);
		}
	},
);

it('the e-signature flow says where a file hash comes from and that its webhooks need it published', () => {
	const [, nodes] = examples.find(([file]) => file === 'esignature-flow.json')!;
	const note = notesOf(nodes).join('\n');
	expect(note).toMatch(/file hash is the `hash` of a file/);
	expect(note).toMatch(/Publish the workflow first/);
});

it('the E-Signature Trigger example watches the folder npm start signs a file in', () => {
	const [, nodes] = examples.find(([file]) => file === 'esignature-trigger.json')!;
	const trigger = nodes.find((node) => node.type.endsWith('cloudStorageESignatureTrigger'))!;
	expect(trigger.parameters.folder).toMatchObject({
		value: 'REPLACE_ME: the hash of the folder to watch',
	});
});
