// Starts a real n8n (the pinned one in test/e2e/runtime) with this repository loaded as a community
// package, in regular mode or in queue mode (main + worker + Redis), and signs in as the owner.
import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { N8nClient, type Owner } from './n8n-client.ts';
import { installPackedPackage } from './packed-package.ts';
import { PACKAGE_NAME, type RepoPaths } from './paths.ts';
import { duration, heartbeat, lastLogLine } from './progress.ts';
import { freePort, spawnLogged, tailFile, waitUntil, type ManagedProcess } from './processes.ts';
import { startRedis, type Redis } from './redis.ts';

export type N8nMode = 'regular' | 'queue';

export type StartN8nOptions = {
	paths: RepoPaths;
	mode?: N8nMode;
	/** Extra environment for every n8n process (main and worker). */
	env?: Record<string, string>;
	/** Default: a free port. */
	port?: number;
	/** Default: a fresh temporary folder, deleted by stop() unless N8N_E2E_KEEP_TMP=1. */
	userFolder?: string;
	owner?: Owner;
	/** Queue mode: send manual runs to the worker too (default true, so tests exercise the worker). */
	offloadManualExecutions?: boolean;
	/** Queue mode: how many worker processes to start (default 1). */
	workers?: number;
	startTimeoutMs?: number;
	/**
	 * How n8n gets the pack: 'repo' links the repository (its dist/ and node_modules, for development);
	 * 'packed' installs the packed tarball as n8n's Community Nodes screen does (packed-package.ts).
	 * Default: N8N_E2E_PACKAGE, else 'repo'.
	 */
	packageSource?: 'repo' | 'packed';
	/** Told every 15 s while n8n starts (how long, and the last line of its log), so no wait is silent. */
	progress?: (line: string) => void;
};

export type N8nInstance = {
	mode: N8nMode;
	baseUrl: string;
	port: number;
	userFolder: string;
	owner: Owner;
	client: N8nClient;
	main: ManagedProcess;
	worker?: ManagedProcess;
	/** Queue mode: every worker (`worker` is the first). */
	workers: ManagedProcess[];
	redis?: Redis;
	/** Node type names the package contributed, as n8n lists them (`n8n-nodes-cloud-storage.<name>`). */
	packageNodeTypes: string[];
	/** Whether a worker's log shows it ran this execution (queue mode). */
	workerRanExecution(executionId: string): boolean;
	/**
	 * Starts main again (same folder, port and environment) once it has exited, e.g. after a SIGKILL; in queue
	 * mode Redis and the workers keep running. `main` then names the new process; the client signs in again.
	 */
	restartMain(): Promise<void>;
	stop(): Promise<void>;
};

export const DEFAULT_OWNER: Owner = {
	email: 'owner@example.com',
	password: 'E2e-owner-password-1',
	firstName: 'Test',
	lastName: 'Owner',
};

/**
 * Makes n8n load `packageDir` (the repository by default: its package.json `n8n` section and `dist/`) as an
 * installed community package.
 */
export function linkPackage(userFolder: string, packageDir: string) {
	const link = join(userFolder, '.n8n/nodes/node_modules', PACKAGE_NAME);
	if (existsSync(link)) return;
	mkdirSync(dirname(link), { recursive: true });
	symlinkSync(packageDir, link, 'dir');
}

