/**
 * n8n-core's own dependency-injection container and config classes.
 *
 * `import '@n8n/di'` from this repo resolves to the copy hoisted for @n8n/node-cli (another version),
 * whose `Container` knows nothing of n8n-core's services ("InstanceSettings is not decorated with
 * Service"). n8n-core ships its own copies under node_modules/n8n-core/node_modules, so resolve them
 * from there.
 */
import type * as ConfigModule from '@n8n/config';
import type * as DiModule from '@n8n/di';
import path from 'node:path';

const coreDir = path.dirname(require.resolve('n8n-core/package.json'));
// n8n-core's own copies of its dependencies, resolved from its directory at run time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fromCore = <T>(id: string): T => require(require.resolve(id, { paths: [coreDir] })) as T;

export const { Container } = fromCore<typeof DiModule>('@n8n/di');
export const { GlobalConfig, InstanceSettingsConfig } =
	fromCore<typeof ConfigModule>('@n8n/config');
