// What `npm install --no-save` put into a folder against its committed package-lock.json. npm records the tree it
// installed in node_modules/.package-lock.json; an install that re-resolved anything (a lock that no longer
// matches package.json, a registry that lacks a locked version) shows there as another version or a package
// outside the lock. Optional packages (other platforms) and entries npm marks extraneous are not installed.
// Loaded by Node 24 as ESM (scripts) and by ts-jest as CommonJS (tests): no import.meta, no __dirname.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
	version?: string;
	optional?: boolean;
	devOptional?: boolean;
	extraneous?: boolean;
	[field: string]: unknown;
}
type Packages = Record<string, LockEntry>;

/** One line per difference: installed at another version, installed outside the lock, locked and missing. */
export function lockDrift(locked: Packages, installed: Packages): string[] {
	const drift: string[] = [];
	for (const [path, entry] of Object.entries(installed)) {
		if (path === '') continue;
		const lockedEntry = locked[path];
		if (!lockedEntry) drift.push(`${path}: installed ${entry.version}, not in the lock`);
		else if (lockedEntry.version !== entry.version)
			drift.push(`${path}: installed ${entry.version}, locked ${lockedEntry.version}`);
	}
	for (const [path, entry] of Object.entries(locked)) {
		if (path === '' || path in installed) continue;
		if (entry.optional || entry.devOptional || entry.extraneous) continue;
		drift.push(`${path}: locked ${entry.version}, not installed`);
	}
	return drift;
}

/** lockDrift for the folder `dir`: its package-lock.json against what npm recorded in its node_modules. */
export function installedLockDrift(dir: string): string[] {
	const packages = (file: string): Packages =>
		JSON.parse(readFileSync(file, 'utf8')).packages ?? {};
	let installed: Packages;
	try {
		installed = packages(join(dir, 'node_modules/.package-lock.json'));
	} catch {
		return ['node_modules/.package-lock.json is missing: nothing was installed by npm'];
	}
	return lockDrift(packages(join(dir, 'package-lock.json')), installed);
}
