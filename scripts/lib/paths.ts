// Where things live in the repository. Callers pass the repository root: this file is loaded both as ESM
// by Node 24 (scripts) and as CommonJS by ts-jest (tests), so it can use neither import.meta nor __dirname.
import { join } from 'node:path';

export const PACKAGE_NAME = 'n8n-nodes-cloud-storage';

export type RepoPaths = ReturnType<typeof repoPaths>;

export function repoPaths(root: string) {
	return {
		root,
		runtimeDir: join(root, 'test/e2e/runtime'),
		n8nMain: join(root, 'test/e2e/runtime/node_modules/n8n/bin/n8n'),
		/** n8n 2.x needs Node >= 24: the one running this (the npm scripts start it through scripts/node24.mjs). */
		node: process.execPath,
		dist: join(root, 'dist'),
		workflowsDir: join(root, 'test/e2e/workflows'),
		tmp: join(root, '.tmp'),
	};
}
