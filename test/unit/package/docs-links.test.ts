// Every node's Docs link (codex `resources.primaryDocumentation`) and every credential's documentationUrl
// points to a section of the README on the repository named in package.json, and that section exists.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	repository: { url: string };
};
const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const anchors = new Set(
	readFileSync(join(root, 'README.md'), 'utf8')
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) =>
			line
				.replace(/^#+ /, '')
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N} _-]/gu, '')
				.replace(/ /g, '-'),
		),
);

function expectReadmeSection(url: string) {
	const [base, anchor] = url.split('#');
	expect(base).toBe(repository);
	expect([url, anchors.has(anchor ?? '')]).toEqual([url, true]);
}

const codexFiles = readdirSync(join(root, 'nodes'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && entry.name !== 'shared')
	.flatMap((entry) =>
		readdirSync(join(root, 'nodes', entry.name))
			.filter((name) => name.endsWith('.node.json'))
			.map((name) => join('nodes', entry.name, name)),
	);

test.each(codexFiles)('%s links to its README section', (file) => {
	const codex = JSON.parse(readFileSync(join(root, file), 'utf8')) as {
		resources: { primaryDocumentation: Array<{ url: string }> };
	};
	expect(codex.resources.primaryDocumentation.length).toBeGreaterThan(0);
	for (const { url } of codex.resources.primaryDocumentation) expectReadmeSection(url);
});

test('credentials link to the README section on credentials', () => {
	for (const file of readdirSync(join(root, 'credentials')).filter((name) =>
		name.endsWith('.ts'),
	)) {
		const url = /documentationUrl = '([^']+)'/.exec(
			readFileSync(join(root, 'credentials', file), 'utf8'),
		)?.[1];
		expect([file, url]).toEqual([file, expect.any(String)]);
		expectReadmeSection(url!);
	}
});
