#!/usr/bin/env node
// Fails when `npm install` on a fresh clone would rewrite package-lock.json, i.e. when the committed lock is not
// what npm resolves from package.json (it once kept @smithy/core 3.41.0 where npm resolves 3.41.1). npm resolves
// the lock alone (--package-lock-only: metadata, no package is unpacked) in a scratch folder, so the checkout's
// lock and node_modules stay untouched. About 30 s.
//
// test/e2e/runtime/package-lock.json is not checked here: scripts/ensure-n8n.mjs installs it with --no-save, so no
// install ever rewrites it, and checks that what npm installed is exactly that lock (scripts/lib/installed-lock.ts).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const FILES = ['package.json', 'package-lock.json', '.npmrc'];

/** The lines of `before` and `after` that differ, as `-`/`+` pairs (first `max`). */
export function changedLines(before, after, max = 20) {
	const a = before.split('\n');
	const b = after.split('\n');
	const lines = [];
	for (let index = 0; index < Math.max(a.length, b.length) && lines.length < max; index++) {
		if (a[index] === b[index]) continue;
		if (a[index] !== undefined) lines.push(`- ${a[index].trim()}`);
		if (b[index] !== undefined) lines.push(`+ ${b[index].trim()}`);
	}
	return lines;
}

/** What npm would change in `dir`'s package-lock.json; [] when the lock is what npm resolves. */
export function lockfileChanges(dir) {
	const scratch = mkdtempSync(join(tmpdir(), 'lock-check-'));
	try {
		for (const file of FILES)
			if (existsSync(join(dir, file))) copyFileSync(join(dir, file), join(scratch, file));
		const result = spawnSync(
			'npm',
			['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
			{
				cwd: scratch,
				encoding: 'utf8',
				env: { ...process.env, npm_config_update_notifier: 'false' },
			},
		);
		if (result.status !== 0)
			throw new Error(
				`npm install --package-lock-only failed (exit ${result.status ?? result.signal}):\n${result.stderr}`,
			);
		return changedLines(
			readFileSync(join(dir, 'package-lock.json'), 'utf8'),
			readFileSync(join(scratch, 'package-lock.json'), 'utf8'),
		);
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	const root = resolve(import.meta.dirname, '..');
	const changes = lockfileChanges(root);
	if (changes.length > 0) {
		console.error(
			`[check-lockfile] package-lock.json is not what npm resolves from package.json: a fresh \`npm install\` would change it:\n${changes.join('\n')}\n` +
				'Run `npm install --package-lock-only` and commit package-lock.json.',
		);
		process.exit(1);
	}
	console.log(
		'[check-lockfile] package-lock.json is what npm resolves (a fresh install leaves it unchanged)',
	);
}
