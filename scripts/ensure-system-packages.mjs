#!/usr/bin/env node
// Installs the Debian packages the test tiers need, skipping those already present.
// Run directly (`node scripts/ensure-system-packages.mjs [package ...]`) or import `ensureDebianPackages`.
// Works with any Node version: it may run before the project's Node 24 is in place.
import { spawnSync } from 'node:child_process';
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

function run(command, args) {
	const result = spawnSync(command, args, {
		encoding: 'utf8',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		maxBuffer: 64 * 1024 * 1024,
	});
	if (result.status !== 0) {
		const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
			.trim()
			.split('\n')
			.slice(-30)
			.join('\n');
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${output}`,
		);
	}
}

export function ensureDebianPackages(names = TEST_PACKAGES) {
	const missing = names.filter((name) => !isInstalled(name));
	if (missing.length === 0) return;

	if (process.getuid?.() !== 0) {
		throw new Error(
			`Missing Debian packages: ${missing.join(' ')}. Install them as root:\n` +
				`  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`,
		);
	}
	const started = Date.now();
	log(`installing ${missing.join(', ')} (apt-get update + install, usually under a minute)...`);
	run('apt-get', ['update', '-qq']);
	run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]);
	log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	try {
		const requested = process.argv.slice(2);
		ensureDebianPackages(requested.length > 0 ? requested : TEST_PACKAGES);
	} catch (error) {
		console.error(`[ensure-system-packages] ${error.message}`);
		process.exit(1);
	}
}
