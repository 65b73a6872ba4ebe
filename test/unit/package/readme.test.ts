// Keeps the README true to the code where that can be checked mechanically, computed from the code so that a
// new operation, event, setting or moved document fails here until the documents follow:
// - every node of package.json's `n8n.nodes` has one table in the README section its Docs link names, under a
//   paragraph starting with its display name in bold; the names in the table (every cell but the last column)
//   are exactly the node's resources and operations, or, for a trigger, the options of what it watches;
// - the README's Settings table names exactly the environment variables the pack reads (nodes/, credentials/)
//   and those `npm start` reads (scripts/start.mjs); every variable the other scripts and the test harnesses
//   read is named in the documents;
// - every relative link (and its #anchor) in README.md, CHANGELOG.md, docs/*.md and the test tiers' READMEs resolves.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

const root = join(__dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

/** Every anchor a document's headings make (a repeated heading gets -1, -2, … as on GitHub). */
function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const heading of headings(markdown)) {
		const base = slug(heading.text);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** The lines outside fenced code blocks, with their index. */
function proseLines(markdown: string): Array<{ line: string; index: number }> {
	let fenced = false;
	return markdown.split('\n').flatMap((line, index) => {
		if (/^\s*```/.test(line)) {
			fenced = !fenced;
			return [];
		}
		return fenced ? [] : [{ line, index }];
	});
}

function headings(markdown: string) {
	return proseLines(markdown)
		.map(({ line, index }) => ({ match: /^(#{1,6}) (.*)$/.exec(line), index }))
		.filter(({ match }) => match)
		.map(({ match, index }) => ({ level: match![1].length, text: match![2].trim(), index }));
}

/** The lines of the section whose heading has this anchor, up to the next heading of its level or higher. */
function section(markdown: string, anchor: string): string[] {
	const all = headings(markdown);
	const lines = markdown.split('\n');
	const start = all.findIndex((heading) => slug(heading.text) === anchor);
	if (start < 0) throw new Error(`README has no section #${anchor}`);
	const end = all.slice(start + 1).find((heading) => heading.level <= all[start].level);
	return lines.slice(all[start].index + 1, end?.index ?? lines.length);
}

interface Table {
	caption: string;
	rows: string[][];
}

/** Tables of a section, each with the first line of the paragraph right above it (at most one blank line between). */
function tablesOf(lines: string[]): Table[] {
	const tables: Table[] = [];
	for (let i = 0; i < lines.length; i++) {
		if (!lines[i].startsWith('|') || (i > 0 && lines[i - 1].startsWith('|'))) continue;
		let above = i - 1;
		if (above >= 0 && lines[above].trim() === '') above--;
		while (above > 0 && lines[above - 1].trim() !== '' && !lines[above - 1].startsWith('|'))
			above--;
		const caption = above >= 0 && !lines[above].startsWith('|') ? lines[above] : '';
		const rows: string[][] = [];
		for (let j = i; j < lines.length && lines[j].startsWith('|'); j++) rows.push(cells(lines[j]));
		tables.push({ caption, rows: rows.slice(2) });
	}
	return tables;
}

const cells = (line: string) =>
	line
		.replace(/^\|/, '')
		.replace(/\|\s*$/, '')
		.split('|')
		.map((cell) => cell.trim());

/** The names a node table lists: every cell but the last column's, split at commas. */
function namesIn(table: Table): string[] {
	return table.rows.flatMap((row) =>
		row
			.slice(0, -1)
			.flatMap((cell) => cell.split(','))
			.map((name) => name.trim())
			.filter((name) => name !== '' && name !== '—'),
	);
}

const manifest = JSON.parse(read('package.json')) as { n8n: { nodes: string[] } };

/** Each node of the package, loaded from its TypeScript source, with the README anchor its codex links to. */
const nodes = manifest.n8n.nodes.map((built) => {
	const source = built.replace(/^dist\//, '').replace(/\.js$/, '.ts');
	const codex = JSON.parse(read(source.replace(/\.ts$/, '.json'))) as {
		resources: { primaryDocumentation: Array<{ url: string }> };
	};
	return {
		source,
		anchor: codex.resources.primaryDocumentation[0].url.split('#')[1],
	};
});

/** What a trigger lets the user watch: the options of these properties. */
const WATCHED = new Set(['events', 'taskEvents', 'contactEvents', 'trigger', 'watch']);

function offered(description: INodeTypeDescription): string[] {
	const options = (property: INodeProperties) =>
		(property.options ?? []).map((option) => String((option as { name: string }).name));
	const properties = description.properties;
	if (description.group.includes('trigger'))
		return properties.filter((property) => WATCHED.has(property.name)).flatMap(options);
	return properties
		.filter((property) => property.name === 'resource' || property.name === 'operation')
		.flatMap(options);
}

const sorted = (names: string[]) => [...new Set(names)].sort();

describe('README: a table per node of what it offers', () => {
	test.each(nodes.map((node) => [node.source, node] as const))('%s', async (_source, node) => {
		const module = (await import(join(root, node.source))) as Record<
			string,
			new () => { description: INodeTypeDescription }
		>;
		const description = new (Object.values(module)[0])().description;
		const names = offered(description);
		const captioned = tablesOf(section(readme, node.anchor)).filter((table) =>
			table.caption.startsWith(`**${description.displayName}**`),
		);
		if (names.length === 0) {
			// A sub-node (the AI Chat Model) offers no operation: it is still named in its section.
			expect(section(readme, node.anchor).join('\n')).toContain(`**${description.displayName}**`);
			return;
		}
		if (description.group.includes('trigger'))
			expect([node.source, 'watches', names.length]).not.toEqual([node.source, 'watches', 0]);
		expect([description.displayName, captioned.length]).toEqual([description.displayName, 1]);
		expect([description.displayName, sorted(namesIn(captioned[0]))]).toEqual([
			description.displayName,
			sorted(names),
		]);
	});
});

/** Every `.ts`/`.mjs`/`.cjs`/`.js` file below a folder. */
function sourceFiles(folder: string): string[] {
	const path = join(root, folder);
	if (!existsSync(path)) return [];
	if (statSync(path).isFile()) return [folder];
	return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
		const child = join(folder, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(child);
		return /\.(ts|mjs|cjs|js)$/.test(entry.name) ? [child] : [];
	});
}

/**
 * The environment variables a file reads: `process.env.X`, `process.env['X']`, `env.X` of an `env` parameter,
 * and, where the file indexes the environment with a variable, the names of a string array it walks
 * (`['HTTP_PROXY', …].some(…)`). Lower-case spellings count as the upper-case variable.
 */
function variablesReadBy(file: string): string[] {
	const text = read(file);
	const found = [
		...text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g),
		...text.matchAll(/\benv\[\s*['"]([A-Za-z][A-Za-z0-9_]*)['"]\s*\]/g),
		// A helper handed the environment and a literal name: `read(env, 'no_proxy')`.
		...text.matchAll(/\(\s*env\s*,\s*['"]([A-Za-z][A-Za-z0-9_]*)['"]\s*\)/g),
	].map((match) => match[1]);
	if (/\benv\[\s*[^'"\s]/.test(text)) {
		for (const match of text.matchAll(
			/(?:const (\w+) = )?\[((?:\s*'[A-Za-z_][A-Za-z0-9_]*',?)+\s*)\](\.some\()?/g,
		)) {
			const walked = match[3] !== undefined || (match[1] && text.includes(`${match[1]}.some(`));
			if (walked) found.push(...[...match[2].matchAll(/'([^']+)'/g)].map((name) => name[1]));
		}
	}
	return found.map((name) => name.toUpperCase());
}

/** Variables every process has; not the project's settings. */
const GENERIC = new Set(['PATH', 'NODE_OPTIONS', 'HOME', 'NODE_ENV']);

const packReads = sorted(
	[...sourceFiles('nodes'), ...sourceFiles('credentials'), 'scripts/start.mjs'].flatMap(
		variablesReadBy,
	),
);

describe('README: environment variables', () => {
	test('the Settings table names exactly the variables the pack and npm start read', () => {
		const table = tablesOf(section(readme, 'settings'))[0];
		const documented = table.rows.flatMap((row) =>
			[...row[0].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
		);
		expect(packReads.length).toBeGreaterThan(5);
		expect(sorted(documented)).toEqual(packReads);
	});

	test('every variable the other scripts and the test harnesses read is named in the documents', () => {
		const others = sorted(
			[...sourceFiles('scripts'), ...sourceFiles('test')]
				// This file names variables only in its comments.
				.filter((file) => file !== 'scripts/start.mjs' && !file.endsWith('package/readme.test.ts'))
				.flatMap(variablesReadBy),
		).filter((name) => !GENERIC.has(name));
		const documents = [
			'README.md',
			...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`),
			...['sandbox', 'e2e', 'engine'].map((tier) => `test/${tier}/README.md`),
		]
			.map(read)
			.join('\n');
		expect(others.filter((name) => !documents.includes(`\`${name}`))).toEqual([]);
	});
});

const documentsWithLinks = [
	'README.md',
	'CHANGELOG.md',
	...readdirSync(join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
	'test/sandbox/README.md',
	'test/e2e/README.md',
	'test/engine/README.md',
];

describe('documents: relative links resolve', () => {
	test.each(documentsWithLinks)('%s', (document) => {
		const broken: string[] = [];
		const text = proseLines(read(document))
			.map(({ line }) => line.replace(/`[^`]*`/g, ''))
			.join('\n');
		for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
			const [path, anchor] = target.split('#');
			const file = path === '' ? join(root, document) : resolve(root, dirname(document), path);
			if (!existsSync(file)) {
				broken.push(`${target} (no ${relative(root, file)})`);
				continue;
			}
			if (anchor !== undefined && !anchorsOf(readFileSync(file, 'utf8')).has(anchor))
				broken.push(`${target} (no heading #${anchor})`);
		}
		expect(broken).toEqual([]);
	});
});
