// The README's test command: builds and lints the pack, makes sure the test services are installed,
// then runs all three jest tiers (unit, engine, end-to-end) and prints a per-tier tally.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
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
	console.error(`Node ${process.versions.node} is running the tests; run them with "npm test" so the project's Node 24 is used.`);
	process.exit(1);
}

step('Build', bin('tsc'), ['-p', 'tsconfig.json']);
step('Icons and codex files', bin('gulp'), ['build:icons', '--silent']);
step('Type-check tests', bin('tsc'), ['-p', 'tsconfig.test.json']);
step('Lint (n8n community node rules)', bin('eslint'), ['nodes', 'credentials', 'package.json']);
step('System packages for the test services', node, ['scripts/ensure-system-packages.mjs']);
step('Pinned n8n for the end-to-end tier', node, ['scripts/ensure-n8n.mjs']);

mkdirSync(join(root, '.tmp'), { recursive: true });
const resultsFile = join(root, '.tmp', 'jest-results.json');
const jestArgs = ['--ci', '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)];
console.log('\n== Tests: unit, engine, end-to-end');
const jest = spawnSync(node, [bin('jest'), ...jestArgs], { cwd: root, stdio: 'inherit', env: process.env });

try {
	const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
	const tiers = {};
	for (const file of results.testResults) {
		const tier = relative(join(root, 'test'), file.name).split(/[\\/]/)[0];
		tiers[tier] ??= { passed: 0, failed: 0, skipped: 0 };
		for (const test of file.assertionResults) {
			const key = test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped';
			tiers[tier][key]++;
		}
	}
	console.log('\nTiers run:');
	for (const [tier, counts] of Object.entries(tiers)) {
		console.log(`  ${tier.padEnd(7)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
	}
	console.log(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`);
} catch {
	console.log('(no jest results to tally)');
}
process.exit(jest.status ?? 1);