function baseEnv(
	paths: RepoPaths,
	userFolder: string,
	extra: Record<string, string>,
): NodeJS.ProcessEnv {
	// Jest sets NODE_ENV=test, which makes n8n refuse to load nodes and silences its log.
	const { NODE_ENV: _nodeEnv, JEST_WORKER_ID: _jestWorker, ...inherited } = process.env;
	return {
		...inherited,
		PATH: `${dirname(paths.node)}:${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		DB_TYPE: 'sqlite',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		// No calls home, no banners: the machines running this have no internet.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_LOG_FORMAT: 'text',
		...extra,
	};
}

/**
 * n8n runs its ~266 database migrations in every fresh data folder (seconds at each start): they run once per
 * n8n version, in a folder of their own (`n8n list:workflow` migrates and exits), and a fresh data folder starts
 * from a copy of what n8n left there: the database and the config holding the encryption key it belongs to.
 */
function seedDataFolder(paths: RepoPaths, userFolder: string) {
	const data = join(userFolder, '.n8n');
	if (existsSync(join(data, 'database.sqlite'))) return;
	const migrated = migratedDataFolder(paths);
	mkdirSync(data, { recursive: true });
	for (const name of readdirSync(migrated)) copyFileSync(join(migrated, name), join(data, name));
	chmodSync(join(data, 'config'), 0o600);
}

function migratedDataFolder(paths: RepoPaths): string {
	const { version } = JSON.parse(
		readFileSync(join(paths.runtimeDir, 'node_modules/n8n/package.json'), 'utf8'),
	) as { version: string };
	const folder = join(paths.tmp, `n8n-migrated-${version}`);
	if (existsSync(join(folder, '.n8n/database.sqlite'))) return join(folder, '.n8n');
	mkdirSync(paths.tmp, { recursive: true });
	const building = mkdtempSync(join(paths.tmp, 'n8n-migrating-'));
	const result = spawnSync(paths.node, [paths.n8nMain, 'list:workflow'], {
		cwd: building,
		env: baseEnv(paths, building, {}),
		encoding: 'utf8',
		timeout: 300_000,
	});
	if (result.status !== 0 || !existsSync(join(building, '.n8n/database.sqlite'))) {
		rmSync(building, { recursive: true, force: true });
		throw new Error(
			`n8n's database migrations failed (${result.signal ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
		);
	}
	// Renamed whole, so a folder half written by an interrupted run is never taken for a migrated one.
	renameSync(building, folder);
	return join(folder, '.n8n');
}

async function isReady(url: string) {
	const response = await fetch(url);
	await response.body?.cancel();
	return response.ok;
}

