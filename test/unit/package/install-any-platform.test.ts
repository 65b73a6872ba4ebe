// `npm install` must work on every platform n8n runs on. npm refuses (EBADPLATFORM) a package whose `os` or
// `cpu` excludes the machine unless it is optional; `npm install --dry-run --os=darwin --cpu=arm64` does not
// run that check, so this reads the lockfile the way npm's reify step does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type LockEntry = { os?: string[] | string; cpu?: string[] | string; optional?: boolean };

const root = join(__dirname, '../../..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
	packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
	string,
	unknown
>;

/** npm-install-checks' rule: a list of allowed values, or of `!value` exclusions. */
function allows(list: string[] | string | undefined, value: string): boolean {
	if (list === undefined) return true;
	const values = Array.isArray(list) ? list : [list];
	if (values.includes(`!${value}`)) return false;
	const positive = values.filter((entry) => !entry.startsWith('!'));
	return positive.length === 0 || positive.includes(value) || positive.includes('any');
}

const PLATFORMS = [
	['darwin', 'arm64'],
	['darwin', 'x64'],
	['win32', 'x64'],
	['linux', 'arm64'],
	['linux', 'x64'],
] as const;

describe('npm install on any platform', () => {
	test.each(PLATFORMS)('%s-%s: every package bound to other platforms is optional', (os, cpu) => {
		const refused = Object.entries(lock.packages)
			.filter(([, entry]) => !entry.optional && !(allows(entry.os, os) && allows(entry.cpu, cpu)))
			.map(([path]) => path);
		expect(refused).toEqual([]);
	});

	test('Node 24 is provisioned by scripts/node24.mjs, not by a platform-bound dependency', () => {
		const devDependencies = manifest.devDependencies as Record<string, string>;
		expect(
			Object.keys(devDependencies).filter((name) => /^node-(linux|darwin|win)-/.test(name)),
		).toEqual([]);
		const scripts = manifest.scripts as Record<string, string>;
		for (const name of ['start', 'test', 'test:unit'])
			expect(scripts[name]).toMatch(/^(exec )?node scripts\/node24\.mjs /);
	});
});
