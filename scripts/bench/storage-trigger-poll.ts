// Benchmark (issue 4): the Cloud Storage Trigger polling a tree of 10,000 files in 500 folders inside a
// real n8n against the sandbox, with 10 changes between polls. Prints requests per poll (from the
// sandbox's request log), time per poll and the size of the workflow's static data, for created/updated
// events only (cursor state) and for all events (snapshot state). n8n polls at most once a minute, but an
// activation runs one poll at once with the stored static data, so each poll here is deactivate + activate;
// the time shown is that activation round trip, next to the same round trip over an empty folder (n8n's
// own share) and the bare tree request with fetch. Sizes: BENCH_FOLDERS (500), BENCH_FILES_PER_FOLDER (20).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { DEMO_ACCOUNT, startSandbox } from '../../test/sandbox/server.ts';
import { trashFile } from '../../test/sandbox/trash.ts';
import { startN8n } from '../lib/n8n-server.ts';
import { repoPaths } from '../lib/paths.ts';

// The script's own path (no import.meta: the tests' type-check compiles scripts as CommonJS).
const root = resolve(process.argv[1], '../../..');
const folderCount = Number(process.env.BENCH_FOLDERS ?? 500);
const filesPerFolder = Number(process.env.BENCH_FILES_PER_FOLDER ?? 20);
const rounds = 3;

