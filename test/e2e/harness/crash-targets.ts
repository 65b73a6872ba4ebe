// The sandbox's triggers as crash-run targets (crash.ts): Storage (new files), DMS (new tasks and status
// changes), E-Signature (signatures). A change that would merge with another before a poll (a task created and
// changed before the trigger saw it) is never made: every change stays one event, so "emitted once" is exact.
// Updates and signatures touch objects made before activation, each one once.
import { DEMO_ACCOUNT, type startSandbox } from '../../sandbox/server';
import type { CrashTarget, PollRequest } from './crash';
import { serviceCredentialData } from './credentials';
import { loadWorkflow } from './n8n';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Entry = ReturnType<Sandbox['requests']['list']>[number];

/** A pool of objects made before activation, each changed once. */
const POOL = 40;

function credential(sandbox: Sandbox) {
	return {
		type: 'cloudStorageTokenApi',
		data: serviceCredentialData('cloudStorageTokenApi', sandbox),
	};
}

/** The sandbox's log of the requests `belongs` picks, from now on. */
function requestsFrom(sandbox: Sandbox, belongs: (entry: Entry) => boolean) {
	const mark = sandbox.requests.list().length;
	return (): PollRequest[] =>
		sandbox.requests
			.list()
			.slice(mark)
			.filter(belongs)
			.map((entry) => ({
				name: entry.action ?? entry.path,
				answered: entry.status !== null || entry.outcome !== 'answered',
			}));
}

function holdOnce(sandbox: Sandbox, path: string) {
	return {
		holdNextAnswer: (ms: number) =>
			void sandbox.faults.add({
				match: { path },
				fault: 'slow-answer',
				delayMs: ms,
				times: 1,
			}),
		release: () => sandbox.faults.clear(),
	};
}

function newFolder(sandbox: Sandbox, label: string) {
	const demo = sandbox.store.accountByLogin('demo')!;
	const folder = sandbox.store.createFolder(
		demo,
		sandbox.store.rootOf(demo),
		`crash ${label} ${Date.now()}`,
		'PRIVATE',
	);
	return { demo, folder };
}

/** Storage Trigger: new files in one folder (without subfolders: one listing a poll). */
export function storageTarget(sandbox: Sandbox, label: string): CrashTarget {
	const { demo, folder } = newFolder(sandbox, label);
	sandbox.store.bulkCreate(demo, {
		folders: 0,
		filesPerFolder: 2,
		parent: folder,
		filePrefix: 'before ',
	});
	const workflow = loadWorkflow('storage-trigger.json');
	Object.assign(workflow.nodes[0].parameters, {
		folder: { __rl: true, mode: 'id', value: folder.hash },
		includeSubfolders: false,
		download: false,
		events: ['fileCreated'],
	});
	let batch = 0;
	return {
		trigger: 'Storage Trigger',
		node: workflow.nodes[0].name,
		workflow,
		credential: credential(sandbox),
		async change(random) {
			const { files } = sandbox.store.bulkCreate(demo, {
				folders: 0,
				filesPerFolder: 1 + Math.floor(random() * 3),
				parent: folder,
				filePrefix: `b${++batch} `,
			});
			return files.map((file) => `created ${file.hash}`);
		},
		keyOf: (json) => (json.event === 'fileCreated' ? `created ${json.hash}` : undefined),
		pollRequests: requestsFrom(sandbox, (entry) => entry.action === 'get_folder_content'),
		pollAnswered: (requests) => requests.length > 0 && requests[0].answered,
		...holdOnce(sandbox, 'get_folder_content'),
		close: async () => undefined,
	};
}

