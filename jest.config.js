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
	// Jest's default is one worker fewer than the cores: one on a 2-core machine, which ran the unit tier's files
	// one after another. Every core instead; the end-to-end tier runs one file at a time (scripts/jest.mjs and
	// scripts/test.mjs pass --runInBand), since each of its files starts a real n8n.
	maxWorkers: '100%',
	// A worker told to end is force-exited after this long (Jest's default: 500 ms). Measured on the shared 2-core
	// machine at load 10-12: workers held nothing but their IPC pipes and exited within 1 ms of reading the end
	// message, which reached them 0.5-4 s late (event-loop lag), so the default warned of leaks that were not
	// there. A handle that keeps a worker alive still draws the warning, 10 s later.
	workerGracefulExitTimeout: 10_000,
	projects: [
		project('unit'),
		project('engine'),
		project('e2e', { globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts' }),
	],
};
