// The README's test command: builds and lints the pack, makes sure the test services are installed,
// then runs all three jest tiers (unit, engine, end-to-end) and prints a per-tier tally.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(title, command, args) {
	console.log(`\n== ${title}`);
	const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
	if (result.status !== 0) {
		console.error(`\n${title} failed (exit ${result.status ?? result.signal}).`);
		process.exit(result.status ?? 1);
	}
}

const node = process.execPath;
if (Number(process.versions.node.split('.')[0]) < 24) {
	console.error(
		`Node ${process.versions.node} is running the tests; run them with "npm test" so the project's Node 24 is used.`,
	);
	process.exit(1);
}

step('Build', bin('tsc'), ['-p', 'tsconfig.json']);
step('Icons and codex files', bin('gulp'), ['build:icons', '--silent']);
step('Type-check tests', bin('tsc'), ['-p', 'tsconfig.test.json']);
// The same files as `npm run lint`: the pack under the n8n community-node rules, tests and scripts under rules
// suited to test code (eslint.config.mjs).
step('Lint (pack, tests and scripts)', bin('eslint'), [
	'nodes',
	'credentials',
	'package.json',
	'test',
	'scripts',
	'eslint.config.mjs',
	'jest.config.js',
	'gulpfile.js',
	'.prettierrc.js',
]);
// The committed lock must be what npm resolves, or a fresh clone's `npm install` rewrites it (about 30 s).
step('Lockfile: a fresh npm install leaves it unchanged', node, ['scripts/check-lockfile.mjs']);
step('System packages for the test services', node, ['scripts/ensure-system-packages.mjs']);
step('Pinned n8n for the end-to-end tier', node, ['scripts/ensure-n8n.mjs']);

mkdirSync(join(root, '.tmp'), { recursive: true });
const extraArgs = process.argv.slice(2);

// Unit and engine tests share the cores; the end-to-end files each start a real n8n (and some Redis,
// workers or Radicale), which on a 2-core machine is only reliable one file at a time.
function runJest(label, projectArgs, resultsFile, env = {}) {
	console.log(`\n== Tests: ${label}`);
	const args = [
		bin('jest'),
		'--ci',
		'--passWithNoTests',
		'--json',
		`--outputFile=${resultsFile}`,
		...projectArgs,
		...extraArgs,
	];
	return (
		spawnSync(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
			.status ?? 1
	);
}

// The files whose results can depend on the process's time zone (dates, recurrence, trigger windows) carry the
// marker `@zone-sensitive` in a comment; only they run again under the other zones.
const ZONE_MARKER = '@zone-sensitive';
function zoneSensitiveFiles() {
	const files = [];
	for (const tier of ['unit', 'engine']) {
		const dir = join(root, 'test', tier);
		for (const entry of readdirSync(dir, { recursive: true })) {
			const file = join(dir, String(entry));
			if (file.endsWith('.test.ts') && readFileSync(file, 'utf8').includes(ZONE_MARKER))
				files.push(relative(root, file));
		}
	}
	if (files.length === 0) {
		console.error(`No test file carries ${ZONE_MARKER}: the time-zone reruns would test nothing.`);
		process.exit(1);
	}
	// jest reads each as a regular expression over the path: the dots taken literally, the end anchored.
	return files.map((file) => `${file.replace(/[\\/]/g, '/').replace(/\./g, '\\.')}$`);
}

const runs = [
	{
		label: 'unit and engine',
		args: ['--selectProjects', 'unit', 'engine'],
		file: join(root, '.tmp', 'jest-unit-engine.json'),
	},
	// Calendar and contact dates must not depend on the zone of the process running n8n: the zone-sensitive
	// unit and engine tests again, west and east of UTC. TZ has to be set for the whole jest process (Date
	// reads it once); setting process.env.TZ inside a test has no effect.
	...['America/New_York', 'Pacific/Auckland'].map((zone) => ({
		label: `zone-sensitive unit and engine tests with TZ=${zone}`,
		args: [...zoneSensitiveFiles(), '--selectProjects', 'unit', 'engine'],
		file: join(root, '.tmp', `jest-dav-${zone.replace('/', '-')}.json`),
		env: { TZ: zone },
		tierSuffix: ` TZ=${zone}`,
	})),
	{
		label: 'end-to-end, one file at a time',
		args: ['--selectProjects', 'e2e', '--runInBand'],
		file: join(root, '.tmp', 'jest-e2e.json'),
		// The fault tallies with 250 items each, not the report's 1,000 (`npm run faults`): same seeds and kinds.
		env: { FAULT_ITEMS: process.env.FAULT_ITEMS ?? '250' },
	},
];
let status = 0;
for (const run of runs) status = runJest(run.label, run.args, run.file, run.env) || status;

const tiers = {};
let passed = 0;
let failed = 0;
for (const run of runs) {
	try {
		const results = JSON.parse(readFileSync(run.file, 'utf8'));
		passed += results.numPassedTests;
		failed += results.numFailedTests;
		for (const file of results.testResults) {
			const tier =
				relative(join(root, 'test'), file.name).split(/[\\/]/)[0] + (run.tierSuffix ?? '');
			tiers[tier] ??= { passed: 0, failed: 0, skipped: 0 };
			for (const test of file.assertionResults) {
				const key =
					test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped';
				tiers[tier][key]++;
			}
		}
	} catch {
		console.log(`(no jest results for ${run.label})`);
	}
}
console.log('\nTiers run:');
for (const [tier, counts] of Object.entries(tiers)) {
	console.log(
		`  ${tier.padEnd(30)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
	);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(status);