export async function startN8n(options: StartN8nOptions): Promise<N8nInstance> {
	const { paths } = options;
	const mode = options.mode ?? 'regular';
	const startTimeoutMs = options.startTimeoutMs ?? 120_000;
	const ownsFolder = options.userFolder === undefined;
	const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), `n8n-e2e-${mode}-`));
	mkdirSync(userFolder, { recursive: true });
	// Only folders of its own: a user's `npm start` folder gets its own encryption key, never a shared copy.
	if (ownsFolder) seedDataFolder(paths, userFolder);
	const packageSource =
		options.packageSource ?? (process.env.N8N_E2E_PACKAGE === 'packed' ? 'packed' : 'repo');
	linkPackage(
		userFolder,
		packageSource === 'packed' ? installPackedPackage(paths.root) : paths.root,
	);

	const port = options.port ?? (await freePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const owner = options.owner ?? DEFAULT_OWNER;
	const started: Array<{ stop(): Promise<void> }> = [];
	let redis: Redis | undefined;
	const workers: ManagedProcess[] = [];

	const stop = async () => {
		// Worker first, then main, then Redis: each still finds what it depends on while shutting down.
		for (const item of started.reverse()) await item.stop().catch(() => undefined);
		started.length = 0;
		if (ownsFolder && process.env.N8N_E2E_KEEP_TMP !== '1')
			rmSync(userFolder, { recursive: true, force: true });
	};

	try {
		const modeEnv: Record<string, string> = {};
		if (mode === 'queue') {
			redis = await startRedis(mkdtempSync(join(userFolder, 'redis-')));
			started.push(redis);
			Object.assign(modeEnv, {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(redis.port),
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: String(options.offloadManualExecutions ?? true),
			});
		}
		const env = { ...modeEnv, ...options.env };

		let mainStarts = 0;
		const startMain = async () => {
			mainStarts++;
			const child = spawnLogged('n8n main', paths.node, [paths.n8nMain, 'start'], {
				cwd: userFolder,
				logFile: join(userFolder, mainStarts > 1 ? `n8n-main-${mainStarts}.log` : 'n8n-main.log'),
				env: baseEnv(paths, userFolder, {
					N8N_PORT: String(port),
					N8N_EDITOR_BASE_URL: `${baseUrl}/`,
					N8N_WEBHOOK_URL: `${baseUrl}/`,
					N8N_RUNNERS_BROKER_PORT: String(await freePort()),
					...env,
				}),
			});
			// Stopped after the workers and before Redis, wherever it restarts.
			started.splice(redis ? 1 : 0, 0, child);
			const stopBeat = heartbeat(15_000, (elapsedMs) =>
				options.progress?.(
					`  ... n8n starting for ${duration(elapsedMs)}; its log: ${lastLogLine(child.logFile) ?? '(nothing yet)'}`,
				),
			);
			try {
				await waitUntil(
					`n8n readiness on ${baseUrl}`,
					() => isReady(`${baseUrl}/healthz/readiness`),
					{ process: child, timeoutMs: startTimeoutMs },
				);
			} finally {
				stopBeat();
			}
			return child;
		};
		const main = await startMain();

		if (mode === 'queue') {
			// Started after main, which has run the database migrations the workers would otherwise race.
			for (let n = 1; n <= (options.workers ?? 1); n++) {
				const healthPort = await freePort();
				const worker = spawnLogged(
					`n8n worker${n > 1 ? ` ${n}` : ''}`,
					paths.node,
					[paths.n8nMain, 'worker'],
					{
						cwd: userFolder,
						logFile: join(userFolder, n > 1 ? `n8n-worker-${n}.log` : 'n8n-worker.log'),
						env: baseEnv(paths, userFolder, {
							N8N_RUNNERS_BROKER_PORT: String(await freePort()),
							QUEUE_HEALTH_CHECK_ACTIVE: 'true',
							QUEUE_HEALTH_CHECK_PORT: String(healthPort),
							...env,
						}),
					},
				);
				started.push(worker);
				workers.push(worker);
				await waitUntil(
					'the n8n worker to be ready',
					() => isReady(`http://127.0.0.1:${healthPort}/healthz/readiness`),
					{
						process: worker,
						timeoutMs: startTimeoutMs,
					},
				);
			}
		}

		const client = new N8nClient(baseUrl, paths.runtimeDir);
		await client.signIn(owner);
		const packageNodeTypes = await assertPackageLoaded(client, paths, main);

		const workerLogs = workers.map((worker) => worker.logFile);
		const instance: N8nInstance = {
			mode,
			baseUrl,
			port,
			userFolder,
			owner,
			client,
			main,
			worker: workers[0],
			workers,
			redis,
			packageNodeTypes,
			workerRanExecution: (executionId) =>
				workerLogs.some((log) =>
					new RegExp(`execution ${executionId}\\b`).test(readFileSync(log, 'utf8')),
				),
			restartMain: async () => {
				await instance.main.exited;
				started.splice(started.indexOf(instance.main), 1);
				instance.main = await startMain();
				await client.signIn(owner);
			},
			stop,
		};
		return instance;
	} catch (error) {
		await stop();
		throw error;
	}
}

/** Fails unless n8n lists every node of the package's `n8n.nodes`; a broken build only shows up in n8n's log. */
async function assertPackageLoaded(
	client: N8nClient,
	paths: RepoPaths,
	main: ManagedProcess,
): Promise<string[]> {
	const manifest = JSON.parse(readFileSync(join(paths.root, 'package.json'), 'utf8'));
	const expected: number = manifest.n8n?.nodes?.length ?? 0;
	const response = await client.fetch('/types/nodes.json');
	const types = ((await response.json()) as Array<{ name: string }>).map((type) => type.name);
	const ours = [...new Set(types.filter((name) => name.startsWith(`${PACKAGE_NAME}.`)))];
	if (ours.length < expected) {
		throw new Error(
			`n8n loaded ${ours.length} of the ${expected} nodes of ${PACKAGE_NAME} (${ours.join(', ') || 'none'}). ` +
				`Is dist/ built? Log ${main.logFile}:\n${tailFile(main.logFile)}`,
		);
	}
	return ours;
}
