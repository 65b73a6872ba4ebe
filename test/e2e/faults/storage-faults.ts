// The Storage fault run, shared by the regular-mode and queue-mode tests: FAULT_ITEMS uploads, then renames, moves
// and deletes of whatever exists, each stage one workflow with Continue On Fail while the sandbox injects
// seeded random faults; after each stage the sandbox's state is compared with what was asked.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FaultTarget } from '../../sandbox/faults';
import { takenNames } from '../../sandbox/naming';
import { prng } from '../../sandbox/prng';
import { DEMO_ACCOUNT, startSandbox } from '../../sandbox/server';
import { stateSummary } from '../../sandbox/state';
import * as trash from '../../sandbox/trash';
import type { Folder, StoredFile } from '../../sandbox/types';
import { createServiceCredential } from '../harness/credentials';
import { sandboxIdle } from '../harness/load';
import type { CredentialRef, N8nInstance } from '../harness/n8n';
import {
	errorsAreClear,
	FAULT_ITEMS,
	itemsNode,
	linearWorkflow,
	printTally,
	randomFaults,
	reportsByIndex,
	requestOptions,
	since,
	tally,
	timeoutErrors,
	SLOW_WRITE_MS,
	type Checks,
	type Tally,
} from './tally';

/**
 * The shared world for Storage (issue #35): a second client of the account uploading same-name, same-size
 * files into the same folder as the node's uploads arrive, a `Date` 5 min off the stored timestamps, writes
 * applied after the Timeout (`slow`) and taken names suffixed `(n)` without a space.
 */
const SHARED_STORAGE = true;
const NOT_APPLIED = new Set(['drop-before', '429', '500', '503']);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const pad = (i: number) => String(i).padStart(4, '0');
/** `name.txt` or the service's collision variants `name (n).txt` (or, in the shared world, `name(n)`, `name_n`). */
const variants = (base: string) => new RegExp(`^${base}( ?\\(\\d+\\)|_\\d+)?\\.txt$`);

function storageNode(parameters: Record<string, unknown>, credential: CredentialRef) {
	return {
		name: 'Storage',
		type: 'n8n-nodes-cloud-storage.cloudStorage',
		typeVersion: 1,
		parameters: { authentication: 'tokenApi', ...parameters, requestOptions },
		credentials: { cloudStorageTokenApi: { id: credential.id, name: credential.name } },
		onError: 'continueRegularOutput',
	};
}

export type StorageFaultRun = { tallies: Record<string, Tally>; executionIds: string[] };

