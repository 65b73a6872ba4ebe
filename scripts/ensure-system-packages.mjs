#!/usr/bin/env node
// Installs the Debian packages the test tiers need, skipping those already present.
// Run directly (`node scripts/ensure-system-packages.mjs [package ...]`) or import `ensureDebianPackages`.
// Works with any Node version: it may run before the project's Node 24 is in place.
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

// redis-server: queue mode (n8n main + worker). python3-radicale, apache2-utils: the CalDAV/CardDAV server;
// xandikos: the second, independent CalDAV/CardDAV server the DAV tests also run against.
// python3, make, g++: node-gyp, which compiles sqlite3 for the n8n runtime.
// chromium: the end-to-end node-picker test and `npm run screenshots` (playwright-core drives Debian's browser;
// no browser is downloaded).
export const TEST_PACKAGES = [
	'redis-server',
	'python3-radicale',
	'xandikos',
	'apache2-utils',
	'python3',
	'make',
	'g++',
	'chromium',
];

const log = (message) => console.log(`[ensure-system-packages] ${message}`);

function isInstalled(name) {
	const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
	return result.status === 0 && result.stdout.includes('install ok installed');
}

/**
 * Runs a command with its output kept for the error, printing a line every `everyMs` while it runs: apt-get
 * is silent for minutes on a slow mirror or a busy machine.
 */
export function run(command, args, { everyMs = 20_000, say = log } = {}) {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		const keep = (chunk) => (output = (output + chunk).slice(-64 * 1024));
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const timer = setInterval(
			() =>
				say(
					`  ... ${command} ${args[0]} running for ${Math.round((Date.now() - started) / 1000)} s`,
				),
			everyMs,
		);
		child.on('error', (error) => (clearInterval(timer), reject(error)));
		child.on('close', (code, signal) => {
			clearInterval(timer);
			if (code === 0) return resolve();
			const tail = output.trim().split('\n').slice(-30).join('\n');
			reject(new Error(`${command} ${args.join(' ')} failed (exit ${code ?? signal}):\n${tail}`));
		});
	});
}

export async function ensureDebianPackages(names = TEST_PACKAGES) {
	const missing = names.filter((name) => !isInstalled(name));
	if (missing.length === 0) return;

	if (process.getuid?.() !== 0) {
		throw new Error(
			`Missing Debian packages: ${missing.join(' ')}. Install them as root:\n` +
				`  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`,
		);
	}
	const started = Date.now();
	// No estimate: it depends on the mirror, the packages and the machine (seconds to several minutes).
	log(
		`installing ${missing.join(', ')} (apt-get update + install; a line every 20 s while it runs)...`,
	);
	await run('apt-get', ['update', '-qq']);
	await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]);
	log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	const requested = process.argv.slice(2);
	ensureDebianPackages(requested.length > 0 ? requested : TEST_PACKAGES).catch((error) => {
		console.error(`[ensure-system-packages] ${error.message}`);
		process.exit(1);
	});
}
