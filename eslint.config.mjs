import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';
import globals from 'globals';

// Where the code is not a node package (tests, the sandbox, scripts): the community-node rules describe what a
// node may do at run time in n8n (no child processes, no console, no hardcoded secrets) and do not apply.
const communityRulesOff = Object.fromEntries(
	Object.keys(n8nCommunityNodesPlugin.rules).map((rule) => [`@n8n/community-nodes/${rule}`, 'off']),
);

export default [
	{ ignores: ['dist/**', '.tmp/**', 'test/e2e/runtime/**'] },
	...configWithoutCloudSupport,
	{
		// The pack is for self-hosted n8n and needs runtime libraries (XML, iCalendar/vCard, multipart,
		// streaming HTTP), which the n8n Cloud variant of the rules forbids.
		files: ['package.json'],
		rules: { '@n8n/community-nodes/no-runtime-dependencies': 'off' },
	},
	{
		// The transport has one public face (nodes/shared/transport/index.ts): nothing outside the folder reaches
		// past it to an inner module, so paths, parser and wrappers can change without touching their callers.
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts'],
		ignores: ['nodes/shared/transport/**', 'test/unit/transport/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							regex: '(^|/)shared/transport/.+|^\\.\\./transport/.+',
							message:
								"Import the transport from its face ('…/shared/transport'), not an inner module.",
						},
					],
				},
			],
		},
	},
	{
		// Test code and scripts: TypeScript's and ESLint's recommended rules, tuned for code that prints,
		// spawns processes and handles exported workflow JSON.
		files: ['test/**/*.ts', 'scripts/**/*.ts'],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			...communityRulesOff,
			'no-console': 'off',
			// Exported workflows and fixtures are untyped JSON; tests index into them freely.
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{
					argsIgnorePattern: '^_',
					varsIgnorePattern: '^_',
					caughtErrors: 'none',
					ignoreRestSiblings: true,
				},
			],
		},
	},
	{
		files: ['**/*.js', '**/*.mjs'],
		...js.configs.recommended,
		languageOptions: { globals: globals.node, sourceType: 'module' },
	},
	{
		files: ['**/*.js'],
		languageOptions: { sourceType: 'commonjs' },
	},
];
