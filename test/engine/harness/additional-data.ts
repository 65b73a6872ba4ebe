/**
 * `additionalData`: what n8n's CLI hands the engine for one execution (WorkflowExecuteAdditionalData).
 * Only what a community node can reach is real: the credentials helper, execution and workflow ids (binary
 * data is stored per execution), the lifecycle hooks, URLs and variables for expressions. Sub-workflows,
 * task runners and AI features throw if a node reaches for them.
 */
import type { ExecutionLifecycleHooks } from 'n8n-core';
import { ExternalSecretsProxy } from 'n8n-core';
import type { ICredentialsHelper, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import { Container } from './core-container';

const unsupported = (what: string) => async () => {
	throw new Error(`${what} is not supported by the engine test harness`);
};

export function createAdditionalData(options: {
	credentialsHelper: ICredentialsHelper;
	hooks?: ExecutionLifecycleHooks;
	executionId: string;
	workflowId: string;
}): IWorkflowExecuteAdditionalData {
	const baseUrl = 'http://localhost:5678';
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		workflowId: options.workflowId,
		userId: 'engine-test-user',
		currentNodeExecutionIndex: 0,
		variables: {},
		// No external secrets provider: `$secrets` in a credential fails as in n8n without one.
		externalSecretsProxy: Container.get(ExternalSecretsProxy),
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: baseUrl,
		formBaseUrl: `${baseUrl}/form`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
		logAiEvent: () => {},
		executeWorkflow: unsupported('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('Task runners (Code node)'),
	} as unknown as IWorkflowExecuteAdditionalData;
}
