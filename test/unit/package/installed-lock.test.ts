// The e2e runtime's n8n is installed with `npm install --no-save` (scripts/ensure-n8n.mjs; `npm ci` refuses its
// lock): what npm installed must be exactly the committed lock, or the install stops and says what differs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { installedLockDrift, lockDrift } from '../../../scripts/lib/installed-lock.ts';

const locked = {
	'': { name: 'runtime', dependencies: { n8n: '2.41.1' } },
	'node_modules/n8n': { version: '2.41.1' },
	'node_modules/@smithy/core': { version: '3.41.0' },
	'node_modules/a/node_modules/b': { version: '1.0.0' },
	'node_modules/@esbuild/darwin-arm64': { version: '0.25.0', optional: true },
	'node_modules/unused': { version: '2.0.0', extraneous: true },
	'node_modules/peer-opt': { version: '1.0.0', optional: true, peer: true },
	'node_modules/dev-opt': { version: '1.0.0', devOptional: true },
};
const installedAsLocked = {
	'node_modules/n8n': { version: '2.41.1' },
	'node_modules/@smithy/core': { version: '3.41.0' },
	'node_modules/a/node_modules/b': { version: '1.0.0' },
};

describe('lockDrift', () => {
	it('finds nothing when every installed package is at its locked version and nothing needed is missing', () => {
		expect(lockDrift(locked, installedAsLocked)).toEqual([]);
	});

	it('names a package npm resolved to another version than the lock', () => {
		expect(
			lockDrift(locked, {
				...installedAsLocked,
				'node_modules/@smithy/core': { version: '3.41.1' },
			}),
		).toEqual(['node_modules/@smithy/core: installed 3.41.1, locked 3.41.0']);
	});

	it('names a package installed but not in the lock', () => {
		expect(
			lockDrift(locked, { ...installedAsLocked, 'node_modules/extra': { version: '1.0.0' } }),
		).toEqual(['node_modules/extra: installed 1.0.0, not in the lock']);
	});

	it('names a locked package that is not installed, unless it is optional or extraneous', () => {
		const { ['node_modules/a/node_modules/b']: _b, ...withoutB } = installedAsLocked;
		expect(lockDrift(locked, withoutB)).toEqual([
			'node_modules/a/node_modules/b: locked 1.0.0, not installed',
		]);
	});
});

describe('installedLockDrift', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'installed-lock-'));
		mkdirSync(join(dir, 'node_modules'));
		writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ packages: locked }));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it("reads the committed lock and npm's record of the installed tree (node_modules/.package-lock.json)", () => {
		const hidden = join(dir, 'node_modules/.package-lock.json');
		writeFileSync(hidden, JSON.stringify({ packages: installedAsLocked }));
		expect(installedLockDrift(dir)).toEqual([]);
		writeFileSync(
			hidden,
			JSON.stringify({
				packages: { ...installedAsLocked, 'node_modules/n8n': { version: '2.41.3' } },
			}),
		);
		expect(installedLockDrift(dir)).toEqual(['node_modules/n8n: installed 2.41.3, locked 2.41.1']);
	});

	it("says so when npm's record is missing (nothing installed yet)", () => {
		expect(installedLockDrift(dir)).toEqual([
			'node_modules/.package-lock.json is missing: nothing was installed by npm',
		]);
	});

	it('the committed runtime lock holds n8n at the version package.json pins', () => {
		const runtime = join(__dirname, '../../e2e/runtime');
		const pinned = JSON.parse(readFileSync(join(runtime, 'package.json'), 'utf8')).dependencies.n8n;
		const packages = JSON.parse(readFileSync(join(runtime, 'package-lock.json'), 'utf8')).packages;
		expect(packages['node_modules/n8n'].version).toBe(pinned);
	});
});
