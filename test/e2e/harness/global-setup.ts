// Runs once before the e2e tests: the Debian packages and the pinned n8n must be installed (the ensure
// scripts skip what is already there), and dist/ must be built, since n8n loads the package from it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildState } from '../../../scripts/lib/build-state.ts';

function runEnsureScript(root: string, script: string) {
	const result = spawnSync(process.execPath, [join(root, 'scripts', script)], {
		cwd: root,
		stdio: 'inherit',
	});
	if (result.status !== 0) {
		throw new Error(
			`e2e setup: scripts/${script} failed (${result.signal ?? `exit ${result.status}`}); see its output above. ` +
				`Rerun it alone with: node scripts/${script}`,
		);
	}
}

export default async function globalSetup(
	_globalConfig: unknown,
	projectConfig: { rootDir: string },
) {
	const root = projectConfig.rootDir;
	runEnsureScript(root, 'ensure-system-packages.mjs');
	runEnsureScript(root, 'ensure-n8n.mjs');
	const build = buildState(root);
	if (build.state !== 'ok') {
		throw new Error(
			`e2e setup: dist/ is ${build.state} (${build.detail}). Run \`npm run build\` first.`,
		);
	}
}
