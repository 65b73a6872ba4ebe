import { PackError } from '../errors/pack-error';
import { proxyConfigured } from './proxy';

/** n8n's own default cap for a file in its `database` binary mode, in MiB (at most 1024). */
export const DATABASE_MODE_DEFAULT_MAX_MIB = 512;

export type BinaryStoreMode = 'filesystem' | 'database' | 'other';

type Env = Record<string, string | undefined>;

/**
 * Where n8n will store new binary data in this process, read from n8n's own settings as n8n reads them:
 * `N8N_DEFAULT_BINARY_DATA_MODE`, else `database` in queue mode (EXECUTIONS_MODE=queue, or a process started
 * as `n8n worker`) and `filesystem` otherwise. n8n hands nodes no way to ask, so this mirrors its rule.
 */
export function binaryStoreMode(
	env: Env = process.env,
	argv: string[] = process.argv,
): BinaryStoreMode {
	const configured = env.N8N_DEFAULT_BINARY_DATA_MODE?.trim();
	const mode =
		configured && configured !== 'default'
			? configured
			: env.EXECUTIONS_MODE === 'queue' || argv.includes('worker')
				? 'database'
				: 'filesystem';
	return mode === 'filesystem' || mode === 'database' ? mode : 'other';
}

/** The largest file n8n's database mode accepts, in bytes (`N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE`, MiB). */
export function databaseModeMaxBytes(env: Env = process.env): number {
	const mib = Number(env.N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE);
	return (
		(Number.isFinite(mib) && mib > 0 ? Math.min(mib, 1024) : DATABASE_MODE_DEFAULT_MAX_MIB) *
		1024 *
		1024
	);
}

const mib = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;

/**
 * A file that n8n's database binary mode would reject only after the whole file had been downloaded into one
 * buffer, refused before any byte moves (returned: a caller may have a connection to release first).
 */
export function binaryStoreProblem(
	bytes: number | undefined,
	fileName: string,
	itemIndex?: number,
	env: Env = process.env,
	argv: string[] = process.argv,
): PackError | undefined {
	if (bytes === undefined || !Number.isFinite(bytes) || binaryStoreMode(env, argv) !== 'database')
		return undefined;
	const limit = databaseModeMaxBytes(env);
	if (bytes <= limit) return undefined;
	return new PackError(
		`${fileName} (${mib(bytes)}) is larger than n8n's limit of ${mib(limit)} for binary data kept in its database`,
		{
			kind: 'input',
			itemIndex,
			description:
				'n8n stores binary data in its database here (the default in queue mode), which holds a whole file in memory and caps its size. ' +
				'Raise N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE (in MiB, at most 1024), or set N8N_DEFAULT_BINARY_DATA_MODE=filesystem (one machine) or s3 (queue mode) for large files, then restart n8n.',
		},
	);
}

/**
 * Whether n8n's SSRF protection may be on (N8N_SSRF_PROTECTION_ENABLED, read as n8n reads it, or set through
 * a file). Its rules live in n8n's request helper: while it may be on, every request and transfer goes through
 * that helper.
 */
export function ssrfProtectionMayBeOn(env: Env = process.env): boolean {
	if (env.N8N_SSRF_PROTECTION_ENABLED_FILE?.trim()) return true;
	const value = env.N8N_SSRF_PROTECTION_ENABLED?.trim().toLowerCase();
	return value === 'true' || value === '1';
}

/**
 * Whether the transport's calls (everything but file transfers) go over its own kept-alive connections
 * (`sendCall`, undici) rather than n8n's request helper. Behind a proxy too, through undici's proxy agent (a proxy
 * neither can go through is refused before any request: `unsupportedProxy`). Not while n8n's SSRF protection may
 * be on; CLOUD_STORAGE_KEEP_ALIVE=false sends them all through n8n's helper.
 */
export function keptAlivePath(env: Env = process.env): 'own connections' | 'helper' {
	if (env.CLOUD_STORAGE_KEEP_ALIVE?.trim().toLowerCase() === 'false') return 'helper';
	return ssrfProtectionMayBeOn(env) ? 'helper' : 'own connections';
}

/**
 * How a file transfer goes: an upload of a file on disk (n8n's filesystem binary mode), or a download into n8n's
 * filesystem store. By default on n8n's main thread through a few reused buffers (`sendUploadFromDisk`,
 * `sendDownloadOnSocket`), which make no garbage for n8n's big heap: on the benchmark machine far faster than
 * n8n's request helper, whose fresh buffer per chunk makes V8 collect n8n's whole heap again and again. That
 * path speaks plain HTTP/1.1 without a proxy, so n8n's helper (n8n's own proxy handling, as its HTTP Request
 * node has) transfers with a proxy configured, with CLOUD_STORAGE_WORKER_TRANSFERS=false, while n8n's SSRF
 * protection may be on, and downloads in the other binary modes. (CLOUD_STORAGE_WORKER_TRANSFERS=true once
 * chose a worker thread, since removed: it is the default now.)
 */
export function transferPath(
	direction: 'upload' | 'download',
	env: Env = process.env,
	argv: string[] = process.argv,
): 'main thread' | 'helper' {
	if (direction === 'download' && binaryStoreMode(env, argv) !== 'filesystem') return 'helper';
	const setting = env.CLOUD_STORAGE_WORKER_TRANSFERS?.trim().toLowerCase();
	if (setting === 'false' || ssrfProtectionMayBeOn(env) || proxyConfigured(env)) return 'helper';
	return 'main thread';
}
