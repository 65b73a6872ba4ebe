// Is dist/ what n8n should load? Missing: a listed node or credential file is absent. Stale: a source file
// (nodes/, credentials/, icons/, package.json) is newer than the oldest listed dist file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path: string): number {
	if (!existsSync(path)) return 0;
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	return readdirSync(path).reduce(
		(newest, entry) => Math.max(newest, newestMtime(join(path, entry))),
		stat.mtimeMs,
	);
}

export function buildState(root: string): { state: 'ok' | 'missing' | 'stale'; detail: string } {
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	const listed: string[] = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const missing = listed.filter((file) => !existsSync(join(root, file)));
	if (missing.length > 0) return { state: 'missing', detail: `missing ${missing.join(', ')}` };

	const built = Math.min(...listed.map((file) => statSync(join(root, file)).mtimeMs));
	const sources = Math.max(
		...['nodes', 'credentials', 'icons', 'package.json'].map((p) => newestMtime(join(root, p))),
	);
	if (sources > built) return { state: 'stale', detail: 'sources changed after the last build' };
	return { state: 'ok', detail: '' };
}