function triggerWorkflow(name: string, folderHash: string, events: string[], credential: { id: string; name: string }) {
	return {
		name,
		nodes: [
			{
				id: 'c0000000-0000-4000-8000-000000000001',
				name: 'Trigger',
				type: 'n8n-nodes-cloud-storage.cloudStorageTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					authentication: 'tokenApi',
					pollTimes: { item: [{ mode: 'everyHour' }] },
					events,
					folder: { __rl: true, mode: 'id', value: folderHash },
					includeSubfolders: true,
					maxTrackedItems: 50_000,
				},
				credentials: { cloudStorageTokenApi: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

async function main() {
	const work = mkdtempSync(join(tmpdir(), 'bench-trigger-'));
	// The tree is built an hour back on the service's clock, so the polls see a settled tree plus the changes
	// (right after a bulk upload, the created/updated state holds every item of the last five minutes).
	let clockOffsetMs = -3_600_000;
	const sandbox = await startSandbox({ port: 0, dataDir: join(work, 'sandbox'), now: () => Date.now() + clockOffsetMs });
	const n8n = await startN8n({ paths: repoPaths(root), env: {} });
	try {
		const store = sandbox.store;
		const demo = store.accountByLogin('demo')!;
		const top = store.createFolder(demo, store.rootOf(demo), 'bench tree', 'PRIVATE');
		const built = store.bulkCreate(demo, { folders: folderCount, filesPerFolder, parent: top });
		clockOffsetMs = 0;
		const credential = await n8n.client.createCredential('cloudStorageTokenApi', 'Bench', {
			baseUrl: sandbox.baseUrl,
			webUrl: sandbox.webUrl,
			user: DEMO_ACCOUNT.username,
			accessToken: DEMO_ACCOUNT.token,
		});
		console.log(`Tree: ${built.folders.length} folders, ${built.files.length} files below one watched folder.\n`);

		// The bare tree request, for scale.
		let started = performance.now();
		const treeBody = new URLSearchParams({ Hash: top.hash, DeleteKey: top.editKey, user: DEMO_ACCOUNT.username, user_access_token: DEMO_ACCOUNT.token });
		const treeText = await (await fetch(`${sandbox.baseUrl}/api/get_upload_tree.php`, { method: 'POST', body: treeBody })).text();
		console.log(`Bare tree request with fetch: ${(performance.now() - started).toFixed(0)} ms, ${(treeText.length / 1024).toFixed(0)} KiB\n`);

		let serial = 0;
		const changeTen = () => {
			// 3 uploads, 3 renames, 2 replacements, 1 deletion, 1 move: 10 changes in 10 folders.
			serial++;
			const folders = Array.from({ length: 10 }, (_, i) => built.folders[(serial * 10 + i) % built.folders.length]);
			for (const folder of folders.slice(0, 3)) store.bulkCreate(demo, { folders: 0, filesPerFolder: 1, parent: folder, filePrefix: `new ${serial} ` });
			for (const folder of folders.slice(3, 6)) store.renameFile(store.filesIn(folder.id)[0], `renamed ${serial}.txt`);
			for (const folder of folders.slice(6, 8)) {
				const tmpPath = join(work, `replacement-${serial}-${folder.id}`);
				writeFileSync(tmpPath, `replaced ${serial}\n`);
				store.replaceContent(store.filesIn(folder.id)[0], { tmpPath, size: 11, sha256: '0'.repeat(64) });
			}
			trashFile(store, store.filesIn(folders[8].id)[0]);
			store.moveFile(store.filesIn(folders[9].id)[0], folders[0]);
		};
		const waitFor = async <T>(check: () => T | undefined | Promise<T | undefined>): Promise<T> => {
			const deadline = Date.now() + 120_000;
			for (;;) {
				const value = await check();
				if (value) return value;
				if (Date.now() > deadline) throw new Error('timed out');
				await new Promise((done) => setTimeout(done, 5));
			}
		};
		// One poll: activation runs it at once (answering before it has run). Its time is from its first
		// request reaching the sandbox to the tree's answer, then the diff, found by the state being saved.
		const activation = async (id: string, emits: boolean) => {
			sandbox.requests.clear();
			const before = JSON.stringify((await n8n.client.getWorkflow(id)).staticData ?? {});
			const executionsBefore = (await n8n.client.listExecutionIds(id)).length;
			await n8n.client.activate(id);
			await waitFor(() => sandbox.requests.list().some((entry) => entry.action === 'get_upload_tree' && entry.status !== null));
			const answeredAt = Date.now();
			const firstAt = sandbox.requests.list()[0].at;
			const staticData = await waitFor(async () => {
				const current = (await n8n.client.getWorkflow(id)).staticData ?? {};
				const saved = JSON.stringify(current) !== before;
				const executed = !emits || (await n8n.client.listExecutionIds(id)).length > executionsBefore;
				return saved && executed ? current : undefined;
			});
			const savedAt = Date.now();
			const requests = sandbox.requests.list().map((entry) => entry.action ?? entry.path);
			await n8n.client.deactivate(id);
			return { ms: answeredAt - firstAt, savedMs: savedAt - firstAt, requests, staticBytes: JSON.stringify(staticData).length };
		};

		const rows = [
			'| events | poll | requests | first request → tree answered | → state saved (± 100 ms REST check) | static data |',
			'|---|---|---|---|---|---|',
		];
		for (const [label, events] of [
			['created/updated', ['fileCreated', 'fileUpdated']],
			['all five', ['fileCreated', 'fileUpdated', 'folderCreated', 'fileDeleted', 'fileMoved']],
		] as const) {
			const workflow = await n8n.client.importWorkflow(triggerWorkflow(`Bench: ${label}`, top.hash, [...events], credential));
			const row = (poll: string, result: Awaited<ReturnType<typeof activation>>) =>
				rows.push(`| ${label} | ${poll} | ${result.requests.length} (${result.requests.join(', ')}) | ${result.ms} ms | ${result.savedMs} ms | ${(result.staticBytes / 1024).toFixed(1)} KiB |`);
			row('first (records the state)', await activation(workflow.id, false));
			for (let round = 1; round <= rounds; round++) {
				changeTen();
				row(`after 10 changes #${round}`, await activation(workflow.id, true));
			}
		}
		console.log(rows.join('\n'));
	} finally {
		await n8n.stop();
		await sandbox.close();
		rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
