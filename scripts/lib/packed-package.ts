// The package as n8n 2.41 installs it from the Community Nodes screen (read from n8n's
// dist/modules/community-packages): `npm pack`, the tarball extracted, devDependencies, peerDependencies and
// optionalDependencies removed from its package.json, then inside it
// `npm install --audit=false --fund=false --bin-links=false --install-strategy=shallow --ignore-scripts=true
// --package-lock=false`. Only `files`, the compiled output and `dependencies` reach it, so a file missing
// from `files` or a runtime module missing from `dependencies` fails here as it would for a user.
//
// The copy lives under the system's temporary folder, outside the repository: nothing resolves from the
// repository's node_modules. Peer packages (n8n-workflow, @n8n/ai-node-sdk) come from n8n's own modules,
// which n8n puts on NODE_PATH. One install per tarball content, reused by every test file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_NAME } from './paths.ts';

export const N8N_INSTALL_FLAGS = [
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
];

function run(command: string, args: string[], cwd: string, what: string): string {
	const result = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
		maxBuffer: 64 * 1024 * 1024,
	});
	if (result.status !== 0) {
		throw new Error(
			`${what} failed (${command} ${args.join(' ')}, exit ${result.status ?? result.signal}):\n` +
				`${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n'),
		);
	}
	return result.stdout;
}

/**
 * Packs the repository (dist/ must be built) and installs the tarball as n8n does; answers the installed
 * package's folder, to be linked as `<N8N_USER_FOLDER>/.n8n/nodes/node_modules/<name>`.
 */
export function installPackedPackage(root: string): string {
	const base = join(tmpdir(), `${PACKAGE_NAME}-packed`);
	mkdirSync(base, { recursive: true });
	const packDir = mkdtempSync(join(base, 'pack-'));
	try {
		const packed = JSON.parse(
			run(
				'npm',
				['pack', '--json', '--ignore-scripts', '--pack-destination', packDir],
				root,
				'npm pack',
			),
		) as Array<{ filename: string }>;
		const tarball = join(packDir, packed[0].filename.replace(/^@/, '').replace(/\//, '-'));
		const digest = createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16);
		const installed = join(base, digest, 'node_modules', PACKAGE_NAME);
		if (existsSync(join(installed, '.n8n-install-complete'))) return installed;

		// Built beside the final place and renamed into it, so a half-finished install is never reused.
		const staging = join(packDir, 'package');
		mkdirSync(staging, { recursive: true });
		run(
			'tar',
			['-xzf', tarball, '--strip-components=1', '-C', staging],
			root,
			'extracting the tarball',
		);
		const manifestFile = join(staging, 'package.json');
		const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
		delete manifest.devDependencies;
		delete manifest.peerDependencies;
		delete manifest.optionalDependencies;
		writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
		run('npm', ['install', ...N8N_INSTALL_FLAGS], staging, 'npm install inside the packed package');
		writeFileSync(join(staging, '.n8n-install-complete'), new Date().toISOString());
		mkdirSync(join(base, digest, 'node_modules'), { recursive: true });
		// Only complete installs are ever renamed into place, so one that is there is complete: another
		// process (a parallel test run) finished the same tarball first, and its copy stays in use.
		try {
			renameSync(staging, installed);
		} catch (error) {
			if (!existsSync(join(installed, '.n8n-install-complete'))) throw error;
		}
		return installed;
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}
