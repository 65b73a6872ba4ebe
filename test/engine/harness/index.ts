export { runWorkflow, type RunOptions, type RunResult } from './run-workflow';
export { runPoll, type PollOptions, type PollResult } from './run-poll';
export { chain, type NodeSpec, type WorkflowSpec } from './workflow';
export { fixtureBytes } from './fixtures';
export { PACKAGE_NAME } from './node-types';
export { testCredential } from './test-credential';
