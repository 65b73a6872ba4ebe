import { PackError } from '../../../nodes/shared/errors/pack-error';
import {
	binaryStoreProblem,
	binaryStoreMode,
	databaseModeMaxBytes,
	keptAlivePath,
	ssrfProtectionMayBeOn,
	transferPath,
} from '../../../nodes/shared/transport/binary-mode';

const MIB = 1024 * 1024;

describe("n8n's binary store mode, as n8n decides it", () => {
	it('is filesystem on a single instance and database in queue mode, unless set', () => {
		expect(binaryStoreMode({}, ['node', 'n8n', 'start'])).toBe('filesystem');
		expect(binaryStoreMode({ EXECUTIONS_MODE: 'queue' }, ['node', 'n8n', 'start'])).toBe(
			'database',
		);
		expect(binaryStoreMode({}, ['node', 'n8n', 'worker'])).toBe('database');
		expect(
			binaryStoreMode({ EXECUTIONS_MODE: 'queue', N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' }, []),
		).toBe('filesystem');
		expect(binaryStoreMode({ N8N_DEFAULT_BINARY_DATA_MODE: 's3' }, [])).toBe('other');
	});

	it("caps database mode at n8n's default of 512 MiB, or the configured size up to 1024 MiB", () => {
		expect(databaseModeMaxBytes({})).toBe(512 * MIB);
		expect(databaseModeMaxBytes({ N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: '100' })).toBe(100 * MIB);
		expect(databaseModeMaxBytes({ N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: '4096' })).toBe(
			1024 * MIB,
		);
	});
});

describe('a file too large for the database mode is refused before any transfer', () => {
	const queue = { EXECUTIONS_MODE: 'queue' };

	it('names the limit and the settings that change it', () => {
		const error = binaryStoreProblem(600 * MIB, 'big.bin', 3, queue, []);
		expect(error).toBeInstanceOf(PackError);
		expect((error as PackError).message).toBe(
			"big.bin (600 MiB) is larger than n8n's limit of 512 MiB for binary data kept in its database",
		);
		expect((error as PackError).description).toContain('N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE');
		expect((error as PackError).description).toContain('N8N_DEFAULT_BINARY_DATA_MODE');
		expect((error as PackError).itemIndex).toBe(3);
	});

	it('lets through a file under the cap, an unknown size, and every size in the other modes', () => {
		expect(binaryStoreProblem(512 * MIB, 'ok.bin', 0, queue, [])).toBeUndefined();
		expect(binaryStoreProblem(undefined, 'unknown.bin', 0, queue, [])).toBeUndefined();
		expect(
			binaryStoreProblem(4096 * MIB, 'big.bin', 0, {}, ['node', 'n8n', 'start']),
		).toBeUndefined();
	});
});

describe('uploads of a file on disk', () => {
	it("go from the main thread by default, through n8n's helper with CLOUD_STORAGE_WORKER_TRANSFERS=false (no worker-thread upload any more)", () => {
		expect(transferPath('upload', {})).toBe('main thread');
		expect(transferPath('upload', { CLOUD_STORAGE_WORKER_TRANSFERS: ' TRUE ' })).toBe(
			'main thread',
		);
		expect(transferPath('upload', { CLOUD_STORAGE_WORKER_TRANSFERS: 'false' })).toBe('helper');
		// The file is on disk already, whatever mode n8n stores new binary data in.
		expect(transferPath('upload', { EXECUTIONS_MODE: 'queue' }, ['node', 'n8n', 'worker'])).toBe(
			'main thread',
		);
	});
	it("go through n8n's helper when a proxy is configured (the main-thread path has none)", () => {
		for (const name of ['HTTP_PROXY', 'https_proxy', 'ALL_PROXY'])
			expect(transferPath('upload', { [name]: 'http://proxy.example:3128' })).toBe('helper');
		expect(
			transferPath('upload', {
				HTTPS_PROXY: 'http://proxy.example:3128',
				CLOUD_STORAGE_WORKER_TRANSFERS: 'true',
			}),
		).toBe('helper');
	});
});

describe('downloads into the filesystem store (transferPath)', () => {
	const start = ['node', 'n8n', 'start'];
	it("read on the main thread by default (CLOUD_STORAGE_WORKER_TRANSFERS=true too: no worker-thread download any more), through n8n's helper with a proxy or the switch off", () => {
		expect(transferPath('download', {}, start)).toBe('main thread');
		expect(transferPath('download', { CLOUD_STORAGE_WORKER_TRANSFERS: 'true' }, start)).toBe(
			'main thread',
		);
		expect(transferPath('download', { https_proxy: 'http://proxy:3128' }, start)).toBe('helper');
		expect(transferPath('download', { ALL_PROXY: 'http://proxy:3128' }, start)).toBe('helper');
		expect(
			transferPath(
				'download',
				{ HTTPS_PROXY: 'http://proxy:3128', CLOUD_STORAGE_WORKER_TRANSFERS: 'true' },
				start,
			),
		).toBe('helper');
		expect(transferPath('download', { CLOUD_STORAGE_WORKER_TRANSFERS: ' False ' }, start)).toBe(
			'helper',
		);
	});
	it('never in the other binary modes, whatever the switch says', () => {
		const on = { CLOUD_STORAGE_WORKER_TRANSFERS: 'true' };
		expect(transferPath('download', { ...on, EXECUTIONS_MODE: 'queue' }, start)).toBe('helper');
		expect(transferPath('download', on, ['node', 'n8n', 'worker'])).toBe('helper');
		expect(
			transferPath('download', { ...on, N8N_DEFAULT_BINARY_DATA_MODE: 'database' }, start),
		).toBe('helper');
		expect(transferPath('download', { N8N_DEFAULT_BINARY_DATA_MODE: 's3' }, start)).toBe('helper');
	});
});

describe("n8n's SSRF protection, whose rules live in n8n's helper", () => {
	const start = ['node', 'n8n', 'start'];
	it('is read as n8n reads N8N_SSRF_PROTECTION_ENABLED (true or 1), and taken as possibly on when set through a file', () => {
		expect(ssrfProtectionMayBeOn({})).toBe(false);
		expect(ssrfProtectionMayBeOn({ N8N_SSRF_PROTECTION_ENABLED: 'false' })).toBe(false);
		expect(ssrfProtectionMayBeOn({ N8N_SSRF_PROTECTION_ENABLED: ' TRUE ' })).toBe(true);
		expect(ssrfProtectionMayBeOn({ N8N_SSRF_PROTECTION_ENABLED: '1' })).toBe(true);
		expect(ssrfProtectionMayBeOn({ N8N_SSRF_PROTECTION_ENABLED_FILE: '/run/secrets/ssrf' })).toBe(
			true,
		);
	});
	it("sends every call and transfer through n8n's helper while it may be on, whatever else is set", () => {
		for (const on of [
			{ N8N_SSRF_PROTECTION_ENABLED: 'true' },
			{ N8N_SSRF_PROTECTION_ENABLED: 'true', CLOUD_STORAGE_WORKER_TRANSFERS: 'true' },
		]) {
			expect(keptAlivePath(on)).toBe('helper');
			expect(transferPath('upload', on)).toBe('helper');
			expect(transferPath('download', on, start)).toBe('helper');
		}
	});
});

describe('calls other than file transfers (keptAlivePath)', () => {
	it("go over the transport's own kept-alive connections by default", () => {
		expect(keptAlivePath({})).toBe('own connections');
		expect(keptAlivePath({ CLOUD_STORAGE_KEEP_ALIVE: 'true' })).toBe('own connections');
		expect(keptAlivePath({ CLOUD_STORAGE_WORKER_TRANSFERS: 'false' })).toBe('own connections');
	});
	it("stay on them with an http(s) proxy configured (undici's proxy agent), and go through n8n's helper with CLOUD_STORAGE_KEEP_ALIVE=false", () => {
		for (const name of ['HTTP_PROXY', 'https_proxy', 'ALL_PROXY'])
			expect(keptAlivePath({ [name]: 'http://proxy.example:3128' })).toBe('own connections');
		expect(keptAlivePath({ CLOUD_STORAGE_KEEP_ALIVE: ' False ' })).toBe('helper');
		expect(
			keptAlivePath({ CLOUD_STORAGE_KEEP_ALIVE: 'false', HTTPS_PROXY: 'http://proxy:3128' }),
		).toBe('helper');
	});
});
