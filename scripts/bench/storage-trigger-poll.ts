// Benchmark section: the Cloud Storage Trigger polling a tree of 10,000 files in 500 folders inside a
// real n8n against the sandbox, with 10 changes between polls. Requests per poll (from the
// sandbox's request log), time per poll and the size of the workflow's static data, for created/updated
// events only (cursor state) and for all events (snapshot state). n8n polls at most once a minute, but an
// activation runs one poll at once with the stored static data, so each poll here is deactivate + activate;
// the time shown is that activation round trip, next to the same round trip over an empty folder (n8n's
// own share) and the bare tree request with fetch. Sizes: BENCH_FOLDERS (500), BENCH_FILES_PER_FOLDER (20).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { trashFile } from '../../test/sandbox/trash.ts';
import type { BenchContext, Section } from './context.ts';

const rounds = 3;

function triggerWorkflow(
	name: string,
	folderHash: string,
	events: string[],
	credential: { id: string; name: string },
) {
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

export async function benchStorageTriggerPoll(ctx: BenchContext): Promise<Section> {
	const folderCount = Number(process.env.BENCH_FOLDERS ?? 500);
	const filesPerFolder = Number(process.env.BENCH_FILES_PER_FOLDER ?? 20);
	const { sandbox, n8n, credential, work } = ctx;
	const DEMO_ACCOUNT = ctx.account;
	const lines: string[] = [];
	{
		const store = sandbox.store;
		const demo = store.accountByLogin(DEMO_ACCOUNT.username)!;
		// The tree is built an hour back on the service's clock, so the polls see a settled tree plus the changes
		// (right after a bulk upload, the created/updated state holds every item of the last five minutes).
		ctx.setClockOffset(-3_600_000);
		const top = store.createFolder(demo, store.rootOf(demo), 'bench tree', 'PRIVATE');
		const built = store.bulkCreate(demo, { folders: folderCount, filesPerFolder, parent: top });
		ctx.setClockOffset(0);
		lines.push(
			`Tree: ${built.folders.length} folders, ${built.files.length} files below one watched folder.`,
			'',
		);

		// The bare tree request, for scale.
		const started = performance.now();
		const treeQuery = new URLSearchParams({ Hash: top.hash, DeleteKey: top.editKey });
		const treeText = await (
			await fetch(`${sandbox.baseUrl}/api/get_upload_tree.php?${treeQuery}`)
		).text();
		lines.push(
			`Bare tree request with fetch (no n8n): ${(performance.now() - started).toFixed(0)} ms, ${(treeText.length / 1024).toFixed(0)} KiB.`,
			'',
		);

		let serial = 0;
		const changeTen = () => {
			// 3 uploads, 3 renames, 2 replacements, 1 deletion, 1 move: 10 changes in 10 folders.
			serial++;
			const folders = Array.from(
				{ length: 10 },
				(_, i) => built.folders[(serial * 10 + i) % built.folders.length],
			);
			for (const folder of folders.slice(0, 3))
				store.bulkCreate(demo, {
					folders: 0,
					filesPerFolder: 1,
					parent: folder,
					filePrefix: `new ${serial} `,
				});
			for (const folder of folders.slice(3, 6))
				store.renameFile(store.filesIn(folder.id)[0], `renamed ${serial}.txt`);
			for (const folder of folders.slice(6, 8)) {
				const tmpPath = join(work, `replacement-${serial}-${folder.id}`);
				writeFileSync(tmpPath, `replaced ${serial}\n`);
				store.replaceContent(store.filesIn(folder.id)[0], {
					tmpPath,
					size: 11,
					sha256: '0'.repeat(64),
				});
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
			await waitFor(() =>
				sandbox.requests
					.list()
					.some((entry) => entry.action === 'get_upload_tree' && entry.status !== null),
			);
			const answeredAt = Date.now();
			const firstAt = sandbox.requests.list()[0].at;
			const staticData = await waitFor(async () => {
				const current = (await n8n.client.getWorkflow(id)).staticData ?? {};
				const saved = JSON.stringify(current) !== before;
				const executed =
					!emits || (await n8n.client.listExecutionIds(id)).length > executionsBefore;
				return saved && executed ? current : undefined;
			});
			const savedAt = Date.now();
			const requests = sandbox.requests.list().map((entry) => entry.action ?? entry.path);
			await n8n.client.deactivate(id);
			return {
				ms: answeredAt - firstAt,
				savedMs: savedAt - firstAt,
				requests,
				staticBytes: JSON.stringify(staticData).length,
			};
		};

		const rows = [
			'| events | poll | requests | first request → tree answered | → state saved (± 100 ms REST check) | static data |',
			'|---|---|---|---|---|---|',
		];
		for (const [label, events] of [
			['created/updated', ['fileCreated', 'fileUpdated']],
			['all five', ['fileCreated', 'fileUpdated', 'folderCreated', 'fileDeleted', 'fileMoved']],
		] as const) {
			console.error(`storage trigger: ${label}...`);
			const workflow = await n8n.client.importWorkflow(
				triggerWorkflow(`Bench: ${label}`, top.hash, [...events], credential),
			);
			const row = (poll: string, result: Awaited<ReturnType<typeof activation>>) =>
				rows.push(
					`| ${label} | ${poll} | ${result.requests.length} (${result.requests.join(', ')}) | ${result.ms} ms | ${result.savedMs} ms | ${(result.staticBytes / 1024).toFixed(1)} KiB |`,
				);
			row('first (records the state)', await activation(workflow.id, false));
			for (let round = 1; round <= rounds; round++) {
				changeTen();
				row(`after 10 changes #${round}`, await activation(workflow.id, true));
			}
		}
		lines.push(rows.join('\n'));
	}
	const intro =
		'n8n polls at most once a minute, but activating a workflow runs one poll at once with the stored static data, so each poll here is an activation. ' +
		"Requests: from the sandbox's request log. Time: from the poll's first request reaching the sandbox to the tree's answer, and to the new static data being visible over n8n's REST API (polled, so ± 100 ms).";
	return {
		title: `Storage Trigger poll over ${(folderCount * filesPerFolder).toLocaleString('en')} files / ${folderCount} folders, 10 changes`,
		markdown: [intro, '', ...lines].join('\n'),
	};
}
