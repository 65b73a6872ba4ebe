#!/usr/bin/env node
// What n8n's editor writes into a resource mapper's `schema` when a DMS example node is opened: the way to
// refresh the `schema` arrays of test/e2e/workflows/dms-*.json (test/engine/package/examples-schema.test.ts
// fails when they drift from the sandbox's fields or the mapper). Starts a fresh temporary n8n with the
// sandbox, the demo credentials and the examples (as `npm start` does), opens each resource-mapper node in
// Debian's Chromium so the editor fetches the columns, saves the workflow with Ctrl+S, reads it back through
// n8n's REST API, says on stderr which nodes the editor changed and prints each node's `fields` as JSON.
// Paste each `schema` into the example with `"removed": false` on every field: the editor keeps a stored
// boolean `removed` as it is, but adds `removed: false` to a stored field that lacks it, so only then is
// a second opening a no-op. Needs a build (`npm run build`).
//
//   node_modules/.bin/node scripts/capture-mapper-schema.ts > /tmp/schemas.json
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { chromium } from 'playwright-core';
import {
	importExampleWorkflows,
	prepareExampleData,
	upsertDemoCredentials,
} from './lib/demo-setup.ts';
import { DEFAULT_OWNER, startN8n } from './lib/n8n-server.ts';
import { repoPaths } from './lib/paths.ts';

const root = resolve(process.argv[1], '../..');
const paths = repoPaths(root);
const FILES = ['dms-task-roundtrip.json', 'dms-task-writer.json', 'dms-input-errors.json'];
const log = (message: string) => console.error(`[capture-mapper-schema] ${message}`);

type Node = { id: string; name: string; parameters: Record<string, any> };
const mapperNodes = (nodes: Node[]) =>
	nodes.filter((node) => node.parameters?.fields?.mappingMode !== undefined);

async function main() {
	const stops: Array<() => Promise<void>> = [];
	const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-mapper-'));
	try {
		const { startSandbox, DEMO_ACCOUNT } = await import('../test/sandbox/server.ts');
		const sandbox = await startSandbox({ port: 0 });
		stops.push(() => sandbox.close());
		log('starting n8n');
		const n8n = await startN8n({ paths, userFolder: mkdtempSync(join(tmpdir(), 'n8n-mapper-')) });
		stops.push(async () => {
			await n8n.stop();
			rmSync(n8n.userFolder, { recursive: true, force: true });
		});
		const services = { sandbox, account: DEMO_ACCOUNT };
		const credentials = await upsertDemoCredentials(n8n.client, services);
		await importExampleWorkflows(
			n8n.client,
			paths.workflowsDir,
			credentials,
			await prepareExampleData(services),
		);
		const byName = new Map(
			(await n8n.client.listWorkflows()).map((workflow) => [workflow.name, workflow.id]),
		);

		const context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: '/usr/bin/chromium',
			headless: true,
			viewport: { width: 1280, height: 800 },
			args: [
				'--headless',
				'--no-sandbox',
				'--disable-gpu',
				'--no-first-run',
				'--disable-background-networking',
			],
		});
		stops.push(() => context.close());
		const page = context.pages()[0] ?? (await context.newPage());
		await page.goto(`${n8n.baseUrl}/signin`);
		await page
			.locator('input[type=email], input[name=emailOrLdapLoginId]')
			.first()
			.fill(DEFAULT_OWNER.email);
		await page.locator('input[type=password]').first().fill(DEFAULT_OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });

		const result: Record<string, Record<string, unknown>> = {};
		for (const file of FILES) {
			const example = JSON.parse(readFileSync(join(paths.workflowsDir, file), 'utf8'));
			const id = byName.get(example.name);
			if (!id) throw new Error(`${file} was not imported`);
			for (const node of mapperNodes(example.nodes)) {
				log(`${file}: opening "${node.name}"`);
				await page.goto(`${n8n.baseUrl}/workflow/${id}/${node.id}`);
				await page
					.locator('[data-test-id="ndv"]')
					.first()
					.waitFor({ state: 'visible', timeout: 30_000 });
				await page.waitForLoadState('networkidle').catch(() => undefined);
				await page.waitForTimeout(1500);
				await page.keyboard.press('Escape');
				await page.keyboard.press('Control+s');
				await page.waitForLoadState('networkidle').catch(() => undefined);
				await page.waitForTimeout(1500);
			}
			const saved = await n8n.client.getWorkflow(id);
			result[file] = Object.fromEntries(
				mapperNodes(saved.nodes).map((node) => [node.name, node.parameters.fields]),
			);
			for (const node of mapperNodes(example.nodes)) {
				const same = isDeepStrictEqual(result[file][node.name], node.parameters.fields);
				log(
					`${file}: "${node.name}" ${same ? 'unchanged by the editor' : 'CHANGED by the editor: refresh the example'}`,
				);
			}
		}
		console.log(JSON.stringify(result, null, '\t'));
	} finally {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		rmSync(userDataDir, { recursive: true, force: true });
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(`[capture-mapper-schema] ${error instanceof Error ? error.stack : error}`);
		process.exit(1);
	},
);