async function dmsCall(sandbox: Sandbox, action: string, params: Record<string, unknown>) {
	const response = await fetch(`${sandbox.baseUrl}/api_dvs/task/${action}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({
			user: DEMO_ACCOUNT.username,
			user_access_token: DEMO_ACCOUNT.token,
			...params,
		}),
	});
	if (response.status !== 200) throw new Error(`DMS ${action} answered ${response.status}`);
	return Number(((await response.json()) as { dvs_document_id: number }).dvs_document_id);
}

const OPEN = 31;
const DONE = 33;

/** DMS Trigger on tasks: new tasks, and status changes of tasks made before activation. */
export async function dmsTarget(sandbox: Sandbox, label: string): Promise<CrashTarget> {
	const createTask = async (name: string) =>
		await dmsCall(sandbox, 'create_document', {
			create_params: { dvs_project_id: 11, name, dropdown_status: OPEN },
		});
	const pool: number[] = [];
	for (let i = 0; i < POOL; i++) pool.push(await createTask(`crash ${label} pool ${i}`));
	const workflow = loadWorkflow('dms-trigger.json');
	workflow.nodes[0].parameters.taskEvents = ['created', 'statusChanged'];
	let count = 0;
	return {
		trigger: 'DMS Trigger',
		node: workflow.nodes[0].name,
		workflow,
		credential: credential(sandbox),
		async change(random) {
			const keys: string[] = [];
			for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
				if (random() < 0.5 && pool.length) {
					const id = pool.shift()!;
					await dmsCall(sandbox, 'update_document', {
						dvs_document_id: id,
						update_params: { dropdown_status: DONE },
					});
					keys.push(`statusChanged ${id}`);
				} else keys.push(`created ${await createTask(`crash ${label} ${++count}`)}`);
			}
			return keys;
		},
		keyOf: (json) =>
			json.event === 'taskCreated'
				? `created ${json.dvs_document_id}`
				: json.event === 'taskStatusChanged' && json.to?.id === DONE
					? `statusChanged ${json.dvs_document_id}`
					: undefined,
		pollRequests: requestsFrom(sandbox, (entry) => entry.path.endsWith('/task/get_documents')),
		// Every page asked so far answered: the last page follows the first within milliseconds.
		pollAnswered: (requests) =>
			requests.length > 0 && requests.every((request) => request.answered),
		...holdOnce(sandbox, 'get_documents'),
		close: async () => undefined,
	};
}

/** E-Signature Trigger on a folder: one signature at a time on files made before activation. */
export function esignatureTarget(sandbox: Sandbox, label: string): CrashTarget {
	const { demo, folder } = newFolder(sandbox, label);
	const files = sandbox.store.bulkCreate(demo, {
		folders: 0,
		filesPerFolder: 4,
		parent: folder,
		filePrefix: 'contract ',
	}).files;
	const workflow = loadWorkflow('esignature-trigger.json');
	workflow.nodes = workflow.nodes.filter((node: { name: string }) =>
		['Cloud Storage E-Signature Trigger', 'Received'].includes(node.name),
	);
	const node = 'Cloud Storage E-Signature Trigger';
	workflow.connections = { [node]: workflow.connections[node] };
	Object.assign(workflow.nodes.find((entry: { name: string }) => entry.name === node).parameters, {
		folder: { __rl: true, mode: 'id', value: folder.hash },
		download: false,
	});
	let count = 0;
	return {
		trigger: 'E-Signature Trigger',
		node,
		workflow,
		credential: credential(sandbox),
		async change(random) {
			const keys: string[] = [];
			for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
				const file = files[Math.floor(random() * files.length)];
				const signer = `Signer ${label} ${++count}`;
				const response = await fetch(`${sandbox.baseUrl}/__sandbox/signatures`, {
					method: 'POST',
					body: JSON.stringify({ file_hash: file.hash, signer_name: signer }),
				});
				if (response.status !== 200) throw new Error(`signing answered ${response.status}`);
				keys.push(`signed ${file.hash} ${signer}`);
			}
			return keys;
		},
		keyOf: (json) =>
			json.event === 'signed' ? `signed ${json.file_hash} ${json.signer_name}` : undefined,
		pollRequests: requestsFrom(sandbox, (entry) =>
			['get_folder_content', 'get_esignatures'].includes(entry.action ?? ''),
		),
		// The listing, then one get_esignatures per file.
		pollAnswered: (requests) =>
			requests.filter((request) => request.name === 'get_esignatures' && request.answered).length >=
			files.length,
		...holdOnce(sandbox, 'get_folder_content'),
		close: async () => undefined,
	};
}
