/**
 * The n8n-core services a workflow run needs, set up once per test file (jest gives every test file its
 * own module registry, so its own DI container).
 *
 * n8n's CLI does the same at start-up: instance settings (encryption key, user folder), a credential
 * cipher, and the binary data service. Binary data uses the filesystem mode, as n8n's default does, so
 * `prepareBinaryData` writes a file and gives items a `binary.id` that nodes read back as a stream.
 */
import {
	BinaryDataConfig,
	BinaryDataService,
	Cipher,
	EncryptionKeyProxy,
	InstanceSettings,
} from 'n8n-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Container, GlobalConfig, InstanceSettingsConfig } from './core-container';

export interface EngineServices {
	/** Temporary n8n user folder: settings file and binary data store. Removed at process exit. */
	userFolder: string;
	binaryDataDir: string;
	binaryData: BinaryDataService;
}

let services: Promise<EngineServices> | undefined;

export function engineServices(): Promise<EngineServices> {
	services ??= initialise();
	return services;
}

async function initialise(): Promise<EngineServices> {
	// n8n logs every node error (with stack) when Sentry is not set up; tests read errors from the result.
	// N8N_LOG_LEVEL=debug (or error, ...) brings the logs back.
	if (!process.env.N8N_LOG_LEVEL) Container.get(GlobalConfig).logging.level = 'silent';

	const userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-engine-test-'));
	process.once('exit', () => rmSync(userFolder, { recursive: true, force: true }));

	// Point InstanceSettings at the temp folder instead of ~/.n8n; it writes its settings file there.
	Object.assign(Container.get(InstanceSettingsConfig), {
		userHome: userFolder,
		n8nFolder: path.join(userFolder, '.n8n'),
		encryptionKey: 'engine-test-encryption-key',
		enforceSettingsFilePermissions: false,
	});
	const instanceSettings = Container.get(InstanceSettings);

	useInstanceKeyForCredentials(instanceSettings);

	const binaryDataDir = path.join(userFolder, 'binary-data');
	const binaryConfig = Container.get(BinaryDataConfig);
	binaryConfig.mode = 'filesystem';
	binaryConfig.localStoragePath = binaryDataDir;
	const binaryData = Container.get(BinaryDataService);
	await binaryData.init();

	return { userFolder, binaryDataDir, binaryData };
}

/**
 * n8n's cipher asks a key provider (backed by the database in the CLI) for the active key. An instance
 * without key rotation uses its own encryption key in the legacy "no-prefix" format; this reproduces that.
 */
function useInstanceKeyForCredentials(instanceSettings: InstanceSettings) {
	const cipher = Container.get(Cipher);
	const legacyKey = {
		id: 'instance',
		value: cipher.encryptDEKWithInstanceKey(instanceSettings.encryptionKey),
		algorithm: 'aes-256-cbc',
		format: 'no-prefix' as const,
	};
	Container.get(EncryptionKeyProxy).setProvider({
		getActiveKey: async () => legacyKey,
		getKeyById: async (id) => (id === legacyKey.id ? legacyKey : null),
		getLegacyKey: async () => legacyKey,
	});
}
