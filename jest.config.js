const transform = {
	'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
};

const project = (name, extra = {}) => ({
	displayName: name,
	testEnvironment: 'node',
	transform,
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	setupFilesAfterEnv: ['<rootDir>/test/jest-timeouts.ts'],
	...extra,
});

module.exports = {
	projects: [
		project('unit'),
		project('engine'),
		project('e2e', { globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts' }),
	],
};
