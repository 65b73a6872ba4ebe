/**
 * Every node of the pack can be found by its display name in n8n's node picker, in a real browser (Debian's
 * Chromium driven by playwright-core, as `npm run screenshots` does): from an empty canvas ("What triggers
 * this workflow?") and from a node's "+" ("What happens next?"). n8n's editor filters its search by the
 * nodes' codex categories, so this is where a wrong codex shows (unit twin: test/unit/package/node-picker).
 *
 * A trigger whose type name minus "Trigger" is an app node's shares that node's entry (n8n merges them), so
 * for it the entry shown is the app node's; any other trigger's entry is titled without " Trigger" (n8n-editor-ui
 * 2.41 moves the full name into the entry's aliases, which the search reads).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { DEFAULT_OWNER } from '../../scripts/lib/n8n-server.ts';
import { paths, startN8n, type N8nInstance } from './harness/n8n';

const CHROMIUM = '/usr/bin/chromium';

type NodeDescription = { name: string; displayName: string; group: string[] };

let n8n: N8nInstance;
let context: BrowserContext;
let page: Page;
let userDataDir: string;
let ours: NodeDescription[];
let triggerWorkflowId: string;

/** The entry the picker shows for a node: its own, or the app node's it is merged into. */
function expectedEntry(node: NodeDescription): string {
	const appName = node.name.replace('Trigger', '');
	const app = ours.find((candidate) => candidate.name === appName && candidate !== node);
	if (app) return app.displayName;
	return node.group.includes('trigger')
		? node.displayName.replace(' Trigger', '')
		: node.displayName;
}

beforeAll(async () => {
	if (!existsSync(CHROMIUM))
		throw new Error(
			'Debian Chromium is missing: run `node scripts/ensure-system-packages.mjs chromium`.',
		);
	n8n = await startN8n({ mode: 'regular' });
	const types = (await (await n8n.client.fetch('/types/nodes.json')).json()) as Array<
		NodeDescription & { name: string }
	>;
	const manifest = JSON.parse(readFileSync(join(paths.root, 'package.json'), 'utf8'));
	const prefix = `${manifest.name}.`;
	// n8n also lists each usableAsTool node's "… Tool" variant, which only the AI tools panel offers.
	const seen = new Set<string>();
	ours = types.filter((type) => {
		if (!type.name.startsWith(prefix) || type.name.endsWith('Tool') || seen.has(type.name))
			return false;
		seen.add(type.name);
		return true;
	});
	expect(ours).toHaveLength(manifest.n8n.nodes.length);

	triggerWorkflowId = (
		await n8n.client.importWorkflow({
			name: 'Node picker: a trigger to continue from',
			nodes: [
				{
					id: '5b0c1f9e-0000-4000-8000-000000000001',
					name: 'When clicking Execute workflow',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
			],
			connections: {},
		})
	).id;

	userDataDir = mkdtempSync(join(tmpdir(), 'chromium-node-picker-'));
	context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM,
		headless: true,
		viewport: { width: 1280, height: 800 },
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	page = context.pages()[0] ?? (await context.newPage());
	await page.goto(`${n8n.baseUrl}/signin`);
	await page
		.locator('input[type=email], input[name=emailOrLdapLoginId]')
		.first()
		.fill(DEFAULT_OWNER.email);
	await page.locator('input[type=password]').first().fill(DEFAULT_OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
});

afterAll(async () => {
	await context?.close();
	await n8n?.stop();
	if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/**
 * Types the name into the open picker's search and waits (up to 15 s) for the entry to be listed; answers
 * whether it was, and the entries listed then. The list re-renders after the search's debounce, so it is
 * watched rather than read once.
 */
async function search(name: string, entry: string): Promise<{ found: boolean; names: string[] }> {
	await page.locator('input[data-test-id="node-creator-search-bar"]').first().fill(name);
	const listed = async () =>
		(await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()).map((text) =>
			text.trim(),
		);
	const deadline = Date.now() + 15_000;
	let names = await listed();
	while (!names.includes(entry) && Date.now() < deadline) {
		await page.waitForTimeout(200);
		names = await listed();
	}
	return { found: names.includes(entry), names };
}

async function openFromEmptyCanvas() {
	await page.goto(`${n8n.baseUrl}/workflow/new`);
	await page.locator('[data-test-id="canvas-plus-button"]').first().click();
	await page.locator('[data-test-id="node-creator"]').waitFor({ state: 'visible' });
}

async function openWhatHappensNext() {
	await page.goto(`${n8n.baseUrl}/workflow/${triggerWorkflowId}`);
	await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
	await page.locator('[data-test-id="node-creator"]').waitFor({ state: 'visible' });
	await page.getByText('What happens next?').first().waitFor({ state: 'visible' });
}

/**
 * Searches for something no node matches until no entry of the pack is listed, so that the next search's list
 * is the one rendered for it (a list left from the previous query could hold the entry looked for). n8n may
 * list suggestions of its own for a query without results: only the pack's entries count.
 */
async function clearResults() {
	await page
		.locator('input[data-test-id="node-creator-search-bar"]')
		.first()
		.fill('zzqx-no-such-node');
	const entries = new Set(ours.map(expectedEntry));
	const items = page.locator('[data-test-id="node-creator-item-name"]');
	const deadline = Date.now() + 15_000;
	while (
		(await items.allInnerTexts()).some((text) => entries.has(text.trim())) &&
		Date.now() < deadline
	)
		await page.waitForTimeout(100);
}

// One page session per place: the picker is opened once and every node is searched in it (a page load per node
// made this test take minutes on a loaded machine); it is reopened only if it closed.
describe.each([
	['an empty canvas', openFromEmptyCanvas],
	['"What happens next?"', openWhatHappensNext],
])('from %s', (_where, open) => {
	it('finds every node of the pack by its display name', async () => {
		const missing: string[] = [];
		await open();
		for (const node of ours) {
			if (!(await page.locator('[data-test-id="node-creator"]').isVisible())) await open();
			await clearResults();
			const entry = expectedEntry(node);
			const { found, names } = await search(node.displayName, entry);
			if (!found)
				missing.push(
					`"${node.displayName}" (expected entry "${entry}"): listed ${names.join(', ') || 'nothing'}`,
				);
		}
		expect(missing).toEqual([]);
	}, 300_000);
});
