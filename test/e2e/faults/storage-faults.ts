// The Storage fault run, shared by the regular-mode and queue-mode tests: 1,000 uploads, then renames, moves
// and deletes of whatever exists, each stage one workflow with Continue On Fail while the sandbox injects
// seeded random faults; after each stage the sandbox's state is compared with what was asked.
import { DEMO_ACCOUNT, startSandbox } from '../../sandbox/server';
import { stateSummary } from '../../sandbox/state';
import { createServiceCredential } from '../harness/credentials';
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
	type Tally,
} from './tally';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const pad = (i: number) => String(i).padStart(4, '0');
/** `name.txt` or the service's collision variants `name (n).txt`. */
const variants = (base: string) => new RegExp(`^${base}( \\(\\d+\\))?\\.txt$`);

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
		sandbox.faults.setRandom(randomFaults(stageSeed));
		// 429 with Retry-After (the random ones carry none): the first requests of the stage.
		sandbox.faults.add({ match: {}, fault: '429', retryAfter: 1, times: 2 });
		const started = Date.now();
		const execution = await n8n.client.runWorkflow(workflow.id, { timeoutMs: 600_000 });
		executionIds.push(execution.id);
		const injected = `${sandbox.faults.randomState()?.hits ?? 0} random faults injected, ${slowAnswers()} of them slow answers, in ${since(started)}`;
		sandbox.faults.clear();
		expect(execution.status).toBe('success');
		// Errors under faults must not leak the credential either.
		expect(JSON.stringify(execution.data)).not.toContain(DEMO_ACCOUNT.token);
		const { reports, errors } = reportsByIndex(execution, 'Storage', inputCount);
		const result = tally(reports, applied());
		printTally(
			`${label} Storage ${name}`,
			result,
			`${injected} · ${timeoutErrors(errors)} timeouts reported`,
		);
		expect(errorsAreClear(errors)).toEqual([]);
		expect({ lost: result.lostIndexes, duplicated: result.duplicatedIndexes }).toEqual({
			lost: [],
			duplicated: [],
		});
		tallies[name] = result;
		return reports;
	};

	// Upload: N files named f-XXXX.txt into `from`.
	const indexes = Array.from({ length: FAULT_ITEMS }, (_, i) => i);
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
						(f: any) => f.folderHash === from.hash && variants(`f-${pad(i)}`).test(f.name),
					).length,
			),
	);

	// Rename every uploaded file f-XXXX → r-XXXX.
	const uploaded = live()
		.filter((f: any) => f.folderHash === from.hash)
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
	);
	return { tallies, executionIds };
}
