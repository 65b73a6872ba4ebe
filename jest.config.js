const transform = {
	'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
};

const project = (name, extra = {}) => ({
	displayName: name,
	testEnvironment: 'node',
	transform,
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	...extra,
});

module.exports = {
	projects: [
		project('unit'),
		project('engine', { testTimeout: 60_000 }),
		project('e2e', { testTimeout: 600_000, globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts' }),
	],
};
