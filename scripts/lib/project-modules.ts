// `npm start` on a fresh clone installs the project's own dependencies itself, under the Node that runs it
// (24, from scripts/node24.mjs): npm then has no reason to warn EBADENGINE (n8n's isolated-vm and this pack
// ask for Node 24), and its quiet minutes get a progress line.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Installed when the compiler the build needs is there; updating after a pull stays `npm install`'s job. */
export function projectModulesInstalled(root: string): boolean {
	return existsSync(join(root, 'node_modules/.bin/tsc'));
}

function packagesSoFar(root: string): number {
	try {
		return readdirSync(join(root, 'node_modules')).reduce(
			(count, name) =>
				count +
				(name.startsWith('@')
					? readdirSync(join(root, 'node_modules', name)).length
					: name.startsWith('.')
						? 0
						: 1),
			0,
		);
	} catch {
		return 0;
	}
}

export async function installProjectModules(
	root: string,
	log: (message: string) => void,
	everyMs = 15_000,
): Promise<void> {
	const started = Date.now();
	log("installing the project's dependencies (npm install, ~1,000 packages, about 2 min)");
	await new Promise<void>((resolve, reject) => {
		const child = spawn('npm', ['install', '--no-audit', '--no-fund'], {
			cwd: root,
			stdio: ['ignore', 'inherit', 'inherit'],
			env: { ...process.env, npm_config_update_notifier: 'false' },
		});
		const timer = setInterval(() => {
			const seconds = Math.round((Date.now() - started) / 1000);
			log(`  ... npm install running for ${seconds} s, ${packagesSoFar(root)} packages so far`);
		}, everyMs);
		child.on('error', (error) => (clearInterval(timer), reject(error)));
		child.on('exit', (code, signal) => {
			clearInterval(timer);
			if (code === 0) resolve();
			else
				reject(
					new Error(`npm install failed (${signal ?? `exit ${code}`}); see its output above.`),
				);
		});
	});
	log(`  npm install done in ${Math.round((Date.now() - started) / 1000)} s`);
}
