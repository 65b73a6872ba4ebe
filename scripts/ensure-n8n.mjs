#!/usr/bin/env node
// Installs the pinned n8n of test/e2e/runtime (package.json + committed package-lock.json) when it is
// missing, incomplete or not what the lock says (checked after every install and on every run). Idempotent: a
// stamp file written after a complete install makes reruns instant.
//
// Why not a plain `npm install`: install scripts must stay off (one of n8n's dependencies downloads from
// the internet during install and npm then empties node_modules), and `npm ci` refuses the lock because of
// platform-specific optional packages. sqlite3 is then compiled explicitly against Node 24's headers.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureDebianPackages } from './ensure-system-packages.mjs';
import { installedLockDrift } from './lib/installed-lock.ts';
import { bytesUnder, heartbeat, progressLine } from './lib/progress.ts';

const root = resolve(import.meta.dirname, '..');
const runtimeDir = join(root, 'test/e2e/runtime');
const modulesDir = join(runtimeDir, 'node_modules');
const stampFile = join(modulesDir, '.ensure-n8n.json');
const logDir = join(root, '.tmp/ensure-n8n');
// sqlite3 is compiled against the headers of the Node that runs n8n: this one (scripts/node24.mjs starts
// it under Node 24). The official builds and the npm platform packages ship them next to bin/; a machine's
// npm config may point nodedir at another Node's headers, so it is set explicitly when they are there.
const nodeDir = resolve(dirname(process.execPath), '..');
const nodeHeaders = join(nodeDir, 'include/node/node.h');

const log = (message) => console.log(`[ensure-n8n] ${message}`);
// What a complete install writes into node_modules (n8n 2.41.1, measured with du -sb: 2.05 GB): the yardstick.
const INSTALLED_BYTES = 2.05e9;

function expectedStamp() {
	const lock = readFileSync(join(runtimeDir, 'package-lock.json'));
	const manifest = readFileSync(join(runtimeDir, 'package.json'));
	return { lockSha256: createHash('sha256').update(manifest).update(lock).digest('hex') };
}

function isComplete() {
	if (!existsSync(join(modulesDir, '.bin/n8n')) || !existsSync(stampFile)) return false;
	try {
		return (
			JSON.parse(readFileSync(stampFile, 'utf8')).lockSha256 === expectedStamp().lockSha256 &&
			installedLockDrift(runtimeDir).length === 0
		);
	} catch {
		return false;
	}
}

function tail(file, lines = 40) {
	try {
		return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

// Runs npm with its output in a log file, printing one progress line every 20 s; `written` measures what the
// step itself has written so far.
function runNpm(step, args, env, written) {
	const logFile = join(logDir, `${step}.log`);
	const fd = openSync(logFile, 'w');
	const started = Date.now();
	return new Promise((resolvePromise, reject) => {
		const child = spawn('npm', args, { cwd: runtimeDir, env, stdio: ['ignore', fd, fd] });
		const stopBeat = heartbeat(20_000, (elapsedMs) =>
			console.log(`[ensure-n8n] ${progressLine(step, elapsedMs, written?.())}`),
		);
		child.on('error', (error) => (stopBeat(), reject(error)));
		child.on('exit', (code, signal) => {
			stopBeat();
			closeSync(fd);
			if (code === 0) {
				log(`  ${step} done in ${Math.round((Date.now() - started) / 1000)} s`);
				resolvePromise();
			} else {
				reject(
					new Error(
						`npm ${args.join(' ')} failed (${signal ?? `exit ${code}`}). Last lines of ${relative(root, logFile)}:\n${tail(logFile)}`,
					),
				);
			}
		});
	});
}

export async function ensureN8n() {
	if (isComplete()) return;
	const version = JSON.parse(readFileSync(join(runtimeDir, 'package.json'), 'utf8')).dependencies
		.n8n;
	if (Number(process.versions.node.split('.')[0]) < 24) {
		throw new Error(
			`Node ${process.versions.node} is running; run this through \`node scripts/node24.mjs\` (n8n 2.x needs Node 24).`,
		);
	}
	await ensureDebianPackages(['python3', 'make', 'g++']);
	mkdirSync(logDir, { recursive: true });

	const env = {
		...process.env,
		npm_config_logs_dir: logDir,
		npm_config_loglevel: 'error',
		npm_config_progress: 'false',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_update_notifier: 'false',
	};
	// Ranges measured: ~2 min on an idle 2-core machine, 7.7 min on one under load 10-15.
	log(
		`installing n8n ${version} into ${relative(root, runtimeDir)} (first time only: ~2 GB, 2-10 min depending on the machine and the network; then 1-5 min to compile sqlite3)`,
	);
	// Progress is what npm has written into node_modules (not the disk's free space: other processes write too).
	const where = relative(root, modulesDir);
	const written = () => ({ bytes: bytesUnder(modulesDir), expectedBytes: INSTALLED_BYTES, where });
	// --no-save keeps the committed lockfile untouched.
	await runNpm('npm-install', ['install', '--ignore-scripts', '--no-save'], env, written);
	// `npm ci` refuses this lock, and `npm install` re-resolves silently where the lock no longer fits: what it
	// installed must be exactly the committed lock (the e2e tier tests that n8n, nothing newer).
	const drift = installedLockDrift(runtimeDir);
	if (drift.length > 0) {
		throw new Error(
			`npm installed something other than ${relative(root, runtimeDir)}/package-lock.json (${drift.length} differences; first ones):\n${drift.slice(0, 10).join('\n')}\n` +
				`Regenerate the lock: in ${relative(root, runtimeDir)} run \`npm install --package-lock-only --ignore-scripts\` and commit package-lock.json.`,
		);
	}
	log('  installed exactly the committed lock');

	log(
		'compiling sqlite3 for Node 24 (1-5 min: ~1 min on an idle 2-core machine, 2 min measured on a busy one)',
	);
	const sqliteBuild = join(modulesDir, 'sqlite3/build');
	await runNpm(
		'sqlite3-rebuild',
		['rebuild', 'sqlite3', '--ignore-scripts=false'],
		{
			...env,
			// Without local headers node-gyp downloads those of this Node's version.
			...(existsSync(nodeHeaders) ? { npm_config_nodedir: nodeDir } : {}),
			// No prebuilt binary can be downloaded here: go straight to the compiler.
			npm_config_build_from_source: 'true',
		},
		() => ({ bytes: bytesUnder(sqliteBuild), where: relative(root, sqliteBuild) }),
	);
	if (!existsSync(join(modulesDir, 'sqlite3/build/Release/node_sqlite3.node'))) {
		throw new Error(
			`sqlite3 was rebuilt but its binding is missing; see ${relative(root, logDir)}/sqlite3-rebuild.log`,
		);
	}
	writeFileSync(
		stampFile,
		JSON.stringify({ ...expectedStamp(), n8n: version, at: new Date().toISOString() }, null, 2),
	);
	log('n8n runtime ready');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	ensureN8n().catch((error) => {
		console.error(`[ensure-n8n] ${error.message}`);
		process.exit(1);
	});
}