export async function runStorageFaults(
	n8n: N8nInstance,
	sandbox: Sandbox,
	label: string,
	seed: number,
): Promise<StorageFaultRun> {
	const credential = await createServiceCredential(n8n.client, 'cloudStorageTokenApi', sandbox, {
		name: `Faults ${label}`,
	});
	const account = [...sandbox.store.accounts.values()].find(
		(a) => a.username === DEMO_ACCOUNT.username,
	)!;
	const root = sandbox.store.rootOf(account);
	const from = sandbox.store.createFolder(account, root, `faults ${label} from`, 'PRIVATE');
	const to = sandbox.store.createFolder(account, root, `faults ${label} to`, 'PRIVATE');
	const files = () =>
		stateSummary(sandbox.store).accounts.find((a) => a.username === DEMO_ACCOUNT.username)!.files;
	const live = () => files().filter((f: any) => !f.deleted);

	const tallies: Record<string, Tally> = {};
	const executionIds: string[] = [];
	const stage = async (
		name: string,
		nodes: any[],
		inputCount: number,
		stageSeed: number,
		applied: () => number[],
		shared?: {
			/** The item a request applies to, counted when no fault stopped it (where the request names it). */
			applies?: (target: FaultTarget) => number | undefined;
			meanwhile?: (target: FaultTarget, stopped: boolean) => void;
			/** Counts applications in the store itself (where the request's fields are not visible); returns its undo. */
			watchStore?: (applications: number[]) => () => void;
			wrong: (outputs: any[], applications: number[]) => Checks['wrong'];
		},
	) => {
		const workflow = await n8n.client.importWorkflow(
			linearWorkflow(`Faults ${label}: ${name}`, nodes),
		);
		const logged = sandbox.requests.list().length;
		const slowAnswers = () =>
			sandbox.requests
				.list()
				.slice(logged)
				.filter((entry) => entry.fault === 'slow-answer').length;
		// Every request from here on may draw a fault, the node's own checking reads included.
		sandbox.faults.setRandom(randomFaults(stageSeed, { slow: SHARED_STORAGE }));
		// 429 with Retry-After (the random ones carry none): the first requests of the stage.
		sandbox.faults.add({ match: {}, fault: '429', retryAfter: 1, times: 2 });
		const applications = Array.from({ length: inputCount }, () => 0);
		let spy: jest.SpyInstance | undefined;
		let unwatch: (() => void) | undefined;
		if (SHARED_STORAGE) {
			sandbox.faults.dateOffsetMs = (stageSeed % 2 ? 1 : -1) * 5 * 60_000;
			takenNames.style = 'paren';
		}
		if (shared) {
			const take = sandbox.faults.take.bind(sandbox.faults);
			spy = jest.spyOn(sandbox.faults, 'take').mockImplementation((target) => {
				const rule = take(target);
				const stopped = rule !== undefined && NOT_APPLIED.has(rule.fault);
				const index = shared.applies?.(target);
				if (index !== undefined && !stopped) applications[index]++;
				shared.meanwhile?.(target, stopped);
				return rule;
			});
			unwatch = shared.watchStore?.(applications);
		}
		const started = Date.now();
		const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 600_000 });
		executionIds.push(execution.id);
		// A write held back past the Timeout lands after the workflow ended: wait for it before the service is read.
		await sandboxIdle(() => sandbox.requests.list(), SLOW_WRITE_MS + 120_000);
		spy?.mockRestore();
		unwatch?.();
		const injected = `${sandbox.faults.randomState()?.hits ?? 0} random faults injected, ${slowAnswers()} of them slow answers, in ${since(started)}`;
		sandbox.faults.clear();
		expect(execution.status).toBe('success');
		// Errors under faults must not leak the credential either.
		expect(JSON.stringify(execution.data)).not.toContain(DEMO_ACCOUNT.token);
		const { reports, errors, outputs } = reportsByIndex(execution, 'Storage', inputCount);
		const result = tally(
			reports,
			applied(),
			shared ? { applications, wrong: shared.wrong(outputs, applications) } : {},
		);
		printTally(
			`${label} Storage ${name}`,
			result,
			`${injected} · ${timeoutErrors(errors)} timeouts reported`,
		);
		expect(errorsAreClear(errors)).toEqual([]);
		expect({
			lost: result.lostIndexes,
			duplicated: result.duplicatedIndexes,
			wrongAdopted: result.wrongIndexes,
			sentAgain: result.sentAgainIndexes,
		}).toEqual({ lost: [], duplicated: [], wrongAdopted: [], sentAgain: [] });
		tallies[name] = result;
		return reports;
	};

	// Upload: N files named f-XXXX.txt into `from`.
	const indexes = Array.from({ length: FAULT_ITEMS }, (_, i) => i);
	const ours = (i: number) => sha256(`item ${i}\n`);
	const indexOfUpload = (target: FaultTarget) => {
		const match = /^f-(\d{4})\.txt$/.exec(target.fileNames?.[0] ?? '');
		return match ? Number(match[1]) : undefined;
	};
	// The second client writes the same name and size, other bytes: every upload a fault stops, and a fifth of the others.
	const secondClient = prng(seed + 77);
	const blobs = mkdtempSync(join(tmpdir(), 'faults-second-client-'));
	/** The second client stores a file under `name` into `folder`, the same size as the node's, other bytes. */
	const secondClientUploads = (folder: Folder, name: string, text: string) => {
		const tmpPath = join(blobs, `${name}-${Date.now()}-${Math.random()}`);
		writeFileSync(tmpPath, text);
		sandbox.store.addFile(folder, { name, tmpPath, size: text.length, sha256: sha256(text) });
	};
	/**
	 * Rename and move: their requests name the file only in form fields the fault spy does not see, so each
	 * application is counted where the store applies it, and there the second client takes the name the
	 * node's file is about to get (a fifth of them): the node's file then gets a taken-name suffix.
	 */
	const storeShared = (
		method: 'renameFile' | 'moveFile',
		items: Array<{ hash: string }>,
		taken: (file: StoredFile, argument: any) => { folder: Folder; name: string },
	) => {
		const position = new Map(items.map(({ hash }, i) => [hash, i]));
		return {
			watchStore: (applications: number[]) => {
				const original = (sandbox.store[method] as (...args: any[]) => any).bind(sandbox.store);
				const spy = jest
					.spyOn(sandbox.store as any, method)
					.mockImplementation((file: any, argument: any) => {
						const i = position.get(file.hash);
						if (i !== undefined) {
							applications[i]++;
							if (secondClient() < 0.2) {
								const { folder, name } = taken(file, argument);
								secondClientUploads(folder, name, 'X'.repeat(file.size));
							}
						}
						return original(file, argument);
					});
				return () => spy.mockRestore();
			},
			// Done names the item's own file (by hash), and the store applied the node's own write to it.
			wrong: (outputs: any[], applications: number[]) => (i: number) =>
				applications[i] === 0 || outputs[i]?.hash !== items[i].hash,
		};
	};
	/**
	 * Delete: its request names the file only in a form field too, so each application is counted where the
	 * sandbox moves the file to the trash. Done must name the item's own file, and the trash must have taken it.
	 */
	const trashShared = (items: Array<{ hash: string }>) => {
		const position = new Map(items.map(({ hash }, i) => [hash, i]));
		return {
			watchStore: (applications: number[]) => {
				const original = trash.trashFile;
				const spy = jest.spyOn(trash, 'trashFile').mockImplementation((store, file) => {
					const i = position.get(file.hash);
					if (i !== undefined) applications[i]++;
					original(store, file);
				});
				return () => spy.mockRestore();
			},
			wrong: (outputs: any[], applications: number[]) => (i: number) =>
				applications[i] === 0 || outputs[i]?.hash !== items[i].hash,
		};
	};
	const uploadShared = {
		applies: indexOfUpload,
		meanwhile: (target: FaultTarget, stopped: boolean) => {
			const i = indexOfUpload(target);
			if (i === undefined || !(stopped || secondClient() < 0.2)) return;
			const text = `ITEM ${i}\n`;
			const tmpPath = join(blobs, `${i}-${Date.now()}`);
			writeFileSync(tmpPath, text);
			sandbox.store.addFile(sandbox.store.folder(from.hash)!, {
				name: `f-${pad(i)}.txt`,
				tmpPath,
				size: text.length,
				sha256: sha256(text),
			});
		},
		wrong: (outputs: any[]) => (i: number) =>
			sandbox.store.file(outputs[i]?.file_hash)?.sha256 !== ours(i),
	};
	await stage(
		'upload',
		[
			itemsNode(indexes.map((i) => ({ fileName: `f-${pad(i)}.txt`, content: `item ${i}\n` }))),
			{
				name: 'Make File',
				type: 'n8n-nodes-base.convertToFile',
				typeVersion: 1.1,
				parameters: {
					operation: 'toText',
					sourceProperty: 'content',
					options: { fileName: '={{ $json.fileName }}' },
				},
			},
			storageNode(
				{
					resource: 'file',
					operation: 'upload',
					folder: { __rl: true, mode: 'id', value: from.hash },
					binaryPropertyName: 'data',
					options: {},
				},
				credential,
			),
		],
		FAULT_ITEMS,
		seed,
		() =>
			indexes.map(
				(i) =>
					live().filter(
						(f: any) =>
							f.folderHash === from.hash &&
							variants(`f-${pad(i)}`).test(f.name) &&
							f.sha256 === ours(i),
					).length,
			),
		SHARED_STORAGE ? uploadShared : undefined,
	);

	// Rename every uploaded file f-XXXX → r-XXXX.
	const uploaded = live()
		.filter(
			(f: any) =>
				f.folderHash === from.hash && f.sha256 === ours(Number(/f-(\d+)/.exec(f.name)![1])),
		)
		.map((f: any) => ({ hash: f.hash, index: Number(/f-(\d+)/.exec(f.name)![1]) }));
	await stage(
		'rename',
		[
			itemsNode(uploaded),
			storageNode(
				{
					resource: 'file',
					operation: 'rename',
					file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
					name: "={{ 'r-' + String($json.index).padStart(4, '0') + '.txt' }}",
				},
				credential,
			),
		],
		uploaded.length,
		seed + 1,
		() =>
			uploaded.map(
				({ hash, index }) =>
					live().filter((f: any) => f.hash === hash && variants(`r-${pad(index)}`).test(f.name))
						.length,
			),
		SHARED_STORAGE
			? storeShared('renameFile', uploaded, (file, name: string) => ({
					folder: sandbox.store.folderById(file.folderId)!,
					name,
				}))
			: undefined,
	);

	// Move every file of `from` to `to`.
	const toMove = live()
		.filter((f: any) => f.folderHash === from.hash)
		.map((f: any) => ({ hash: f.hash }));
	await stage(
		'move',
		[
			itemsNode(toMove),
			storageNode(
				{
					resource: 'file',
					operation: 'move',
					file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
					targetFolder: { __rl: true, mode: 'id', value: to.hash },
				},
				credential,
			),
		],
		toMove.length,
		seed + 2,
		() =>
			toMove.map(
				({ hash }) => live().filter((f: any) => f.hash === hash && f.folderHash === to.hash).length,
			),
		SHARED_STORAGE
			? storeShared('moveFile', toMove, (file, target: Folder) => ({
					folder: target,
					name: file.name,
				}))
			: undefined,
	);

	// Delete every file of `to` (a deleted file goes to the trash: applied = no longer live).
	const toDelete = live()
		.filter((f: any) => f.folderHash === to.hash)
		.map((f: any) => ({ hash: f.hash }));
	await stage(
		'delete',
		[
			itemsNode(toDelete),
			storageNode(
				{
					resource: 'file',
					operation: 'delete',
					file: { __rl: true, mode: 'id', value: '={{ $json.hash }}' },
				},
				credential,
			),
		],
		toDelete.length,
		seed + 3,
		() => toDelete.map(({ hash }) => (live().some((f: any) => f.hash === hash) ? 0 : 1)),
		SHARED_STORAGE ? trashShared(toDelete) : undefined,
	);
	return { tallies, executionIds };
}
