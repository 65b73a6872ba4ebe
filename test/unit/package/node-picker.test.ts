// n8n's node picker merges an app node and its trigger into one entry when the trigger's type name minus
// "Trigger" is the app node's, and shows the trigger's description for it (n8n-editor-ui 2.41,
// generateMergedNodesAndActions). Each merged entry must therefore describe both the actions and the trigger,
// and every node that stands alone keeps its own description.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { CloudStorage } from '../../../nodes/Storage/CloudStorage.node';
import { CloudStorageTrigger } from '../../../nodes/StorageTrigger/CloudStorageTrigger.node';
import { CloudStorageCalendar } from '../../../nodes/Calendar/CloudStorageCalendar.node';
import { CloudStorageCalendarTrigger } from '../../../nodes/CalendarTrigger/CloudStorageCalendarTrigger.node';
import { CloudStorageContacts } from '../../../nodes/Contacts/CloudStorageContacts.node';
import { CloudStorageContactsTrigger } from '../../../nodes/ContactsTrigger/CloudStorageContactsTrigger.node';
import { CloudStorageESignature } from '../../../nodes/ESignature/CloudStorageESignature.node';
import { CloudStorageESignatureTrigger } from '../../../nodes/ESignatureTrigger/CloudStorageESignatureTrigger.node';
import { CloudStorageDmsTrigger } from '../../../nodes/DmsTrigger/CloudStorageDmsTrigger.node';
import { CloudStorageDmsTask } from '../../../nodes/DmsTask/CloudStorageDmsTask.node';
import { CloudStorageContactPerson } from '../../../nodes/ContactPerson/CloudStorageContactPerson.node';

const actions = [
	CloudStorage,
	CloudStorageCalendar,
	CloudStorageContacts,
	CloudStorageESignature,
	CloudStorageDmsTask,
	CloudStorageContactPerson,
].map((node) => new node().description);
const triggers = [
	CloudStorageTrigger,
	CloudStorageCalendarTrigger,
	CloudStorageContactsTrigger,
	CloudStorageESignatureTrigger,
	CloudStorageDmsTrigger,
].map((node) => new node().description);

/** The picker's rule: the first "Trigger" removed from the type name. */
const mergedWith = (trigger: INodeTypeDescription) =>
	actions.find((action) => action.name === trigger.name.replace('Trigger', ''));

/** What the merged entry must say it does: the app node's verbs, and starting a workflow. */
const expectedWords: Record<string, RegExp[]> = {
	cloudStorage: [/upload/i, /download/i, /start a workflow/i],
	cloudStorageCalendar: [/create/i, /update/i, /delete/i, /start a workflow/i],
	cloudStorageContacts: [/create/i, /search/i, /delete/i, /start a workflow/i],
	cloudStorageESignature: [/list/i, /signing requests/i, /signing page/i, /start a workflow/i],
};

describe('node picker', () => {
	test.each(
		triggers
			.filter((trigger) => mergedWith(trigger))
			.map((trigger) => [trigger.name, trigger] as const),
	)('%s shares a picker entry with its app node and describes both', (_name, trigger) => {
		const action = mergedWith(trigger)!;
		for (const word of expectedWords[action.name] ?? [/start a workflow/i])
			expect([action.name, trigger.description]).toEqual([
				action.name,
				expect.stringMatching(word),
			]);
	});

	it('merges exactly the app nodes that have a trigger of the same name', () => {
		expect(
			triggers
				.filter((trigger) => mergedWith(trigger))
				.map((trigger) => mergedWith(trigger)!.name)
				.sort(),
		).toEqual(Object.keys(expectedWords).sort());
	});

	it('keeps a description of its own on every node that stands alone', () => {
		const merged = new Set(triggers.map((trigger) => mergedWith(trigger)?.name));
		for (const node of [...actions, ...triggers]) {
			expect(node.description.length).toBeGreaterThan(20);
			if (!merged.has(node.name))
				expect(
					triggers.filter((trigger) => trigger !== node).map((trigger) => trigger.description),
				).not.toContain(node.description);
		}
	});
});

// n8n-editor-ui 2.41 (useViewStacks, filterOutAiNodes) drops from every search outside its AI panel each node
// whose codex categories include "AI" unless its `subcategories.AI` lists "Root Nodes" (as long as the canvas
// holds no AI node yet): such a node cannot be found by its name from an empty canvas or "What happens next?".
// The node's tool variant ("… Tool") gets its own codex from n8n, so the node itself never claims "Tools".
describe('codex categories the node picker searches', () => {
	const codexFiles = readdirSync(join(__dirname, '../../../nodes'), { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && entry.name !== 'shared')
		.flatMap((entry) =>
			readdirSync(join(__dirname, '../../../nodes', entry.name))
				.filter((name) => name.endsWith('.node.json'))
				.map((name) => join(entry.name, name)),
		);
	const read = (file: string) =>
		JSON.parse(readFileSync(join(__dirname, '../../../nodes', file), 'utf8')) as {
			categories: string[];
			subcategories?: Record<string, string[]>;
		};

	test.each(codexFiles.filter((file) => read(file).categories.includes('AI')))(
		'%s is in the AI category as a root node, so a plain search finds it',
		(file) => {
			const aiSubcategories = read(file).subcategories?.AI ?? [];
			expect([file, aiSubcategories]).toEqual([file, expect.arrayContaining(['Root Nodes'])]);
			expect([file, aiSubcategories]).toEqual([file, expect.not.arrayContaining(['Tools'])]);
		},
	);
});
